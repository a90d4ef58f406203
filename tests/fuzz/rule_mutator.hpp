// A structure-aware mutator for the ruleset fuzz targets. libFuzzer's byte
// mutations break the YAML or the expressions of a seed ruleset nearly every
// time (about one input in ten still loads), so the checker behind the front
// end mostly sees the seeds. These mutations change what a designer changes:
// a number, a comparison, an operator, a name (to another name of the same
// file), `and` / `or`, `true` / `false`, a list item dropped or doubled. The
// result is still YAML with expressions of the language most of the time,
// and a different game: other scopes, guards, effects and end conditions.
// Some mutations stay libFuzzer's own (passed in as `bytes`), so that
// nothing the byte mutator could reach is out of reach.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace loophole::fuzz {

// libFuzzer's own mutator (LLVMFuzzerMutate) or a stand-in.
using ByteMutator = std::size_t (*)(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace detail {

struct Token {
  std::size_t at = 0, size = 0;
};

inline bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Whether only spaces precede position i on its line (a YAML list's "- ",
// not a binary operator).
inline bool line_start(std::string_view s, std::size_t i) {
  while (i > 0 && s[i - 1] == ' ') --i;
  return i == 0 || s[i - 1] == '\n';
}

// Runs of text of one kind: integers, words, comparison and arithmetic
// operators (YAML keys are words too: replacing one by another word of the
// file mostly gives an unknown key, which the front end must report).
inline void tokens(std::string_view s, std::vector<Token>& numbers, std::vector<Token>& words,
                   std::vector<Token>& comparisons, std::vector<Token>& arithmetic) {
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (std::isdigit(static_cast<unsigned char>(c)) != 0 && (i == 0 || !word_char(s[i - 1]))) {
      std::size_t j = i;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])) != 0) ++j;
      numbers.push_back({i, j - i});
      i = j;
    } else if (word_char(c)) {
      std::size_t j = i;
      while (j < s.size() && word_char(s[j])) ++j;
      words.push_back({i, j - i});
      i = j;
    } else if (c == '<' || c == '>' ||
               ((c == '=' || c == '!') && i + 1 < s.size() && s[i + 1] == '=')) {
      const std::size_t n = i + 1 < s.size() && s[i + 1] == '=' ? 2 : 1;
      comparisons.push_back({i, n});
      i += n;
    } else if ((c == '+' || c == '-' || c == '*') && i + 1 < s.size() && s[i + 1] == ' ' &&
               !line_start(s, i)) {
      arithmetic.push_back({i, 1});
      ++i;
    } else {
      ++i;
    }
  }
}

}  // namespace detail

