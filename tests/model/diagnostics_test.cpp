// Diagnostics as values and their rendering (compared as whole strings), the
// "did you mean" helper, and the source bookkeeping the renderer relies on:
// SourceManager lines and TextOrigin's offset-to-position mapping.
#include "loophole/model/diagnostics.hpp"

#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "loophole/model/source.hpp"

namespace loophole::model {
namespace {

SourceSpan at(const std::string& file, std::uint32_t line, std::uint32_t col,
              std::uint32_t length = 0) {
  return SourceSpan{file, line, col, length};
}

std::string cosmere_text() {
  std::string text;
  text += "loophole: 1\n";
  text += "zones:\n";
  text += "  deck: {per: player}\n";  // line 3
  for (int line = 4; line < 14; ++line) text += "# filler\n";
  text += "  do: move(hand, discard_pile, 1)\n";  // line 14
  return text;
}

TEST(Diagnostics, HouseStyleExample) {
  SourceManager sources;
  sources.add("rulesets/cosmere.yaml", cosmere_text());
  DiagnosticSink sink;
  Diagnostic& d =
      sink.error(at("rulesets/cosmere.yaml", 14, 18, 12), "unknown zone 'discard_pile'");
  DiagnosticSink::note(d, {}, "did you mean 'discard'? (declared at rulesets/cosmere.yaml:3:6)");
  EXPECT_EQ(sink.render(sources),
            "rulesets/cosmere.yaml:14:18: error: unknown zone 'discard_pile'\n"
            "   14 |   do: move(hand, discard_pile, 1)\n"
            "      |                  ^~~~~~~~~~~~\n"
            "note: did you mean 'discard'? (declared at rulesets/cosmere.yaml:3:6)\n");
}

TEST(Diagnostics, NoteWithLocationQuotesItsLine) {
  SourceManager sources;
  sources.add("r.yaml", "zones:\n  discard: {}\n  discard: {}\n");
  DiagnosticSink sink;
  Diagnostic& d = sink.error(at("r.yaml", 3, 3, 7), "zone 'discard' declared twice");
  DiagnosticSink::note(d, at("r.yaml", 2, 3, 7), "first declared here");
  EXPECT_EQ(sink.render(sources),
            "r.yaml:3:3: error: zone 'discard' declared twice\n"
            "    3 |   discard: {}\n"
            "      |   ^~~~~~~\n"
            "r.yaml:2:3: note: first declared here\n"
            "    2 |   discard: {}\n"
            "      |   ^~~~~~~\n");
}

TEST(Diagnostics, SeverityWords) {
  SourceManager sources;
  DiagnosticSink sink;
  sink.warning(at("a.yaml", 1, 1), "unused param 'deck'");
  sink.error(at("a.yaml", 2, 1), "bad");
  EXPECT_EQ(sink.render(sources),
            "a.yaml:1:1: warning: unused param 'deck'\n"
            "a.yaml:2:1: error: bad\n");
}

TEST(Diagnostics, UnknownLineAndUnknownFile) {
  SourceManager sources;
  DiagnosticSink sink;
  sink.error(at("rules.yaml", 0, 0), "cannot read file");
  sink.error({}, "no ruleset given");
  // Sorted by file: the file-less diagnostic comes first.
  EXPECT_EQ(sink.render(sources),
            "loophole: error: no ruleset given\n"
            "rules.yaml: error: cannot read file\n");
}

TEST(Diagnostics, MissingSourceTextPrintsHeaderOnly) {
  SourceManager sources;
  DiagnosticSink sink;
  sink.error(at("gone.yaml", 4, 2, 3), "unknown kind 'spak'");
  EXPECT_EQ(sink.render(sources), "gone.yaml:4:2: error: unknown kind 'spak'\n");
}

TEST(Diagnostics, LineWithoutColumn) {
  SourceManager sources;
  DiagnosticSink sink;
  sink.error(at("r.yaml", 7, 0), "x");
  EXPECT_EQ(sink.render(sources), "r.yaml:7: error: x\n");
}

TEST(Diagnostics, SortedByFileLineColumnStable) {
  SourceManager sources;
  DiagnosticSink sink;
  sink.error(at("b.yaml", 1, 1), "b1");
  sink.error(at("a.yaml", 9, 1), "a9");
  sink.error(at("a.yaml", 2, 8), "a2-8");
  sink.warning(at("a.yaml", 2, 3), "a2-3 first");
  sink.error(at("a.yaml", 2, 3), "a2-3 second");
  EXPECT_EQ(sink.render(sources),
            "a.yaml:2:3: warning: a2-3 first\n"
            "a.yaml:2:3: error: a2-3 second\n"
            "a.yaml:2:8: error: a2-8\n"
            "a.yaml:9:1: error: a9\n"
            "b.yaml:1:1: error: b1\n");
  // Rendering does not reorder the sink itself.
  EXPECT_EQ(sink.all().front().message, "b1");
}

TEST(Diagnostics, CaretOnlyForZeroAndOneLength) {
  SourceManager sources;
  sources.add("r.yaml", "abc\n");
  DiagnosticSink sink;
  sink.error(at("r.yaml", 1, 2, 0), "zero");
  sink.error(at("r.yaml", 1, 3, 1), "one");
  EXPECT_EQ(sink.render(sources),
            "r.yaml:1:2: error: zero\n"
            "    1 | abc\n"
            "      |  ^\n"
            "r.yaml:1:3: error: one\n"
            "    1 | abc\n"
            "      |   ^\n");
}

TEST(Diagnostics, TabsKeptUnderTheCaret) {
  SourceManager sources;
  sources.add("r.yaml", "\tdo:\t\"x := y\"\n");
  DiagnosticSink sink;
  sink.error(at("r.yaml", 1, 7, 1), "unknown variable 'x'");
  EXPECT_EQ(sink.render(sources),
            "r.yaml:1:7: error: unknown variable 'x'\n"
            "    1 | \tdo:\t\"x := y\"\n"
            "      | \t   \t ^\n");
}

TEST(Diagnostics, UnderlineClippedAtEndOfLine) {
  SourceManager sources;
  sources.add("r.yaml", "when: a +\nnext line\n");
  DiagnosticSink sink;
  sink.error(at("r.yaml", 1, 7, 50), "long");
  sink.error(at("r.yaml", 1, 10, 0), "past the end");
  EXPECT_EQ(sink.render(sources),
            "r.yaml:1:7: error: long\n"
            "    1 | when: a +\n"
            "      |       ^~~\n"
            "r.yaml:1:10: error: past the end\n"
            "    1 | when: a +\n"
            "      |          ^\n");
}

// A line longer than 160 bytes is quoted from 60 bytes before the caret,
// 160 bytes in all with the "..." marks where it is cut.
TEST(Diagnostics, LongLinesAreQuotedAroundTheCaret) {
  const std::string middle = std::string(200, 'x') + "BAD" + std::string(200, 'y');
  const std::string start = "when: " + std::string(300, 'z');
  const std::string end = std::string(186, 'w') + " + oops";
  SourceManager sources;
  sources.add("r.yaml", middle + "\n" + start + "\n" + end + "\n");
  DiagnosticSink sink;
  sink.error(at("r.yaml", 1, 201, 3), "middle");
  sink.error(at("r.yaml", 2, 1, 4), "start");
  sink.error(at("r.yaml", 3, 190, 4), "end");
  EXPECT_EQ(sink.render(sources),
            "r.yaml:1:201: error: middle\n"
            "    1 | ..." +
                std::string(60, 'x') + "BAD" + std::string(91, 'y') +
                "...\n"
                "      |    " +
                std::string(60, ' ') +
                "^~~\n"
                "r.yaml:2:1: error: start\n"
                "    2 | when: " +
                std::string(148, 'z') +
                "...\n"
                "      | ^~~~\n"
                "r.yaml:3:190: error: end\n"
                "    3 | ..." +
                std::string(57, 'w') +
                " + oops\n"
                "      |    " +
                std::string(60, ' ') + "^~~~\n");
}

TEST(Diagnostics, Utf8CountsAsOneColumnWhenPadding) {
  SourceManager sources;
  sources.add("r.yaml", "# \xc3\xa9t\xc3\xa9: x\n");
  DiagnosticSink sink;
  // Byte columns: '#'=1 ' '=2 "é"=3-4 't'=5 "é"=6-7 ':'=8 ' '=9 'x'=10.
  sink.error(at("r.yaml", 1, 10, 1), "x");
  EXPECT_EQ(sink.render(sources),
            "r.yaml:1:10: error: x\n"
            "    1 | # \xc3\xa9t\xc3\xa9: x\n"
            "      |        ^\n");
}

TEST(Diagnostics, WideLineNumbers) {
  std::string text;
  for (int i = 1; i < 123456; ++i) text += '\n';
  text += "x\n";
  SourceManager sources;
  sources.add("big.yaml", text);
  DiagnosticSink sink;
  sink.error(at("big.yaml", 123456, 1), "far");
  EXPECT_EQ(sink.render(sources),
            "big.yaml:123456:1: error: far\n"
            "123456 | x\n"
            "      | ^\n");
}

TEST(Diagnostics, Color) {
  SourceManager sources;
  sources.add("r.yaml", "ab\n");
  DiagnosticSink sink;
  Diagnostic& d = sink.error(at("r.yaml", 1, 1, 2), "bad");
  DiagnosticSink::note(d, {}, "hint");
  sink.warning(at("r.yaml", 1, 2), "meh");
  EXPECT_EQ(sink.render(sources, true),
            "\033[1mr.yaml:1:1: \033[0m\033[1;31merror:\033[0m \033[1mbad\033[0m\n"
            "    1 | ab\n"
            "      | \033[1;32m^~\033[0m\n"
            "\033[1;36mnote:\033[0m \033[1mhint\033[0m\n"
            "\033[1mr.yaml:1:2: \033[0m\033[1;35mwarning:\033[0m \033[1mmeh\033[0m\n"
            "    1 | ab\n"
            "      |  \033[1;32m^\033[0m\n");
}

TEST(Diagnostics, Counting) {
  DiagnosticSink sink;
  EXPECT_FALSE(sink.has_errors());
  sink.warning({}, "w");
  EXPECT_FALSE(sink.has_errors());
  EXPECT_EQ(sink.error_count(), 0U);
  sink.error({}, "e1");
  sink.error({}, "e2");
  EXPECT_TRUE(sink.has_errors());
  EXPECT_EQ(sink.error_count(), 2U);
  EXPECT_EQ(sink.all().size(), 3U);
}

TEST(Diagnostics, NotesAreStoredWithTheirDiagnostic) {
  DiagnosticSink sink;
  Diagnostic& d = sink.error(at("f", 1, 1), "e");
  DiagnosticSink::note(d, at("f", 2, 2), "n");
  ASSERT_EQ(sink.all()[0].notes.size(), 1U);
  EXPECT_EQ(sink.all()[0].notes[0].severity, Severity::note);
  EXPECT_EQ(sink.all()[0].notes[0].where.line, 2U);
  EXPECT_EQ(sink.error_count(), 1U);  // notes do not count
}

TEST(ClosestName, PicksTheNearestWithinThreshold) {
  const std::vector<std::string> zones{"deck", "hand", "discard", "world"};
  EXPECT_EQ(closest_name("dicsard", zones), "discard");  // distance 2, limit 7/3 = 2
  EXPECT_EQ(closest_name("discrd", zones), "discard");   // one deletion
  EXPECT_EQ(closest_name("hnd", zones), "hand");         // limit max(1, 1) = 1
  EXPECT_EQ(closest_name("deck", zones), "deck");        // exact
  EXPECT_EQ(closest_name("worlds", zones), "world");
}

TEST(ClosestName, NothingCloseEnough) {
  const std::vector<std::string> zones{"deck", "hand", "discard", "world"};
  EXPECT_EQ(closest_name("graveyard", zones), "");
  EXPECT_EQ(closest_name("hx", zones), "");
  EXPECT_EQ(closest_name("x", {}), "");
  // The threshold is distance <= max(1, size / 3): 12 / 3 = 4 < 5 edits, but
  // 'discard' is the first word of 'discard_pile', which the word rule finds.
  EXPECT_EQ(closest_name("discard_pile", zones), "discard");
  EXPECT_EQ(closest_name("hand_size", zones), "hand");
  EXPECT_EQ(closest_name("deckbuilder", zones), "");
  EXPECT_EQ(closest_name("discardpile", {"discard_pile"}), "discard_pile");
}

TEST(ClosestName, ShortNamesAllowOneEdit) {
  EXPECT_EQ(closest_name("a", {"b"}), "b");
  EXPECT_EQ(closest_name("ab", {"abc"}), "abc");
  EXPECT_EQ(closest_name("ab", {"ba"}), "");  // a swap is two edits
}

TEST(ClosestName, TiesGoToTheFirstCandidate) {
  EXPECT_EQ(closest_name("cat", {"bat", "hat", "cut"}), "bat");
  EXPECT_EQ(closest_name("cat", {"cats", "bat"}), "cats");
}

TEST(SourceManager, LinesByNumber) {
  SourceManager sources;
  sources.add("f", "one\r\ntwo\n\nfour");
  EXPECT_EQ(sources.line("f", 1), "one");
  EXPECT_EQ(sources.line("f", 2), "two");
  EXPECT_EQ(sources.line("f", 3), "");
  EXPECT_EQ(sources.line("f", 4), "four");
  EXPECT_EQ(sources.line("f", 5), "");
  EXPECT_EQ(sources.line("f", 0), "");
  EXPECT_EQ(sources.line("other", 1), "");
}

TEST(SourceManager, AddReplacesText) {
  SourceManager sources;
  sources.add("f", "old");
  sources.add("f", "new");
  EXPECT_EQ(sources.line("f", 1), "new");
  ASSERT_NE(sources.load("f"), nullptr);
  EXPECT_EQ(*sources.load("f"), "new");
}

TEST(SourceManager, LoadsFilesOnce) {
  const std::string path = ::testing::TempDir() + "loophole_source_test.yaml";
  {
    std::ofstream out(path, std::ios::binary);
    out << "game: x\nplayers: 2\n";
  }
  SourceManager sources;
  const std::string* text = sources.load(path);
  ASSERT_NE(text, nullptr);
  EXPECT_EQ(*text, "game: x\nplayers: 2\n");
  // A file read is not quoted until its reader vouches for it.
  EXPECT_EQ(sources.line(path, 2), "");
  sources.set_quotable(path, true);
  EXPECT_EQ(sources.line(path, 2), "players: 2");
  std::remove(path.c_str());
  EXPECT_EQ(sources.load(path), text);  // cached: still there after deletion
  EXPECT_EQ(sources.load(path + ".missing"), nullptr);
}

TEST(TextOrigin, SingleLine) {
  const TextOrigin origin = TextOrigin::at_position("r.yaml", 5, 11);
  const SourceSpan s = origin.at("a + bb", 4, 2);
  EXPECT_EQ(s.file, "r.yaml");
  EXPECT_EQ(s.line, 5U);
  EXPECT_EQ(s.col, 15U);
  EXPECT_EQ(s.length, 2U);
}

TEST(TextOrigin, MultiLineEntries) {
  // A literal block scalar: each text line starts at column 5 of its own line.
  const TextOrigin origin{"r.yaml", {{10, 5}, {11, 5}, {13, 7}}};
  const std::string_view text = "x := 1\ny := 22\nz := 3";
  const SourceSpan first = origin.at(text, 0, 1);
  EXPECT_EQ(first.line, 10U);
  EXPECT_EQ(first.col, 5U);
  const SourceSpan second = origin.at(text, 12, 2);  // "22"
  EXPECT_EQ(second.line, 11U);
  EXPECT_EQ(second.col, 10U);
  EXPECT_EQ(second.length, 2U);
  const SourceSpan third = origin.at(text, 15, 1);  // "z"
  EXPECT_EQ(third.line, 13U);
  EXPECT_EQ(third.col, 7U);
}

TEST(TextOrigin, OffsetRightAfterNewlineIsNextLine) {
  const TextOrigin origin{"r.yaml", {{1, 3}, {2, 3}}};
  const SourceSpan newline = origin.at("ab\ncd", 2, 0);
  EXPECT_EQ(newline.line, 1U);
  EXPECT_EQ(newline.col, 5U);
  const SourceSpan next = origin.at("ab\ncd", 3, 0);
  EXPECT_EQ(next.line, 2U);
  EXPECT_EQ(next.col, 3U);
}

TEST(TextOrigin, LengthClippedAtLineEnd) {
  const TextOrigin origin{"r.yaml", {{1, 1}, {2, 1}}};
  EXPECT_EQ(origin.at("abc\ndef", 1, 10).length, 2U);
  EXPECT_EQ(origin.at("abc\ndef", 5, 10).length, 2U);
}

TEST(TextOrigin, MoreLinesThanEntriesStayOnTheLastEntry) {
  const TextOrigin origin = TextOrigin::at_position("r.yaml", 4, 9);
  const SourceSpan s = origin.at("a\nb", 2, 1);
  EXPECT_EQ(s.line, 4U);
  EXPECT_EQ(s.col, 9U);
}

TEST(TextOrigin, NoEntriesMeansUnknownPosition) {
  const TextOrigin origin{"r.yaml", {}};
  const SourceSpan s = origin.at("abc", 1, 1);
  EXPECT_EQ(s.file, "r.yaml");
  EXPECT_FALSE(s.known());
}

TEST(TextOrigin, ShiftedSpan) {
  const SourceSpan s = at("r.yaml", 3, 4, 1).shifted(2, 5);
  EXPECT_EQ(s.col, 6U);
  EXPECT_EQ(s.length, 5U);
}

}  // namespace
}  // namespace loophole::model
