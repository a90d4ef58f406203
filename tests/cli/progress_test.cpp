// The texts of the progress line (progress.hpp), without a terminal: what
// the designer reads while a long run works, and the ETA of a sweep.
#include "progress.hpp"

#include <gtest/gtest.h>

namespace loophole::cli {
namespace {

TEST(Progress, AnalysesSayWhichRunsAndHowManyAreDone) {
  EXPECT_EQ(analysis_progress("stalemates", 2, 7), "analyses 2/7 done, running stalemates");
  EXPECT_EQ(analysis_progress("", 7, 7), "analyses 7/7 done");
}

TEST(Progress, SweepShowsTheValueAndAnEstimateOnceOneIsDone) {
  EXPECT_EQ(sweep_progress("deck", 3, 1, 5, std::nullopt), "deck = 3 (value 1 of 5)");
  EXPECT_EQ(sweep_progress("deck", 4, 2, 5, 40.4), "deck = 4 (value 2 of 5, about 40 s left)");
  EXPECT_EQ(sweep_progress("deck", 4, 2, 5, 600), "deck = 4 (value 2 of 5, about 10 min left)");
  EXPECT_EQ(sweep_progress("deck", 4, 2, 5, 0.3), "deck = 4 (value 2 of 5, under a second left)");
}

TEST(Progress, SmtSaysTheDepthTheTimeAndWhatIsSolved) {
  EXPECT_EQ(smt_progress(7, 20, 12.34, "deadlocks"),
            "smt depth 7 of 20  12.3 s  solving deadlocks");
  EXPECT_EQ(smt_progress(-1, 20, 0.4, "encoding the rules"), "smt  0.4 s  encoding the rules");
  // --symbolic: the breadth-first layers go on past --depth.
  EXPECT_EQ(smt_progress(31, 4, 75.0, "the states reached in that many moves"),
            "smt depth 31 (past 4)  75.0 s  solving the states reached in that many moves");
}

TEST(Progress, EstimateIsTheMeanTimeOfTheValuesDone) {
  EXPECT_EQ(seconds_left(10.0, 0, 5), std::nullopt);
  EXPECT_DOUBLE_EQ(*seconds_left(10.0, 1, 5), 40.0);
  EXPECT_DOUBLE_EQ(*seconds_left(9.0, 3, 4), 3.0);
  EXPECT_DOUBLE_EQ(*seconds_left(9.0, 4, 4), 0.0);
}

TEST(Progress, ExplorationLineGroupsDigits) {
  checker::Progress p;
  p.states = 48213;
  p.transitions = 201977;
  p.depth = 12;
  p.states_per_second = 57000;
  p.bytes = std::uint64_t{3} << 20;
  EXPECT_EQ(exploration_progress(p),
            "states 48,213  transitions 201,977  depth 12  57k/s  mem 3 MiB");
}

TEST(Progress, ADisabledLineWritesNothing) {
  ProgressLine line(false);
  EXPECT_FALSE(line.enabled());
  testing::internal::CaptureStderr();
  line.show("states 1");
  line.clear();
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

}  // namespace
}  // namespace loophole::cli
