// The seed rulesets (rulesets/{containment,cosmere,operators,speed-biomes}.yaml
// and the speed-biomes example pool game): each loads without a single
// diagnostic, quotes every sentence of its seed document in `trace:` (and
// quotes nothing that is not in it), and at a reduced scope explores to a
// pinned graph, the same with one thread and with two, with a pinned list of
// findings.
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

namespace loophole {
namespace {

// A parameterised case's name: the ruleset's file name without its
// extension, letters and digits only ("speedbiomespoolgame").
std::string case_name(const char* ruleset) {
  const char* r = ruleset;
  if (const char* slash = std::strrchr(r, '/')) r = slash + 1;
  std::string name;
  for (const char* p = r; *p != 0 && *p != '.'; ++p) {
    if (std::isalnum(static_cast<unsigned char>(*p)) != 0) name += *p;
  }
  return name;
}

namespace fs = std::filesystem;

std::string source_dir() { return LOOPHOLE_SOURCE_DIR; }
std::string ruleset_path(const std::string& rel) { return source_dir() + "/rulesets/" + rel; }
fs::path seeds_dir() { return fs::path(source_dir()) / ".." / "shared" / "seeds"; }

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

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

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
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

// ---------------------------------------------------------------------------
// speed-biomes' answer speeds against the seed's sentences, by user
// properties over the whole state graph. Wherever the seed names the speed
// of an answer it is "Speed 2/3" or "Speed 3"; Speed 1 is only ever "taken",
// in the primary phases. So no Speed-1 action is ever on the stack above
// another entry (an answer), and none is on the stack at all in the battle
// windows ("You may take Speed 2, or Speed 3 actions") or after agents attack.
// The Speed-1 rule-level actions resolve at once (`answerable: false`) and
// would never show on the stack: in this copy of the rules they go on it, so
// that the properties see them (when an action may be taken does not depend
// on whether it is answerable). A copy with the old answer speeds must fail.

const char* const k_speed1_top =
    "(top_action == speed1_action or top_action == play_gear or top_action == convert or "
    "top_action == play_anomaly)";

std::string answer_speed_properties() {
  return std::string("properties:\n") +
         "  - name: speed1_never_answers\n"
         "    never: \"stack_size >= 2 and " +
         k_speed1_top + "\"\n" +
         "  - name: speed1_never_in_battle\n"
         "    never: \"stack_size >= 1 and " +
         k_speed1_top + "\"\n" +
         "    at: [battle.advance_actions, battle.opponent_advance_actions, battle.before_attack,\n"
         "         battle.after_attack, battle.before_defend, battle.after_defend]\n";
}

// Makes the first `answerable: false` after `- name: <action>` true.
void make_answerable(std::string& text, const std::string& action) {
  const std::size_t at = text.find("- name: " + action + "\n");
  ASSERT_NE(at, std::string::npos) << action;
  const std::string from = "answerable: false";
  const std::size_t a = text.find(from, at);
  ASSERT_NE(a, std::string::npos) << action;
  text.replace(a, from.size(), "answerable: true");
}

// The speed-biomes rules with the properties above (and, when `old_speeds`,
// Speed-1 answers in battle_window as before issue 34), written to a
// scratch directory; the user-property findings at a small scope.
std::vector<std::string> answer_speed_violations(bool old_speeds) {
  std::string main_text = read_text(ruleset_path("speed-biomes.yaml"));
  std::string rules = read_text(ruleset_path("include/speed-biomes-rules.yaml"));
  const std::size_t props = main_text.find("\nproperties:\n");
  EXPECT_NE(props, std::string::npos);
  if (props == std::string::npos) return {"no properties section"};
  main_text.replace(props + 1, std::string("properties:\n").size(), answer_speed_properties());
  for (const char* a : {"play_gear", "convert", "play_anomaly"}) make_answerable(rules, a);
  if (old_speeds) {
    const std::string now =
        "active:   {lead: [2, 3], answer: [2, 3]}\n    opponent: {lead: [2, 3], answer: [2, 3]}";
    const std::size_t w = rules.find(now);
    EXPECT_NE(w, std::string::npos);
    if (w == std::string::npos) return {"battle_window not found"};
    rules.replace(w, now.size(),
                  "active:   {lead: [2, 3], answer: [1, 2, 3]}\n    opponent: {lead: [2, 3], "
                  "answer: [1, 2, 3]}");
  }
  const fs::path dir =
      fs::temp_directory_path() /
      ("loophole-answer-speeds-" + std::to_string(::getpid()) + (old_speeds ? "-old" : ""));
  fs::create_directories(dir / "include");
  std::ofstream(dir / "speed-biomes.yaml", std::ios::binary) << main_text;
  std::ofstream(dir / "include" / "speed-biomes-rules.yaml", std::ios::binary) << rules;
  auto l = test_support::load_game(
      (dir / "speed-biomes.yaml").string(),
      {.params = {{"opening_hand", 2}, {"sector_durability", 1}, {"anomaly_copies", 0}}});
  fs::remove_all(dir);
  EXPECT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  if (!l->game) return {"does not load"};
  const checker::Semantics sem(*l->game);
  const auto graph = checker::explore(sem, {});
  EXPECT_EQ(graph->completion(), checker::Completion::complete);
  std::vector<std::string> out;
  for (const properties::Finding& f : properties::check_all(
           *graph, properties::CheckSelection::only(properties::Kind::property_violation))) {
    out.push_back(f.rule + " " + std::string(properties::to_string(f.verdict)));
  }
  return out;
}

TEST(SpeedBiomesAnswerSpeeds, NoSpeedOneAnswerAnywhereAndNoSpeedOneInBattle) {
  EXPECT_EQ(answer_speed_violations(false), std::vector<std::string>{});
}

TEST(SpeedBiomesAnswerSpeeds, TheOldSpeedsBreakBothSentences) {
  EXPECT_EQ(answer_speed_violations(true),
            (std::vector<std::string>{"property:speed1_never_answers violated",
                                      "property:speed1_never_in_battle violated"}));
}

// scope.stack is derived from the card counts, after `-p`: a larger deck
// gives a deeper stack, and a finite chain is never an "unbounded chain"
// error (issue 34: `-p ace_copies=2` gave one against a fixed bound of 3).
TEST(SeedScopes, StackFollowsTheCardCounts) {
  const auto stack = [](const char* ruleset, const char* param, std::int64_t v) {
    auto l = test_support::load_game(ruleset_path(ruleset), {.params = {{param, v}}});
    EXPECT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
    return l->game ? l->game->scope.stack : -1;
  };
  EXPECT_EQ(stack("speed-biomes.yaml", "tactic_copies", 1), 2);
  EXPECT_EQ(stack("speed-biomes.yaml", "tactic_copies", 2), 4);
  EXPECT_EQ(stack("speed-biomes.yaml", "tactic_copies", 0), 1);
  EXPECT_EQ(stack("cosmere.yaml", "ace_copies", 1), 3);
  EXPECT_EQ(stack("cosmere.yaml", "ace_copies", 2), 5);
}

TEST(SeedScopes, CosmereWithTwoAcesHasNoUnboundedChain) {
  auto l = test_support::load_game(
      ruleset_path("cosmere.yaml"),
      {.params = {
           {"ace_copies", 2}, {"face_copies", 1}, {"number_copies", 1}, {"hand_target", 2}}});
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const checker::Semantics sem(*l->game);
  const auto graph = checker::explore(sem, {});
  ASSERT_EQ(graph->completion(), checker::Completion::complete);
  EXPECT_EQ(graph->size(), 87811U);
  for (const properties::Finding& f : properties::check_all(
           *graph, properties::CheckSelection::only(properties::Kind::unbounded_chain))) {
    EXPECT_NE(f.kind, properties::Kind::unbounded_chain) << f.message;
  }
}

// Two tactics per deck: chains four deep, which the old fixed bound of 3
// reported as an unbounded chain; the derived bound (4) holds them.
TEST(SeedScopes, SpeedBiomesWithTwoTacticsHasNoUnboundedChain) {
  auto l = test_support::load_game(ruleset_path("speed-biomes.yaml"),
                                   {.params = {{"tactic_copies", 2},
                                               {"opening_hand", 2},
                                               {"sector_durability", 1},
                                               {"gear_copies", 0},
                                               {"anomaly_copies", 0}}});
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  EXPECT_EQ(l->game->scope.stack, 4);
  const checker::Semantics sem(*l->game);
  const auto graph = checker::explore(sem, {});
  ASSERT_EQ(graph->completion(), checker::Completion::complete);
  EXPECT_EQ(graph->size(), 132286U);
  for (const properties::Finding& f : properties::check_all(
           *graph, properties::CheckSelection::only(properties::Kind::unbounded_chain))) {
    EXPECT_NE(f.kind, properties::Kind::unbounded_chain) << f.message;
  }
}

// ---------------------------------------------------------------------------
// 3. Exploration at a reduced scope.

struct ExploreCase {
  const char* ruleset;
  std::map<std::string, std::int64_t> params;
  std::uint64_t states;
  std::uint64_t transitions;
  std::vector<std::string> findings;  // "kind rule severity line:col[ class/player]"
  // With the players rotated (docs/symmetry.md): the states and moves
  // stored, one per orbit; `states` and `transitions` are then those of
  // the concrete graph the analyses read.
  std::uint64_t stored_states = 0, stored_transitions = 0;
};

// gtest prints a failing case by its ruleset, not as raw bytes.
void PrintTo(const ExploreCase& c, std::ostream* os) { *os << c.ruleset; }

std::string describe(const properties::Finding& f) {
  std::string s = std::string(properties::to_string(f.kind)) + " " + f.rule + " " +
                  std::string(properties::to_string(f.severity)) + " " +
                  std::to_string(f.where.line) + ":" + std::to_string(f.where.col);
  if (f.loop != properties::LoopClass::none) {
    s += " " + std::string(properties::to_string(f.loop));
    if (f.loop_player >= 0) s += "/P" + std::to_string(f.loop_player + 1);
  }
  return s;
}

bool same_edge(const checker::Edge& a, const checker::Edge& b) {
  return a.to == b.to && a.index == b.index && a.progress == b.progress && a.chooser == b.chooser &&
         a.chooser_player == b.chooser_player && a.kind == b.kind;
}

class SeedExplore : public ::testing::TestWithParam<ExploreCase> {};

TEST_P(SeedExplore, PinnedGraphSameOnTwoThreadsAndPinnedFindings) {
  const ExploreCase& c = GetParam();
  auto l = test_support::load_game(ruleset_path(c.ruleset), {.params = c.params});
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  EXPECT_TRUE(l->sink.all().empty()) << l->sink.render(l->sources);
  const checker::Semantics sem(*l->game);

  checker::ExplicitOptions one;
  one.threads = 1;
  checker::ExplicitOptions two;
  two.threads = 2;
  const auto g1 = checker::explore(sem, one);
  const auto g2 = checker::explore(sem, two);
  ASSERT_EQ(g1->completion(), checker::Completion::complete);
  ASSERT_EQ(g2->completion(), checker::Completion::complete);
  EXPECT_EQ(g1->statistics().threads, 1);

  const bool print = std::getenv("LOOPHOLE_SEEDS_PRINT") != nullptr;
  if (print) {
    std::cout << c.ruleset << ": states " << g1->size() << " transitions "
              << g1->statistics().transitions << " depth " << g1->statistics().depth << "\n";
  }
  EXPECT_EQ(g1->size(), c.states);
  if (c.stored_states != 0) {
    EXPECT_EQ(g1->statistics().states, c.stored_states);
    EXPECT_EQ(g1->statistics().transitions, c.stored_transitions);
    EXPECT_EQ(g1->statistics().orbit_states, c.states);
  } else {
    EXPECT_EQ(g1->statistics().states, c.states);
    EXPECT_EQ(g1->statistics().transitions, c.transitions);
  }

  // One thread and two: the same graph, state by state.
  ASSERT_EQ(g2->size(), g1->size());
  EXPECT_EQ(g2->statistics().transitions, g1->statistics().transitions);
  EXPECT_EQ(g2->statistics().depth, g1->statistics().depth);
  EXPECT_EQ(g2->initial_count(), g1->initial_count());
  EXPECT_EQ(g2->expanded(), g1->expanded());
  std::uint64_t edges = 0;
  int mismatches = 0;
  for (checker::StateId id = 0; id < g1->size() && mismatches < 5; ++id) {
    const auto e1 = g1->edges(id);
    const auto e2 = g2->edges(id);
    edges += e1.size();
    bool same = g1->state(id) == g2->state(id) && g1->parent(id) == g2->parent(id) &&
                g1->parent_index(id) == g2->parent_index(id) && g1->depth(id) == g2->depth(id) &&
                e1.size() == e2.size();
    for (std::size_t k = 0; same && k < e1.size(); ++k) same = same_edge(e1[k], e2[k]);
    if (!same) {
      ++mismatches;
      ADD_FAILURE() << "state " << id << " differs between 1 and 2 threads";
    }
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(edges, c.transitions);

  std::vector<std::string> findings;
  for (const properties::Finding& f : properties::check_all(*g1, properties::CheckSelection{})) {
    findings.push_back(describe(f));
  }
  if (print) {
    for (const std::string& f : findings) std::cout << "      \"" << f << "\",\n";
  }
  EXPECT_EQ(join(findings), join(c.findings));
}

INSTANTIATE_TEST_SUITE_P(
    Scopes, SeedExplore,
    ::testing::Values(
        ExploreCase{"containment.yaml",
                    {{"hand_target", 1},
                     {"item_copies", 0},
                     {"opportunity_copies", 0},
                     {"event_copies", 0}},
                    34394,
                    50543,
                    {
                        "property-violation property:anomaly_contained error 343:11",
                        "dead-rule window:opportunity warning 191:3",
                        "dead-rule window:requisition warning 198:3",
                        "dead-rule action:play_opportunity warning 209:11",
                        "dead-rule action:activate_item warning 233:11",
                        "dead-rule action:hide_event warning 245:11",
                        "dead-rule action:secure_site_anomaly warning 264:11",
                    }},
        ExploreCase{"cosmere.yaml",
                    {{"face_copies", 1}, {"number_copies", 1}, {"hand_target", 2}},
                    13758,
                    17783,
                    {
                        // Stalls: leaving the loop means the `lose(active)` of an
                        // empty Fate Zone (docs/findings.md, Cosmere).
                        "stall action:research error 174:11 optional/P1",
                        "stall action:research error 174:11 optional/P2",
                        // The trigger loops only add a trigger to the Research
                        // loops: notes listed beneath them (issue 34, root causes).
                        "stall trigger:after_action_triggers note 224:11 optional/P1",
                        "stall trigger:after_action_triggers note 224:11 optional/P2",
                    }},
        ExploreCase{
            "operators.yaml",
            {{"item_copies", 0}, {"attack_copies", 0}, {"defence_copies", 0}, {"opening_hand", 0}},
            46903,
            72026,
            {
                "rule-gap step:preparation.draw error 83:16",
                "property-violation property:three_out_reachable error 276:11",
                "dead-rule window:refill warning 166:3",
                "dead-rule action:place_operator warning 260:11",
                "unreachable-win end:three_out/P1 warning 270:11",
                "unreachable-win end:three_out/P2 warning 270:11",
            }},
        ExploreCase{"speed-biomes.yaml",
                    {{"gear_copies", 0}, {"anomaly_copies", 0}},
                    11027,  // 11433 / 18729 before Speed-1 answers were removed (issue 34)
                    17610,
                    {
                        "rule-gap step:start.draw error 103:16",
                        "dead-rule window:advance_select warning 125:3",
                        "dead-rule window:opponent_advance_select warning 126:3",
                        "dead-rule action:play_gear warning 159:11",
                        "dead-rule action:play_anomaly warning 179:11",
                        "dead-rule action:declare_advance warning 204:11",
                    }},
        ExploreCase{"examples/speed-biomes-pool-game.yaml",
                    {{"opening_hand", 2}, {"quick_step_copies", 0}},
                    33098,  // 33720 / 42307 before Speed-1 answers were removed (issue 34)
                    40654,
                    {
                        "response-loop action:play_mirror_ward error 63:11 optional/P1",
                        "response-loop action:play_mirror_ward error 63:11 optional/P2",
                        "rule-gap step:start.draw error 60:16",
                        "property-violation property:stack_empties error 200:11",
                        "dead-rule action:play_quick_step warning 52:11",
                        "dead-rule window:reaction warning 115:3",
                        "dead-rule window:end_window warning 120:3",
                        "dead-rule window:advance_select warning 125:3",
                        "dead-rule window:opponent_advance_select warning 126:3",
                        "dead-rule action:play_gear warning 159:11",
                        "dead-rule action:play_anomaly warning 179:11",
                        "dead-rule action:declare_advance warning 204:11",
                    }},
        // Uno (docs/examples-uno.md) at its default scope, 3 players: the draw pile
        // runs out while nobody can play (no reshuffle in these rules).
        ExploreCase{"examples/uno.yaml",
                    {},
                    453,
                    513,
                    {
                        "stalemate step:round.play error 48:17 mandatory",
                        "stalemate step:round.play error 48:17 mandatory",
                        "stalemate step:round.play error 48:17 mandatory",
                    },
                    // (its rules treat the three players alike: stored per
                    // orbit of the rotations)
                    354,
                    408},
        // The trick-taking example at its default scope (docs/games.md): a
        // deal where each of two players takes one trick never ends.
        ExploreCase{"examples/tricks.yaml",
                    {},
                    4002,
                    4032,
                    {
                        "stalemate step:trick.take error 78:17 mandatory",
                        "stalemate step:trick.take error 78:17 mandatory",
                        "stalemate step:trick.take error 78:17 mandatory",
                    }}),
    [](const ::testing::TestParamInfo<ExploreCase>& info) {
      return case_name(info.param.ruleset);
    });

// The seeds at their default scopes, which hold every card kind each seed
// names at least once (issue 32; docs/findings.md): the exact state and
// transition counts and every finding of the whole graph. Release only: 42 M
// to 101 M states each, 1-5 GB in release. One test, so that the seeds run
// one after another and no two of these graphs are held at once.
TEST(SeedDefaultScopes, EveryCardKindPinnedStatesAndFindings) {
  LOOPHOLE_RELEASE_ONLY("the seeds' default scopes, 42 M to 101 M states each");
  struct DefaultCase {
    const char* ruleset;
    std::uint64_t states;
    std::uint64_t transitions;
    std::vector<std::string> findings;
  };
  const std::vector<DefaultCase> cases = {
      {"containment.yaml", 96963805, 167522265, {}},
      {"cosmere.yaml",
       42492660,
       60961893,
       {
           "stall action:research error 174:11 optional/P1",
           "stall action:research error 174:11 optional/P2",
           "stall trigger:after_action_triggers note 224:11 optional/P1",
           "stall trigger:after_action_triggers note 224:11 optional/P2",
       }},
      {"operators.yaml",
       66562395,
       129859105,
       {
           "rule-gap step:support.final_draw error 152:16",
           "cannot-end step:combat.fight note 90:17",
       }},
      {"speed-biomes.yaml",
       100879267,
       169033725,
       {
           "rule-gap step:start.draw error 103:16",
           "rule-gap step:battle.damage error 170:19",
       }},
  };
  for (const DefaultCase& c : cases) {
    SCOPED_TRACE(c.ruleset);
    auto l = test_support::load_game(ruleset_path(c.ruleset));
    ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
    const checker::Semantics sem(*l->game);
    checker::ExplicitOptions two;
    two.threads = 2;
    const auto g = checker::explore(sem, two);
    ASSERT_EQ(g->completion(), checker::Completion::complete);
    std::vector<std::string> findings;
    for (const properties::Finding& f : properties::check_all(*g, properties::CheckSelection{})) {
      findings.push_back(describe(f));
    }
    if (std::getenv("LOOPHOLE_SEEDS_PRINT") != nullptr) {
      std::cout << c.ruleset << ": states " << g->size() << " transitions "
                << g->statistics().transitions << "\n";
      for (const std::string& f : findings) std::cout << "      \"" << f << "\",\n";
    }
    EXPECT_EQ(g->size(), c.states);
    EXPECT_EQ(g->statistics().transitions, c.transitions);
    EXPECT_EQ(join(findings), join(c.findings));
  }
}

// Uno's transcript names the right player at every move: three draw twos
// stacked onto P1, who draws the penalty of 6; P1 then plays a reverse, and
// the turn goes back to P3, who can neither play nor draw (each line is the
// one move of its state that has it, data summary aside).
TEST(UnoTranscript, StackedDrawTwosAndAReverse) {
  auto l = test_support::load_game(ruleset_path("examples/uno.yaml"));
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const checker::Semantics sem(*l->game);
  const std::vector<std::string> lines = {
      "start at round · play; P1 picks 'draw_two'; P1 moves 'draw_two' from hand[P1] to discard",
      "advance to P2's turn, round · play; P2 moves 'draw_two' from hand[P2] to discard",
      "advance to P3's turn, round · play; P3 moves 'draw_two' from hand[P3] to discard",
      "advance to P1's turn, round · play; P1 draws 'skip_card' ×3, 'reverse_card' ×3",
      "advance to P2's turn, round · play; P2 moves 'red_one' from hand[P2] to discard",
      "advance to P3's turn, round · play; P3 picks 'red_one'; P3 moves 'red_one' from hand[P3] "
      "to discard",
      "advance to P1's turn, round · play; P1 picks 'reverse_card'; P1 moves 'reverse_card' from "
      "hand[P1] to discard; the turn order is now reversed",
      // (P3 holds only a blue one on a red reverse, and the draw pile is empty.)
      "advance to P3's turn, round · play",
  };
  checker::StateVec s = sem.initial_states().at(0);
  std::vector<checker::Successor> out;
  for (const std::string& line : lines) {
    sem.successors(s, out);
    bool found = false;
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < out.size() && !found; ++i) {
      std::string text = sem.describe(s, out[i], static_cast<std::uint32_t>(i)).text;
      if (const auto at = text.find(" ("); at != std::string::npos) text.resize(at);
      seen.push_back(text);
      if (text == line) {
        s = out[i].state;
        found = true;
      }
    }
    ASSERT_TRUE(found) << "no move '" << line << "' among: " << ::testing::PrintToString(seen);
  }
}

// The seeds' generic card texts are marked `invented:` (issue 34), and a
// finding that uses one says so in a detail line. Speed Biomes with no gear and sectors of
// durability 1 (10,882 states): an agent of power 1 takes a sector below
// 0 only with the invented "+1 power"; a detail line names the text, the
// next gives the seed's real silence; the empty-deck gap names nothing.
// The priority/stack skeleton (rulesets/examples/priority-stack.yaml) at its
// default scope, as docs/examples-priority-stack.md describes it: the pinned
// graph, its one finding (P1 always decks first: P2 can never lose by
// decking), and the transcript of the shortest way to a counterspell
// answering a spell, each naming the target chosen on cast.
TEST(ExampleGames, PriorityStackAtItsDefaultScope) {
  LOOPHOLE_RELEASE_ONLY("the priority/stack skeleton's 152,414 states at its default scope");
  auto l = test_support::load_game(ruleset_path("examples/priority-stack.yaml"));
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  EXPECT_TRUE(l->sink.all().empty()) << l->sink.render(l->sources);
  const checker::Semantics sem(*l->game);
  const auto g = checker::explore(sem, checker::ExplicitOptions{});
  ASSERT_EQ(g->completion(), checker::Completion::complete);
  EXPECT_EQ(g->size(), 152414U);
  EXPECT_EQ(g->statistics().transitions, 176032U);
  std::vector<std::string> findings;
  for (const properties::Finding& f : properties::check_all(*g, properties::CheckSelection{})) {
    findings.push_back(describe(f));
  }
  EXPECT_EQ(join(findings), join({"unreachable-win end:decking/P2 warning 119:11"}));

  const auto& props = l->game->properties;
  ASSERT_EQ(props.size(), 2U);
  ASSERT_EQ(props[1].name, "counter_answers");
  checker::StateId witness = checker::no_state;
  for (checker::StateId id = 0; id < g->size() && witness == checker::no_state; ++id) {
    if (sem.holds(*props[1].expr, g->state(id))) witness = id;
  }
  ASSERT_NE(witness, checker::no_state);
  const checker::Trace t = g->trace_to(witness);
  std::vector<std::string> lines;
  for (const checker::TraceStep& step : t.steps) lines.push_back(step.text);
  if (std::getenv("LOOPHOLE_SEEDS_PRINT") != nullptr) std::cout << join(lines) << "\n";
  // 69 moves: P2 bolts in its draw step, P1 (not the active player) answers.
  ASSERT_EQ(lines.size(), 69U) << join(lines);
  // Each names its target, chosen when it was cast.
  EXPECT_EQ(lines[67],
            "P2 plays 'cast_bolt' (speed 2), playing 'bolt' targeting P1 (mana[P2] 1→0, "
            "hand[P2] 1→0, discard[P2] 1→2)");
  EXPECT_EQ(lines[68],
            "P1 answers with 'cast_counter' (speed 2), playing 'counter' targeting entry 0 "
            "('cast_bolt') (mana[P1] 1→0, hand[P1] 1→0, discard[P1] 1→2)");
}

TEST(SeedInvented, SpeedBiomesDurabilityGapSaysItUsesTheInventedBoost) {
  auto l = test_support::load_game(
      ruleset_path("speed-biomes.yaml"),
      {.params = {{"gear_copies", 0}, {"sector_durability", 1}, {"anomaly_copies", 0}}});
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const checker::Semantics sem(*l->game);
  checker::ExplicitOptions options;
  options.threads = 1;
  const auto graph = checker::explore(sem, options);
  EXPECT_EQ(10882U, graph->size());
  const auto found = properties::check_all(*graph, properties::CheckSelection{});
  const auto ids = properties::finding_ids(found);
  ASSERT_GE(found.size(), 2U);
  EXPECT_EQ("rule-gap/step:start.draw", ids[0]);
  EXPECT_EQ("draw from an empty deck", found[0].message);
  EXPECT_TRUE(found[0].invented.empty());
  EXPECT_EQ("rule-gap/step:battle.damage", ids[1]);
  EXPECT_EQ("assignment leaves the range of 'sectors.durability'", found[1].message);
  EXPECT_EQ((std::vector<std::string>{"action:speed2_action"}), found[1].invented);
  ASSERT_EQ(3U, found[1].details.size());
  EXPECT_EQ("it uses 'speed2_action', a card text invented for this model, not in the seed's rules",
            found[1].details[1]);
  EXPECT_EQ(
      "invented: 'speed2_action' (its shortest trace uses it): generic card text, not in the "
      "seed (it names Speed 1/2/3 actions, anomalies and reactive skills, not their texts): "
      "nothing, lock an enemy agent, or +1 power until reset. The +1 is what lets an attack deal "
      "more than a sector's durability; the seed's own silence there is that a lost biome has no "
      "stated consequence and can still be attacked",
      found[1].details[2]);
}

// Cosmere's trigger loops are about 'after_action_triggers', an invented
// trigger text: their details say so (the Research loops, the seed's own,
// name nothing).
TEST(SeedInvented, CosmereTriggerLoopsAreAboutAnInventedTrigger) {
  auto l = test_support::load_game(
      ruleset_path("cosmere.yaml"),
      {.params = {{"face_copies", 1}, {"number_copies", 1}, {"hand_target", 2}}});
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const checker::Semantics sem(*l->game);
  checker::ExplicitOptions options;
  options.threads = 1;
  const auto graph = checker::explore(sem, options);
  const auto found = properties::check_all(*graph, properties::CheckSelection{});
  ASSERT_EQ(4U, found.size());
  for (std::size_t i = 0; i < 2; ++i) EXPECT_TRUE(found[i].invented.empty()) << found[i].message;
  for (std::size_t i = 2; i < 4; ++i) {
    EXPECT_EQ(
        "'after_action_triggers' and 'research' keep repeating forever in 'action_phase · "
        "actions'",
        found[i].message);
    EXPECT_EQ(1, std::count(found[i].details.begin(), found[i].details.end(),
                            "it is about 'after_action_triggers', a card text invented for this "
                            "model, not in the seed's rules"));
    EXPECT_EQ((std::vector<std::string>{"trigger:after_action_triggers"}), found[i].invented);
  }
}

}  // namespace
}  // namespace loophole
