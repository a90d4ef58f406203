// Source files and positions. The SourceManager keeps the text of every file
// read so that diagnostics can quote the offending line long after loading.
// TextOrigin maps a byte offset inside an expression string (a YAML scalar's
// value) back to the file: YAML reports where the scalar starts, and the
// loader records where each line of its value starts, so an offset becomes
// (line entry, column within that line). Files are read only if they are
// regular, bounded and UTF-8, and FileRoots keeps includes inside the
// directories a ruleset may read.
#include "loophole/model/source.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

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

std::string ReadFailure::message(std::string_view what, const std::string& path) const {
  switch (kind) {
    case Kind::not_regular:
      return fmt::format("'{}' is not a regular file", path);
    case Kind::invalid_utf8:
      return fmt::format("invalid UTF-8 byte 0x{:02x}", byte);
    case Kind::unreadable:
      break;
  }
  return fmt::format("cannot read {}: {}", what, reason);
}

SourceSpan ReadFailure::where(const std::string& path, const SourceSpan& otherwise) const {
  if (kind == Kind::invalid_utf8) return SourceSpan{path, line, col, 1};
  return otherwise;
}

const SourceManager::File* SourceManager::find(const std::string& path) const {
  for (const auto& file : files_) {
    if (file->path == path) return file.get();
  }
  return nullptr;
}

SourceManager::File& SourceManager::keep(const std::string& path, std::string text, bool quotable) {
  auto file = std::make_unique<File>(File{path, std::move(text), {}, quotable});
  file->line_starts.push_back(0);
  for (std::size_t i = 0; i < file->text.size(); ++i) {
    if (file->text[i] == '\n') file->line_starts.push_back(static_cast<std::uint32_t>(i + 1));
  }
  for (auto& known : files_) {
    if (known->path == path) {
      known = std::move(file);
      return *known;
    }
  }
  files_.push_back(std::move(file));
  return *files_.back();
}

const std::string* SourceManager::load(const std::string& path) {
  if (const File* known = find(path)) return &known->text;
  failure_ = ReadFailure{};
  const auto unreadable = [this](std::string reason) -> const std::string* {
    failure_ = ReadFailure{ReadFailure::Kind::unreadable, std::move(reason), 0, 0, 0};
    return nullptr;
  };
  // O_NONBLOCK: opening a FIFO waits for a writer otherwise. What was opened
  // is checked on the descriptor, so nothing can swap the file in between.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return unreadable(std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    failure_.kind = ReadFailure::Kind::not_regular;
    return nullptr;
  }
  if (static_cast<std::uint64_t>(st.st_size) > max_file_bytes) {
    ::close(fd);
    return unreadable(too_large_message());
  }
  const std::string* text = read_and_keep(fd, path);
  ::close(fd);
  return text;
}

std::string SourceManager::too_large_message() {
  return fmt::format("more than {} MiB, more than any ruleset or project file needs",
                     max_file_bytes >> 20);
}

// Reads `fd` to its end (bounded, UTF-8 checked) and keeps it as `path`.
// Reads up to one byte past the limit: a file may grow while it is read,
// and /proc files say they are empty.
const std::string* SourceManager::read_and_keep(int fd, const std::string& path) {
  const auto unreadable = [this](std::string reason) -> const std::string* {
    failure_ = ReadFailure{ReadFailure::Kind::unreadable, std::move(reason), 0, 0, 0};
    return nullptr;
  };
  std::string text;
  std::array<char, 1 << 16> block{};
  int read_errno = 0;
  while (text.size() <= max_file_bytes) {
    const ssize_t n = ::read(fd, block.data(), block.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) read_errno = errno;
    if (n <= 0) break;
    text.append(block.data(), static_cast<std::size_t>(n));
  }
  if (read_errno != 0) return unreadable(std::strerror(read_errno));
  if (text.size() > max_file_bytes) return unreadable(too_large_message());
  if (const std::size_t bad = invalid_utf8_at(text); bad != std::string::npos) {
    const std::size_t line_begin = bad == 0 ? 0 : text.rfind('\n', bad - 1) + 1;
    failure_.kind = ReadFailure::Kind::invalid_utf8;
    failure_.line = static_cast<std::uint32_t>(
        1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n'));
    failure_.col = static_cast<std::uint32_t>(bad - line_begin + 1);
    failure_.byte = static_cast<unsigned char>(text[bad]);
    return nullptr;
  }
  return &keep(path, std::move(text), false).text;
}

const std::string* SourceManager::load_stream(int fd, const std::string& name) {
  if (const File* known = find(name)) return &known->text;
  failure_ = ReadFailure{};
  return read_and_keep(fd, name);
}

void SourceManager::add(const std::string& path, std::string text) {
  keep(path, std::move(text), true);
}

void SourceManager::set_quotable(const std::string& path, bool quotable) {
  for (auto& file : files_) {
    if (file->path == path) file->quotable = quotable;
  }
}

std::string_view SourceManager::line(const std::string& path, std::uint32_t line) const {
  const File* file = find(path);
  if (file == nullptr || !file->quotable || line == 0 || line > file->line_starts.size()) return {};
  const std::string_view text = file->text;
  const std::size_t begin = file->line_starts[line - 1];
  std::size_t end = line < file->line_starts.size() ? file->line_starts[line] - 1 : text.size();
  if (end > begin && text[end - 1] == '\r') --end;
  return text.substr(begin, end - begin);
}

std::size_t invalid_utf8_at(std::string_view text) {
  std::size_t i = 0;
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  while (i < text.size()) {
    const unsigned char c = byte(i);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) low = 0xA0;   // overlong
      if (c == 0xED) high = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) low = 0x90;   // overlong
      if (c == 0xF4) high = 0x8F;  // above U+10FFFF
    } else {
      return i;
    }
    if (i + 1 >= text.size() || byte(i + 1) < low || byte(i + 1) > high) return i;
    for (std::size_t k = 2; k < length; ++k) {
      if (i + k >= text.size() || (byte(i + k) & 0xC0U) != 0x80U) return i;
    }
    i += length;
  }
  return std::string::npos;
}

namespace {

std::string resolved(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p =
      std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  if (ec) p = std::filesystem::absolute(path, ec).lexically_normal();
  return p.string();
}

}  // namespace

void FileRoots::add(const std::string& dir) {
  std::string root = resolved(dir.empty() ? "." : dir);
  if (root.empty() || root.back() != '/') root += '/';
  if (std::find(roots_.begin(), roots_.end(), root) == roots_.end()) roots_.push_back(root);
}

bool FileRoots::contains(const std::string& path) const {
  const std::string p = resolved(path);
  return std::any_of(roots_.begin(), roots_.end(), [&](const std::string& root) {
    return p.size() >= root.size() && p.compare(0, root.size(), root) == 0;
  });
}

}  // namespace loophole::model
