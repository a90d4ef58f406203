// The seed rulesets' loading and traceability: each seed ruleset (and the
// speed-biomes example pool game) loads without a single diagnostic, quotes
// every sentence of its seed document in `trace:` (and quotes nothing that
// is not in it), and has its pinned table of rule-gap sites.
//
// The seed documents live in the shared folder next to the repository
// (LOOPHOLE_SOURCE_DIR/../shared/seeds); the traceability tests are skipped
// when it is missing.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/explored.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/model/source.hpp"
#include "loophole/properties/check.hpp"
#include "loophole/properties/finding.hpp"

#include "loaded_game.hpp"
#include "sanitized.hpp"
#include "seeds_support.hpp"

namespace loophole {
namespace {

using namespace seeds;

// ---------------------------------------------------------------------------
// Sentences of a seed document.

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Collapses every run of whitespace to one space and trims both ends.
std::string normalize(std::string_view s) {
  std::string out;
  bool pending_space = false;
  for (char c : s) {
    if (is_space(c)) {
      pending_space = !out.empty();
    } else {
      if (pending_space) out += ' ';
      pending_space = false;
      out += c;
    }
  }
  return out;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Markdown list bullets ("- ", "* ") are markup, not text: a trace entry may
// quote a list item with or without its bullet. Typographic bullets and dashes
// ("•", "—") are part of the seed's text and stay.
std::string strip_markup_bullets(std::string s) {
  for (;;) {
    if (starts_with(s, "- ") || starts_with(s, "* ")) {
      s.erase(0, 2);
    } else {
      return s;
    }
  }
}

// A lone list marker or abbreviation before a period does not end a sentence:
// "A. Any effects", "1. Research Phase", "eg. if there is".
bool is_marker_or_abbreviation(std::string_view word, bool at_sentence_start) {
  if (word == "eg" || word == "e.g" || word == "i.e" || word == "etc" || word == "vs" ||
      word == "z.B")
    return true;
  if (!at_sentence_start || word.empty() || word.size() > 3) return false;
  for (char c : word) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) return false;
  }
  return word.size() == 1 || std::isdigit(static_cast<unsigned char>(word[0])) != 0;
}

// Splits one normalized line into sentences: after '.', '!' or '?' (and any
// closing brackets or quotes) followed by a space and something that is not a
// lowercase letter, unless the period ends a list marker or an abbreviation.
std::vector<std::string> split_sentences(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  const std::size_t n = line.size();
  auto emit = [&](std::size_t end) {
    std::string s =
        strip_markup_bullets(normalize(std::string_view(line).substr(start, end - start)));
    if (!s.empty()) out.push_back(s);
  };
  for (std::size_t i = 0; i < n; ++i) {
    const char c = line[i];
    if (c != '.' && c != '!' && c != '?') continue;
    std::size_t j = i + 1;
    for (;;) {
      if (j < n && (line[j] == ')' || line[j] == '"' || line[j] == '\'' || line[j] == '*' ||
                    line[j] == '_')) {
        ++j;
      } else if (line.compare(j, 3, "\xE2\x80\x9D") == 0 ||
                 line.compare(j, 3, "\xE2\x80\x99") == 0) {
        j += 3;  // ” ’
      } else {
        break;
      }
    }
    if (j < n && line[j] != ' ') continue;  // "3.1.1", "e.g"
    if (j + 1 < n && std::islower(static_cast<unsigned char>(line[j + 1])) != 0) continue;
    // The word the punctuation ends, and whether it opens the sentence.
    std::size_t w = i;
    while (w > start && line[w - 1] != ' ') --w;
    const std::string before =
        strip_markup_bullets(normalize(std::string_view(line).substr(start, w - start)));
    if (c == '.' &&
        is_marker_or_abbreviation(std::string_view(line).substr(w, i - w), before.empty()))
      continue;
    emit(j);
    start = j;
    i = j;
  }
  if (start < n) emit(n);
  return out;
}

// A line that is only markup: "===", "---", "```", or a bare list number ("1"
// before "Phase 1: Start" in speed-biomes-phases.txt).
bool is_markup_line(const std::string& line) {
  bool digits_only = true;
  bool markup_only = true;
  for (char c : line) {
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) digits_only = false;
    if (std::string_view("=-*#_~`>").find(c) == std::string_view::npos) markup_only = false;
  }
  return markup_only || digits_only;
}

