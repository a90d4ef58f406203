// Source files and positions. The SourceManager keeps the text of every file
// read so that diagnostics can quote the offending line long after loading.
// TextOrigin maps a byte offset inside an expression string (a YAML scalar's
// value) back to the file: YAML reports where the scalar starts, and the
// loader records where each line of its value starts, so an offset becomes
// (line entry, column within that line).
#include "loophole/model/source.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

namespace loophole::model {

TextOrigin TextOrigin::at_position(std::string file, std::uint32_t line, std::uint32_t col) {
  TextOrigin origin;
  origin.file = std::move(file);
  origin.lines.push_back(LineStart{line, col});
  return origin;
}

SourceSpan TextOrigin::at(std::string_view text, std::size_t offset, std::size_t length) const {
  SourceSpan span;
  span.file = file;
  if (lines.empty()) return span;
  offset = std::min(offset, text.size());
  std::size_t line_index = 0;
  std::size_t line_begin = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line_index;
      line_begin = i + 1;
    }
  }
  // More text lines than recorded starts: stay on the last known line rather
  // than invent a position.
  line_index = std::min(line_index, lines.size() - 1);
  // An underline never runs past the end of its line.
  const std::size_t line_end = std::min(text.find('\n', offset), text.size());
  length = std::min(length, line_end - offset);
  span.line = lines[line_index].line;
  span.col = lines[line_index].col + static_cast<std::uint32_t>(offset - line_begin);
  span.length = static_cast<std::uint32_t>(length);
  return span;
}

const SourceManager::File* SourceManager::find(const std::string& path) const {
  for (const auto& file : files_) {
    if (file->path == path) return file.get();
  }
  return nullptr;
}

const std::string* SourceManager::load(const std::string& path) {
  if (const File* known = find(path)) return &known->text;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error_ = std::strerror(EISDIR);
    return nullptr;
  }
  errno = 0;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    error_ = std::strerror(errno != 0 ? errno : ENOENT);
    return nullptr;
  }
  // Read in blocks up to one byte past the limit (a pipe or a device has no
  // size to ask for beforehand).
  std::string text;
  std::array<char, 1 << 16> block{};
  bool failed = false;
  while (text.size() <= max_file_bytes) {
    const std::size_t n = std::fread(block.data(), 1, block.size(), f);
    text.append(block.data(), n);
    if (n < block.size()) {
      failed = std::ferror(f) != 0;
      break;
    }
  }
  std::fclose(f);
  if (failed) {
    error_ = std::strerror(EIO);
    return nullptr;
  }
  if (text.size() > max_file_bytes) {
    error_ = fmt::format("more than {} MiB, more than any ruleset or project file needs",
                         max_file_bytes >> 20);
    return nullptr;
  }
  files_.push_back(std::make_unique<File>(File{path, std::move(text)}));
  return &files_.back()->text;
}

void SourceManager::add(const std::string& path, std::string text) {
  for (auto& file : files_) {
    if (file->path == path) {
      file->text = std::move(text);
      return;
    }
  }
  files_.push_back(std::make_unique<File>(File{path, std::move(text)}));
}

std::string_view SourceManager::line(const std::string& path, std::uint32_t line) const {
  const File* file = find(path);
  if (file == nullptr || line == 0) return {};
  std::string_view text = file->text;
  std::size_t begin = 0;
  for (std::uint32_t current = 1; current < line; ++current) {
    const std::size_t newline = text.find('\n', begin);
    if (newline == std::string_view::npos) return {};
    begin = newline + 1;
  }
  if (begin > text.size()) return {};
  std::size_t end = std::min(text.find('\n', begin), text.size());
  if (end > begin && text[end - 1] == '\r') --end;
  return text.substr(begin, end - begin);
}

}  // namespace loophole::model
