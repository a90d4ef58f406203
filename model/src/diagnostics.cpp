// Collecting and rendering diagnostics. Every front-end stage appends values
// to one sink; rendering happens once, sorted by position, in the compiler
// style users already read fluently: a `file:line:col: severity: message`
// header, the quoted source line in a 5-wide gutter, and a caret underline
// that keeps the line's tabs so it stays aligned in any tab width; a line
// longer than 160 bytes is quoted around the caret only. Notes follow their
// diagnostic. Whatever comes from a file (its name, a quoted line, names in
// messages) is shown terminal-safe, escapes in place of control bytes, and
// only the first max_rendered diagnostics are rendered. `closest_name`
// powers "did you mean" notes.
#include "loophole/model/diagnostics.hpp"

#include <algorithm>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace loophole::model {

namespace {

constexpr const char* k_reset = "\033[0m";
constexpr const char* k_bold = "\033[1m";
constexpr const char* k_red = "\033[1;31m";
constexpr const char* k_magenta = "\033[1;35m";
constexpr const char* k_cyan = "\033[1;36m";
constexpr const char* k_green = "\033[1;32m";

const char* severity_word(Severity s) {
  switch (s) {
    case Severity::note:
      return "note";
    case Severity::warning:
      return "warning";
    case Severity::error:
      return "error";
  }
  return "error";
}

const char* severity_color(Severity s) {
  switch (s) {
    case Severity::note:
      return k_cyan;
    case Severity::warning:
      return k_magenta;
    case Severity::error:
      return k_red;
  }
  return k_red;
}

// Lines longer than this are quoted in part: from k_quoted_before bytes
// before the caret, k_max_quoted in all with the "..." marks.
constexpr std::size_t k_max_quoted = 160, k_quoted_before = 60;
constexpr std::string_view k_cut_mark = "...";

bool is_utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0U) == 0x80U; }

// One character of `text` at `i` as the terminal is to see it: the bytes it
// spans and what is written for it (the bytes themselves, or an escape).
struct Shown {
  std::size_t bytes;
  std::string text;
  std::size_t columns;  // on the screen, for the caret line (a tab counts 1)
};

Shown shown_at(std::string_view text, std::size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  const auto escaped = [](std::string s) { return Shown{1, s, s.size()}; };
  if (c == '\t') return Shown{1, "\t", 1};
  if (c < 0x20 || c == 0x7F) return escaped(fmt::format("\\x{:02x}", c));
  if (c < 0x80) return Shown{1, std::string(1, static_cast<char>(c)), 1};
  const std::size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
  const std::string_view unit = text.substr(i, length);
  if (unit.size() < length || invalid_utf8_at(unit) != std::string_view::npos) {
    return escaped(fmt::format("\\x{:02x}", c));
  }
  // C1 controls (U+0080..U+009F: CSI is U+009B) and the bidirectional
  // overrides and isolates that reorder what a reader sees.
  std::uint32_t code = c & (0x7FU >> length);
  for (std::size_t k = 1; k < length; ++k) code = (code << 6) | (text[i + k] & 0x3FU);
  if (code <= 0x9F || (code >= 0x202A && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069)) {
    Shown s{length, fmt::format("\\u{:04x}", code), 6};
    return s;
  }
  return Shown{length, std::string(unit), 1};
}

class Renderer {
 public:
  Renderer(const SourceManager& sources, bool color) : sources_(sources), color_(color) {}

  void diagnostic(const Diagnostic& d) {
    one(d.severity, d.where, d.message);
    for (const Diagnostic& n : d.notes) one(n.severity, n.where, n.message);
  }

  std::string take() { return std::move(out_); }

 private:
  void paint(const char* color) {
    if (color_) out_ += color;
  }