// Every sentence of a seed document, in order (with repeats).
std::vector<std::string> seed_sentences(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string raw;
  while (std::getline(in, raw)) {
    std::string line = normalize(raw);
    if (line.empty() || is_markup_line(line)) continue;
    // Markdown headings: "## 3.0 Game Proper" quotes as "3.0 Game Proper".
    std::size_t h = 0;
    while (h < line.size() && line[h] == '#') ++h;
    if (h > 0 && h < line.size() && line[h] == ' ') line.erase(0, h + 1);
    for (std::string& s : split_sentences(line)) out.push_back(std::move(s));
  }
  return out;
}

// What is wrong with the traceability of `game` to its seed: every sentence
// of `seed_text` must be one of the sentences quoted by some trace entry, and
// every entry's quote must occur in `seed_text` or, failing that, in
// `secondary_text` (the .mdx copy of speed-biomes' seed). Returns one line per
// problem; `secondary_quotes` counts the entries found only in the secondary.
std::vector<std::string> trace_problems(const model::Game& game, const std::string& seed_text,
                                        const std::string& secondary_text = {},
                                        int* secondary_quotes = nullptr) {
  std::vector<std::string> problems;
  const std::string doc = normalize(seed_text);
  const std::string doc2 = normalize(secondary_text);
  std::set<std::string> quoted;
  int in_secondary = 0;
  for (const model::TraceEntry& t : game.trace) {
    const std::string q = normalize(t.seed);
    const std::string where = t.where.file + ":" + std::to_string(t.where.line);
    if (q.empty()) {
      problems.push_back(where + ": empty quote");
      continue;
    }
    if (doc.find(q) == std::string::npos) {
      if (!doc2.empty() && doc2.find(q) != std::string::npos) {
        ++in_secondary;
      } else {
        problems.push_back(where + ": quote not in the seed: \"" + q + "\"");
      }
    }
    for (std::string& s : split_sentences(q)) quoted.insert(std::move(s));
  }
  for (const std::string& s : seed_sentences(seed_text)) {
    if (quoted.count(s) == 0) problems.push_back("sentence not traced: \"" + s + "\"");
  }
  if (secondary_quotes != nullptr) *secondary_quotes = in_secondary;
  return problems;
}

// ---------------------------------------------------------------------------
// 1. Every seed ruleset loads without any diagnostic (not even a warning).

class SeedLoad : public ::testing::TestWithParam<const char*> {};

TEST_P(SeedLoad, NoDiagnostics) {
  const std::string path = ruleset_path(GetParam());
  auto l = test_support::load_game(path);
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  EXPECT_TRUE(l->sink.all().empty()) << l->sink.render(l->sources);
}

INSTANTIATE_TEST_SUITE_P(Rulesets, SeedLoad,
                         ::testing::Values("containment.yaml", "cosmere.yaml", "operators.yaml",
                                           "speed-biomes.yaml",
                                           "examples/speed-biomes-pool-game.yaml",
                                           "examples/uno.yaml", "examples/tricks.yaml"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string name;
                           for (const char* p = info.param; *p != 0 && *p != '.'; ++p) {
                             if (std::isalnum(static_cast<unsigned char>(*p)) != 0) name += *p;
                           }
                           return name;
                         });

// ---------------------------------------------------------------------------
// 2. Traceability.

#define LOOPHOLE_REQUIRE_SEEDS()                                                          \
  do {                                                                                    \
    if (!fs::is_directory(seeds_dir())) GTEST_SKIP() << "no seed folder " << seeds_dir(); \
  } while (0)

