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

// Why SourceManager::load() refused a file. A file is read only if it is a
// regular file (a FIFO, a device, a directory or a socket never ends or is
// not text), of at most max_file_bytes, and valid UTF-8.
struct ReadFailure {
  enum class Kind { unreadable, not_regular, invalid_utf8 };
  Kind kind = Kind::unreadable;
  std::string reason;      // unreadable: "No such file or directory", "more than 64 MiB, ..."
  std::uint32_t line = 0;  // invalid_utf8: where the first bad byte is (1-based)
  std::uint32_t col = 0;
  unsigned char byte = 0;  // invalid_utf8: the byte

  // The diagnostic's message; `what` names the file as "cannot read ..."
  // does: "file", "file 'cards/x.yaml'", "project file".
  [[nodiscard]] std::string message(std::string_view what, const std::string& path) const;
  // Where it goes: in the file itself for a bad byte, else `otherwise` (the
  // include entry, or the file without a line).
  [[nodiscard]] SourceSpan where(const std::string& path, const SourceSpan& otherwise) const;
};

// Holds the text of every file read, so diagnostics can quote source lines.
// A line is quoted only from a file the reader has vouched for with
// set_quotable() (it parsed as a ruleset or project file): a file an include
// or a project entry names may be anything readable (a config with a token
// in it), and its lines must not end up in a CI log.
class SourceManager {
 public:
  // No file read is longer than this: a ruleset is a few kilobytes, and a
  // generated one a few megabytes.
  static constexpr std::size_t max_file_bytes = std::size_t{64} << 20;

  // Returns the file's text, reading it on first use; nullptr if it cannot be
  // read (see ReadFailure), and then failure() says why. The file is opened
  // without blocking (a FIFO with no writer) and checked on the descriptor.
  const std::string* load(const std::string& path);
  // The whole of an already open stream (standard input: `check -`), read
  // into memory with the same bound and UTF-8 check and kept as the regular
  // in-memory source `name`; nullptr and failure() as for load().
  const std::string* load_stream(int fd, const std::string& name);
  // Why the last load() or load_stream() that returned nullptr failed.
  [[nodiscard]] const ReadFailure& failure() const { return failure_; }
  // For in-memory rulesets (tests); quotable until set_quotable() says otherwise.
  void add(const std::string& path, std::string text);
  void set_quotable(const std::string& path, bool quotable);
  // Line `line` (1-based) of a quotable file without its line break; empty
  // for an unknown or unquotable file or a line past the end. O(log lines).
  [[nodiscard]] std::string_view line(const std::string& path, std::uint32_t line) const;

 private:
  ReadFailure failure_;
  struct File {
    std::string path;
    std::string text;
    std::vector<std::uint32_t> line_starts;  // byte offset of each line
    bool quotable = false;
  };
  std::vector<std::unique_ptr<File>> files_;
  [[nodiscard]] const File* find(const std::string& path) const;
  const std::string* read_and_keep(int fd, const std::string& path);
  static std::string too_large_message();
  File& keep(const std::string& path, std::string text, bool quotable);
};

// The offset of the first byte that is not part of well-formed UTF-8
// (overlong forms, surrogates and code points above U+10FFFF are not), or
// npos.
std::size_t invalid_utf8_at(std::string_view text);

// Confining the files a ruleset reads. A path is resolved as the system
// will open it (symlinks followed, `..` applied) and then checked to lie
// inside one of the roots, so neither `../..`, an absolute path nor a link
// pointing out reaches another file.
class FileRoots {
 public:
  void add(const std::string& dir);  // resolved when added
  [[nodiscard]] bool empty() const { return roots_.empty(); }
  [[nodiscard]] bool contains(const std::string& path) const;

 private:
  std::vector<std::string> roots_;  // resolved, each ending in '/'
};

}  // namespace loophole::model
