// The thread team behind the parallel BFS: every task of a phase runs once,
// a phase sees everything the one before it wrote, worker ids stay in range,
// a task's exception reaches the caller and the team goes on working, a
// team whose helpers went to sleep between phases wakes up again, and each
// worker takes its own region's tasks from the front and others' from the
// back.
#include "explicit/workers.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
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

// Whatever the timing: every task runs once; what a worker runs of its own
// region is a prefix of it, in order; what it runs of another's is a suffix,
// from the back.
TEST(Workers, OwnRegionFromTheFrontOthersFromTheBack) {
  for (const int threads : {2, 3}) {
    Workers team(threads);
    for (int round = 0; round < 200; ++round) {
      // Uneven regions, an empty one among them.
      std::vector<std::size_t> bounds{0};
      for (int w = 0; w < threads; ++w) {
        bounds.push_back(bounds.back() +
                         (w == 1 ? 0 : static_cast<std::size_t>(5 + 7 * w + round % 4)));
      }
      const std::size_t tasks = bounds.back();
      std::mutex m;
      std::vector<std::vector<std::size_t>> ran(static_cast<std::size_t>(threads));
      team.run(
          tasks,
          [&](std::size_t t, int w) {
            if (t % 3 == 0) std::this_thread::yield();
            const std::lock_guard lock(m);
            ran[static_cast<std::size_t>(w)].push_back(t);
          },
          &bounds);
      std::vector<int> count(tasks, 0);
      std::vector<std::size_t> stolen_min(static_cast<std::size_t>(threads), tasks);
      for (int w = 0; w < threads; ++w) {
        for (int r = 0; r < threads; ++r) {
          const std::size_t lo = bounds[static_cast<std::size_t>(r)];
          const std::size_t hi = bounds[static_cast<std::size_t>(r) + 1];
          std::vector<std::size_t> mine;
          for (const std::size_t t : ran[static_cast<std::size_t>(w)]) {
            if (t >= lo && t < hi) mine.push_back(t);
          }
          for (std::size_t i = 0; i < mine.size(); ++i) {
            if (w == r) {
              ASSERT_EQ(mine[i], lo + i) << threads << " threads, worker " << w;
            } else {
              ASSERT_TRUE(i == 0 || mine[i] < mine[i - 1]) << threads << " threads, worker " << w;
            }
          }
          // The owner took a prefix, so the thieves took the rest: every
          // stolen task lies behind every task its owner ran.
          if (w != r && !mine.empty()) {
            auto& least = stolen_min[static_cast<std::size_t>(r)];
            least = std::min(least, mine.back());
          }
        }
        for (const std::size_t t : ran[static_cast<std::size_t>(w)]) ++count[t];
      }
      EXPECT_TRUE(std::all_of(count.begin(), count.end(), [](int c) { return c == 1; }));
      for (int r = 0; r < threads; ++r) {
        const auto& own = ran[static_cast<std::size_t>(r)];
        const std::size_t lo = bounds[static_cast<std::size_t>(r)];
        const auto taken =
            static_cast<std::size_t>(std::count_if(own.begin(), own.end(), [&](std::size_t t) {
              return t >= lo && t < bounds[static_cast<std::size_t>(r) + 1];
            }));
        EXPECT_GE(stolen_min[static_cast<std::size_t>(r)], lo + taken) << "region " << r;
      }
    }
  }
}

TEST(Workers, RegionsMustCoverTheTasksInOrder) {
  Workers team(2);
  const auto none = [](std::size_t, int) {};
  const std::vector<std::size_t> short_of_tasks{0, 3, 9}, backwards{0, 6, 4}, wrong_size{0, 10};
  EXPECT_THROW(team.run(10, none, &short_of_tasks), std::logic_error);
  EXPECT_THROW(team.run(10, none, &backwards), std::logic_error);
  EXPECT_THROW(team.run(10, none, &wrong_size), std::logic_error);
  const std::vector<std::size_t> fine{0, 10, 10};
  std::atomic<int> n{0};
  team.run(
      10, [&](std::size_t, int) { ++n; }, &fine);
  EXPECT_EQ(n.load(), 10);
}

}  // namespace
}  // namespace loophole::checker
