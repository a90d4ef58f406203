// Where a piece of a ruleset came from. Every IR node carries a SourceSpan so
// that diagnostics and findings can point at `file:line:col`; the files
// themselves are kept by a SourceManager so the renderer can quote the line.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace loophole::model {

struct SourceSpan {
  std::string file;          // path as given by the user (or relative to the including file)
  std::uint32_t line = 0;    // 1-based; 0 = no location
  std::uint32_t col = 0;     // 1-based
  std::uint32_t length = 0;  // in bytes, for the caret underline (0 = a single caret)

  [[nodiscard]] bool known() const { return line != 0; }
  // A span `offset` bytes further into the same line (for positions inside an
  // expression string that YAML reported as a whole).
  [[nodiscard]] SourceSpan shifted(std::uint32_t offset, std::uint32_t len) const {
    return SourceSpan{file, line, col + offset, len};
  }
};

// Maps byte offsets inside an expression string (a YAML scalar's value) back to
// the file. One entry per line of the value: where that line's first character
// sits in the file. The loader builds it from the scalar's mark and style
// (plain, quoted, literal/folded block); the expression parser only calls at().
struct TextOrigin {
  std::string file;
  struct LineStart {
    std::uint32_t line;
    std::uint32_t col;
  };
  std::vector<LineStart> lines;  // lines[i] = position of line i of the text
  // A single-line origin starting at (line, col).
  static TextOrigin at_position(std::string file, std::uint32_t line, std::uint32_t col);
  [[nodiscard]] SourceSpan at(std::string_view text, std::size_t offset, std::size_t length) const;
};

// Holds the text of every file read, so diagnostics can quote source lines.
class SourceManager {
 public:
  // No file read is longer than this: a ruleset is a few kilobytes, and a
  // path such as /dev/zero (an include can name any file) must not be read
  // until memory runs out.
  static constexpr std::size_t max_file_bytes = std::size_t{16} << 20;

  // Returns the file's text, reading it on first use; nullptr if it cannot be
  // read (a directory, a file that does not open or fails to read, or one of
  // more than max_file_bytes), and then error() says why.
  const std::string* load(const std::string& path);
  // Why the last load() that returned nullptr failed ("Is a directory").
  [[nodiscard]] const std::string& error() const { return error_; }
  void add(const std::string& path, std::string text);  // for in-memory rulesets (tests)
  [[nodiscard]] std::string_view line(const std::string& path, std::uint32_t line) const;

 private:
  std::string error_;
  struct File {
    std::string path;
    std::string text;
  };
  std::vector<std::unique_ptr<File>> files_;
  [[nodiscard]] const File* find(const std::string& path) const;
};

}  // namespace loophole::model