TEST(SeedSentences, SplitsLikeTheTraceEntries) {
  EXPECT_EQ(
      split_sentences("C. Randomly choose one player. You may flip a coin if there's two players."),
      (std::vector<std::string>{"C. Randomly choose one player.",
                                "You may flip a coin if there's two players."}));
  EXPECT_EQ(split_sentences("- eg. if there is an event card (and one). Next"),
            (std::vector<std::string>{"eg. if there is an event card (and one).", "Next"}));
  EXPECT_EQ(split_sentences("1. Research Phase"), (std::vector<std::string>{"1. Research Phase"}));
  EXPECT_EQ(split_sentences("Am Ende ist der OPERATOR EXHAUSTED(drehe ihn um 90°). Ein Satz."),
            (std::vector<std::string>{"Am Ende ist der OPERATOR EXHAUSTED(drehe ihn um 90°).",
                                      "Ein Satz."}));
  EXPECT_EQ(
      split_sentences("Any \xE2\x80\x9CStart.\xE2\x80\x9D React! Why? Yes"),
      (std::vector<std::string>{"Any \xE2\x80\x9CStart.\xE2\x80\x9D", "React!", "Why?", "Yes"}));
  EXPECT_EQ(seed_sentences("## 3.1 Game Phases\n---\n\n1\n\n*Cosmere* TCG has 4 phases.\n  "
                           "\xE2\x80\xA2 To answer.\n"),
            (std::vector<std::string>{"3.1 Game Phases", "*Cosmere* TCG has 4 phases.",
                                      "\xE2\x80\xA2 To answer."}));
}

struct SeedCase {
  const char* ruleset;
  const char* seed;
  std::size_t sentences;  // sentences of the seed (with repeats), pinned so the splitter cannot
                          // silently drop any
};

void PrintTo(const SeedCase& c, std::ostream* os) { *os << c.ruleset; }

class SeedTrace : public ::testing::TestWithParam<SeedCase> {};

TEST_P(SeedTrace, EverySentenceTracedAndEveryQuoteInTheSeed) {
  LOOPHOLE_REQUIRE_SEEDS();
  auto l = test_support::load_game(ruleset_path(GetParam().ruleset));
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const std::string seed = read_text(seeds_dir() / GetParam().seed);
  ASSERT_FALSE(seed.empty()) << GetParam().seed;
  EXPECT_EQ(seed_sentences(seed).size(), GetParam().sentences) << join(seed_sentences(seed));
  const auto problems = trace_problems(*l->game, seed);
  EXPECT_TRUE(problems.empty()) << join(problems);
}

INSTANTIATE_TEST_SUITE_P(
    Seeds, SeedTrace,
    ::testing::Values(SeedCase{"containment.yaml", "containment-phases.txt", 61},
                      SeedCase{"cosmere.yaml", "cosmere-phases.md", 43},
                      SeedCase{"operators.yaml", "operators-phases-de.txt", 36}),
    [](const ::testing::TestParamInfo<SeedCase>& info) {
      std::string name;
      for (const char* p = info.param.ruleset; *p != 0 && *p != '.'; ++p) {
        if (std::isalnum(static_cast<unsigned char>(*p)) != 0) name += *p;
      }
      return name;
    });

// speed-biomes has its seed twice with the same rules: the .txt is traced in
// full; the entries that are not in the .txt must quote the .mdx (its front
// matter and markup).
TEST(SeedTraceSpeedBiomes, TxtFullyTracedMdxQuotesExist) {
  LOOPHOLE_REQUIRE_SEEDS();
  auto l = test_support::load_game(ruleset_path("speed-biomes.yaml"));
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const std::string txt = read_text(seeds_dir() / "speed-biomes-phases.txt");
  const std::string mdx = read_text(seeds_dir() / "speed-biomes-phases.mdx");
  ASSERT_FALSE(txt.empty());
  ASSERT_FALSE(mdx.empty());
  EXPECT_EQ(seed_sentences(txt).size(), 110U) << join(seed_sentences(txt));
  int mdx_quotes = 0;
  const auto problems = trace_problems(*l->game, txt, mdx, &mdx_quotes);
  EXPECT_TRUE(problems.empty()) << join(problems);
  EXPECT_EQ(mdx_quotes, 6);
}

