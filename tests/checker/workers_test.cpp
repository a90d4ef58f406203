// The thread team behind the parallel BFS: every task of a phase runs once,
// a phase sees everything the one before it wrote, worker ids stay in range,
// a task's exception reaches the caller and the team goes on working, and a
// team whose helpers went to sleep between phases wakes up again.
#include "explicit/workers.hpp"

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace loophole::checker {
namespace {

TEST(Workers, EveryTaskOnceAndEachPhaseSeesTheLast) {
  for (const int threads : {1, 2, 4}) {
    Workers team(threads);
    ASSERT_EQ(team.size(), threads);
    constexpr std::size_t tasks = 37;
    std::vector<int> value(tasks, -1);
    std::vector<std::atomic<int>> runs(tasks);
    std::atomic<int> bad_worker{0}, stale{0};
    for (int phase = 0; phase < 1000; ++phase) {
      team.run(tasks, [&](std::size_t t, int w) {
        if (w < 0 || w >= threads) ++bad_worker;
        // Plain reads and writes: the phase before wrote every element.
        if (value[(t + 1) % tasks] != phase - 1) ++stale;
        runs[t].fetch_add(1, std::memory_order_relaxed);
      });
      team.run(tasks, [&](std::size_t t, int) { value[t] = phase; });
    }
    for (std::size_t t = 0; t < tasks; ++t) EXPECT_EQ(runs[t].load(), 1000) << threads;
    EXPECT_EQ(bad_worker.load(), 0);
    EXPECT_EQ(stale.load(), 0);
  }
}

TEST(Workers, ZeroTasksAndWakingFromSleep) {
  Workers team(2);
  std::atomic<int> n{0};
  team.run(0, [&](std::size_t, int) { ++n; });
  EXPECT_EQ(n.load(), 0);
  for (int round = 0; round < 5; ++round) {
    // Longer than the helpers spin: they sleep, and must be woken.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    team.run(64, [&](std::size_t, int) { ++n; });
  }
  EXPECT_EQ(n.load(), 5 * 64);
}

TEST(Workers, AnExceptionReachesTheCallerAndTheTeamGoesOn) {
  for (const int threads : {1, 2}) {
    Workers team(threads);
    EXPECT_THROW(team.run(100,
                          [&](std::size_t t, int) {
                            if (t == 7) throw std::runtime_error("task 7");
                          }),
                 std::runtime_error);
    std::atomic<int> n{0};
    team.run(100, [&](std::size_t, int) { ++n; });
    EXPECT_EQ(n.load(), 100) << threads;
  }
}

}  // namespace
}  // namespace loophole::checker