  void one(Severity severity, const SourceSpan& where, const std::string& message) {
    const bool located = !where.file.empty();
    // A note without any location reads best bare; anything else always says
    // where it comes from (the tool itself when nothing better is known).
    if (located || severity != Severity::note) {
      paint(k_bold);
      if (!located) {
        out_ += "loophole";
      } else {
        out_ += terminal_safe(where.file);
        if (where.known()) {
          out_ += ':' + std::to_string(where.line);
          if (where.col != 0) out_ += ':' + std::to_string(where.col);
        }
      }
      out_ += ": ";
      paint(k_reset);
    }
    paint(severity_color(severity));
    out_ += severity_word(severity);
    out_ += ':';
    paint(k_reset);
    out_ += ' ';
    paint(k_bold);
    out_ += terminal_safe(message);
    paint(k_reset);
    out_ += '\n';
    if (located && where.known()) quote(where);
  }

 public:
  // The quoted line and its underline.
  void quote(const SourceSpan& where) {
    const std::string_view line = sources_.line(where.file, where.line);
    if (line.empty()) return;
    const std::size_t caret = where.col == 0 ? 0 : where.col - 1;
    // A long line (a generated ruleset, an expression on one line) is quoted
    // around the caret only, marked "..." where it is cut.
    std::size_t begin = 0, end = line.size();
    if (line.size() > k_max_quoted) {
      const std::size_t anchor = std::min(caret, line.size());
      begin = anchor > k_quoted_before ? anchor - k_quoted_before : 0;
      while (begin > 0 && is_utf8_continuation(line[begin])) --begin;
      end = std::min(line.size(), begin + k_max_quoted - 2 * k_cut_mark.size());
      while (end < line.size() && is_utf8_continuation(line[end])) ++end;
    }
    const std::string_view text = line.substr(begin, end - begin);
    const std::string_view before = begin > 0 ? k_cut_mark : std::string_view{};
    std::string number = std::to_string(where.line);
    if (number.size() < 5) number.insert(0, 5 - number.size(), ' ');
    out_ += number;
    out_ += " | ";
    out_ += before;
    // The line as the terminal is to see it, and under it one pad column per
    // column shown before the caret (tabs stay tabs), then the underline.
    const std::size_t at = caret - begin;
    const std::size_t stop = at + std::max<std::uint32_t>(where.length, 1);
    std::string pad, underline;
    std::size_t i = 0;
    for (; i < text.size();) {
      const Shown unit = shown_at(text, i);
      out_ += unit.text;
      if (i < at) {
        if (unit.text == "\t") {
          pad += '\t';
        } else {
          pad.append(unit.columns, ' ');
        }
      } else if (i < stop) {
        underline.append(unit.columns, underline.empty() ? '^' : '~');
      }
      i += unit.bytes;
    }
    if (end < line.size()) out_ += k_cut_mark;
    out_ += '\n';

    out_ += "      | ";
    out_.append(before.size(), ' ');
    out_ += pad;
    if (at > text.size()) out_.append(at - text.size(), ' ');
    paint(k_green);
    // The underline stops at the end of the line (of its quoted part); a
    // caret past it still shows.
    if (underline.empty()) {
      underline = "^";
    } else if (underline.size() > 1) {
      underline.replace(1, std::string::npos, underline.size() - 1, '~');
    }
    out_ += underline;
    paint(k_reset);
    out_ += '\n';
  }

 private:
  const SourceManager& sources_;
  bool color_;
  std::string out_;
};

}  // namespace

Diagnostic& DiagnosticSink::error(SourceSpan where, std::string message) {
  diags_.push_back(Diagnostic{Severity::error, std::move(where), std::move(message), {}});
  return diags_.back();
}

Diagnostic& DiagnosticSink::warning(SourceSpan where, std::string message) {
  diags_.push_back(Diagnostic{Severity::warning, std::move(where), std::move(message), {}});
  return diags_.back();
}

void DiagnosticSink::note_since(std::size_t first, const SourceSpan& where,
                                const std::string& message) {
  for (std::size_t i = first; i < diags_.size(); ++i) note(diags_[i], where, message);
}