// The example pool game keeps no trace of its own (it is in speed-biomes.yaml).
TEST(SeedTraceSpeedBiomes, PoolGameHasNoTrace) {
  auto l = test_support::load_game(ruleset_path("examples/speed-biomes-pool-game.yaml"));
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  EXPECT_TRUE(l->game->trace.empty());
}

// The check has teeth: dropping one trace entry, or changing a quote, is
// reported.
TEST(SeedTraceMutation, MissingEntryAndWrongQuoteAreReported) {
  LOOPHOLE_REQUIRE_SEEDS();
  const std::string path = ruleset_path("containment.yaml");
  const std::string yaml = read_text(path);
  const std::string seed = read_text(seeds_dir() / "containment-phases.txt");

  const std::string entry =
      "  - seed: \"C. Randomly choose one player.\"\n"
      "    at: secure.reveal\n";
  const std::size_t at = yaml.find(entry);
  ASSERT_NE(at, std::string::npos);
  std::string dropped = yaml;
  dropped.erase(at, entry.size());
  auto l = test_support::load_game(path, {.text = dropped});
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  EXPECT_EQ(trace_problems(*l->game, seed),
            std::vector<std::string>{"sentence not traced: \"C. Randomly choose one player.\""});

  std::string changed = yaml;
  const std::string from = "\"C. Randomly choose one player.\"";
  changed.replace(changed.find(from), from.size(), "\"C. Randomly choose a player.\"");
  auto m = test_support::load_game(path, {.text = changed});
  ASSERT_TRUE(m->game.has_value()) << m->sink.render(m->sources);
  const auto problems = trace_problems(*m->game, seed);
  ASSERT_EQ(problems.size(), 2U) << join(problems);
  EXPECT_NE(problems[0].find("quote not in the seed: \"C. Randomly choose a player.\""),
            std::string::npos);
  EXPECT_EQ(problems[1], "sentence not traced: \"C. Randomly choose one player.\"");
}

// Each seed's gap-site table, pinned: how many sites of each kind (range,
// empty zone, division by zero, index, stack overflow, integer overflow) at
// the default params, measured before overflow sites existed. The overflow
// analysis (checker/src/semantics/gaps.cpp) gives no seed a site: their
// arithmetic provably fits 64 bits, and one more site could widen ctl.gap.
struct GapTableCase {
  const char* ruleset;
  std::vector<int> per_kind;  // indexed by GapSite::Kind
};

void PrintTo(const GapTableCase& c, std::ostream* os) { *os << c.ruleset; }

class SeedGapTable : public ::testing::TestWithParam<GapTableCase> {};

TEST_P(SeedGapTable, PinnedSitesAndNoOverflowSite) {
  const GapTableCase& c = GetParam();
  auto l = test_support::load_game(ruleset_path(c.ruleset));
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const checker::Semantics sem(*l->game);
  std::vector<int> per_kind(c.per_kind.size(), 0);
  for (const checker::GapSite& site : sem.gaps()) {
    const auto k = static_cast<std::size_t>(site.kind);
    ASSERT_LT(k, per_kind.size());
    ++per_kind[k];
  }
  EXPECT_EQ(per_kind, c.per_kind);
}

INSTANTIATE_TEST_SUITE_P(Rulesets, SeedGapTable,
                         ::testing::Values(GapTableCase{"containment.yaml", {62, 4, 0, 0, 0, 0}},
                                           GapTableCase{"cosmere.yaml", {31, 13, 0, 24, 5, 0}},
                                           GapTableCase{"operators.yaml", {50, 9, 0, 0, 0, 0}},
                                           GapTableCase{"speed-biomes.yaml", {64, 5, 0, 105, 3, 0}},
                                           GapTableCase{"examples/speed-biomes-pool-game.yaml",
                                                        {63, 6, 0, 97, 3, 0}}),
                         [](const ::testing::TestParamInfo<GapTableCase>& info) {
                           return case_name(info.param.ruleset);
                         });

}  // namespace
}  // namespace loophole