// Mutates the ruleset text data[0, size) in place (at most max_size bytes);
// returns the new size. Deterministic for a given seed.
inline std::size_t mutate_ruleset(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                  unsigned seed, ByteMutator bytes) {
  std::mt19937 rng(seed);
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  if (size == 0 || pick(8) == 0) return bytes(data, size, max_size);

  std::string s(reinterpret_cast<const char*>(data), size);
  std::vector<detail::Token> numbers, words, comparisons, arithmetic;
  detail::tokens(s, numbers, words, comparisons, arithmetic);
  auto replace = [&](const detail::Token& t, std::string_view with) {
    s.replace(t.at, t.size, with);
  };

  // (A mutation may give the text back: a word for itself, a number for
  // its own value. It counts only when the text changed.)
  const std::string original = s;
  bool done = false;
  for (int attempt = 0; attempt < 8 && !done; ++attempt) {
    if (attempt > 0) {
      s = original;
    }
    switch (pick(7)) {
      case 0: {  // a number: near by, a small one, or now and then a 64-bit boundary
        if (numbers.empty()) break;
        const detail::Token& t = numbers[pick(numbers.size())];
        // (The boundaries make a param's arithmetic overflow: the rule gap
        // every engine must report alike. Rarely: most numbers are ranges
        // and counts, which such a value only makes fail to load.)
        static constexpr const char* boundary[] = {"-1",
                                                   "2147483647",
                                                   "2147483648",
                                                   "-2147483648",
                                                   "-2147483649",
                                                   "4611686018427387904",
                                                   "-4611686018427387904",
                                                   "9223372036854775807",
                                                   "-9223372036854775808"};
        if (pick(16) == 0) {
          replace(t, boundary[pick(std::size(boundary))]);
          done = true;
          break;
        }
        const long v =
            std::strtol(s.substr(t.at, std::min<std::size_t>(t.size, 9)).c_str(), nullptr, 10);
        static constexpr long small[] = {0, 1, 2, 3};
        const long to = pick(2) == 0 ? small[pick(4)] : std::max(0L, v + (pick(2) == 0 ? -1 : 1));
        replace(t, std::to_string(to));
        done = true;
        break;
      }
      case 1: {  // a comparison
        if (comparisons.empty()) break;
        static constexpr const char* ops[] = {"<", "<=", ">", ">=", "==", "!="};
        replace(comparisons[pick(comparisons.size())], ops[pick(6)]);
        done = true;
        break;
      }
      case 2: {  // an arithmetic operator
        if (arithmetic.empty()) break;
        static constexpr const char* ops[] = {"+", "-", "*"};
        replace(arithmetic[pick(arithmetic.size())], ops[pick(3)]);
        done = true;
        break;
      }
      case 3:
      case 4: {  // a word for another word of the file, or its counterpart
        if (words.empty()) break;
        const detail::Token& t = words[pick(words.size())];
        const std::string w = s.substr(t.at, t.size);
        static constexpr std::pair<const char*, const char*> pairs[] = {
            {"and", "or"},   {"true", "false"},   {"any", "each"},
            {"win", "lose"}, {"always", "never"}, {"then", "else"}};
        std::string to;
        for (const auto& [a, b] : pairs) {
          if (w == a) to = b;
          if (w == b) to = a;
        }
        if (to.empty() || pick(2) == 0) {
          const detail::Token& u = words[pick(words.size())];
          to = s.substr(u.at, u.size);
        }
        replace(t, to);
        done = true;
        break;
      }
      case 5:
      case 6: {  // a list item (with its more indented lines) dropped or doubled
        std::vector<std::size_t> starts{0};
        for (std::size_t i = 0; i + 1 < s.size(); ++i) {
          if (s[i] == '\n') starts.push_back(i + 1);
        }
        auto indent = [&](std::size_t at) {
          std::size_t i = at;
          while (i < s.size() && s[i] == ' ') ++i;
          return i - at;
        };
        std::vector<std::size_t> items;
        for (std::size_t k = 0; k < starts.size(); ++k) {
          const std::size_t i = starts[k] + indent(starts[k]);
          if (i + 1 < s.size() && s[i] == '-' && s[i + 1] == ' ') items.push_back(k);
        }
        if (items.empty()) break;
        const std::size_t k = items[pick(items.size())];
        const std::size_t depth = indent(starts[k]);
        std::size_t last = k + 1;  // the item's lines: [k, last)
        while (last < starts.size() &&
               (indent(starts[last]) > depth || s[starts[last] + indent(starts[last])] == '\n')) {
          ++last;
        }
        const std::size_t end = last < starts.size() ? starts[last] : s.size();
        const std::string block = s.substr(starts[k], end - starts[k]);
        if (pick(2) == 0) {
          s.erase(starts[k], end - starts[k]);
        } else {
          s.insert(end, block.empty() || block.back() == '\n' ? block : "\n" + block);
        }
        done = true;
        break;
      }
    }
    done = done && s != original;
  }
  if (!done || s.size() > max_size) return bytes(data, size, max_size);
  std::memcpy(data, s.data(), s.size());  // NOLINT(bugprone-not-null-terminated-result): bytes
  return s.size();
}

}  // namespace loophole::fuzz