void DiagnosticSink::note(Diagnostic& d, SourceSpan where, std::string message) {
  d.notes.push_back(Diagnostic{Severity::note, std::move(where), std::move(message), {}});
}

bool DiagnosticSink::has_errors() const { return error_count() != 0; }

std::size_t DiagnosticSink::error_count() const {
  return static_cast<std::size_t>(
      std::count_if(diags_.begin(), diags_.end(),
                    [](const Diagnostic& d) { return d.severity == Severity::error; }));
}

std::string DiagnosticSink::render(const SourceManager& sources, bool color) const {
  std::vector<const Diagnostic*> order;
  order.reserve(diags_.size());
  for (const Diagnostic& d : diags_) order.push_back(&d);
  std::stable_sort(order.begin(), order.end(), [](const Diagnostic* a, const Diagnostic* b) {
    if (a->where.file != b->where.file) return a->where.file < b->where.file;
    if (a->where.line != b->where.line) return a->where.line < b->where.line;
    return a->where.col < b->where.col;
  });
  Renderer renderer(sources, color);
  const std::size_t shown = std::min(order.size(), max_rendered);
  for (std::size_t i = 0; i < shown; ++i) renderer.diagnostic(*order[i]);
  std::string out = renderer.take();
  if (shown == order.size()) return out;
  std::size_t more[3] = {0, 0, 0};  // by Severity
  for (std::size_t i = shown; i < order.size(); ++i) ++more[static_cast<int>(order[i]->severity)];
  std::string rest;
  for (const Severity s : {Severity::error, Severity::warning, Severity::note}) {
    const std::size_t n = more[static_cast<int>(s)];
    if (n == 0) continue;
    rest += fmt::format("{}{} more {}{}", rest.empty() ? "" : " and ", n, severity_word(s),
                        n == 1 ? "" : "s");
  }
  Renderer trailer(sources, color);
  trailer.diagnostic(Diagnostic{Severity::note, {}, "and " + rest, {}});
  return out + trailer.take();
}

std::string render_snippet(const SourceManager& sources, const SourceSpan& where, bool color) {
  if (!where.known()) return {};
  Renderer renderer(sources, color);
  renderer.quote(where);
  return renderer.take();
}

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const Shown unit = shown_at(text, i);
    out += unit.text;
    i += unit.bytes;
  }
  return out;
}

std::string closest_name(const std::string& name, const std::vector<std::string>& candidates) {
  const std::size_t limit = std::max<std::size_t>(1, name.size() / 3);
  std::string best;
  std::size_t best_distance = limit + 1;
  std::vector<std::size_t> previous(name.size() + 1);
  std::vector<std::size_t> current(name.size() + 1);
  for (const std::string& candidate : candidates) {
    // Cheap rejection: the length difference alone is a lower bound.
    const std::size_t length_gap = candidate.size() > name.size() ? candidate.size() - name.size()
                                                                  : name.size() - candidate.size();
    if (length_gap >= best_distance) continue;
    for (std::size_t j = 0; j <= name.size(); ++j) previous[j] = j;
    for (std::size_t i = 1; i <= candidate.size(); ++i) {
      current[0] = i;
      for (std::size_t j = 1; j <= name.size(); ++j) {
        const std::size_t substitute = previous[j - 1] + (candidate[i - 1] == name[j - 1] ? 0 : 1);
        current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitute});
      }
      std::swap(previous, current);
    }
    const std::size_t distance = previous[name.size()];
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  if (!best.empty()) return best;
  // No close spelling: a candidate that is the name's first word(s) or extends
  // it by whole words ('discard_pile' for 'discard', 'hand' for 'hand_size').
  for (const std::string& candidate : candidates) {
    const std::string& shorter = candidate.size() < name.size() ? candidate : name;
    const std::string& longer = candidate.size() < name.size() ? name : candidate;
    if (shorter.size() >= 3 && longer.compare(0, shorter.size(), shorter) == 0 &&
        longer[shorter.size()] == '_') {
      return candidate;
    }
  }
  return best;
}

}  // namespace loophole::model
