// explore_bench: how fast the explicit engine explores, and in how little
// memory. Explores a ruleset (or a synthetic system that costs the engine
// almost nothing per state, to measure the engine alone) several times with
// each thread count, alternating the counts within each repetition, and
// prints every run, the medians and the speedups paired by repetition:
//
//   explore_bench [--runs N] [--threads 1,2] [--param NAME=V]... [--players N]
//                 [--max-states N] [--reference | --native | --tiered] [--json] [--phases]
//                 [--capacity]
//                 (RULESET.yaml | --synthetic FIELDS,RANGE)
//
// --control runs only a pure-arithmetic loop, the same work per thread on 1
// and on 2 threads: equal wall times mean a second core was free; the same
// with eight independent chains (ilp), which a host's guest on a
// hyperthread sibling of our core slows down (the one chain does not); and
// the same with random reads from 64 MiB per thread, which shows a memory
// system that busy neighbours share (the arithmetic loops do not).
//
// Before every run on several threads, two threads pass a cache line back
// and forth and the time of a round trip is printed with the run (rtt): on
// the VMs we measure on, the two virtual CPUs are placed on nearby cores
// (~100 ns) or on far-apart ones (~500 ns), and the placement changes every
// few minutes. Speedups are summarised for all pairs and per placement.
//
// --capacity adds to each repetition two one-thread searches run at once,
// one per CPU, and prints what the machine gave them: the one-thread run's
// time over each of theirs, summed (2.00: two full cores; lower: a host
// that shares our cores with its other guests, or shares one memory system
// among them). The speedups are then summarised also over the repetitions
// where the capacity was at least 1.9, and as a share of the capacity.
//
// --reference explores through the reference Semantics instead of the
// compiled successor generator, for comparison; --native runs the compiled
// generator's programs as machine code (checker --native), and prints how
// long generating, compiling and loading it took; --tiered runs each search
// as `loophole check` does by default (NativeMode::automatic: interpreted,
// compiled in the background after a second, or five when the search uses
// every core, and switched to), each with a new, empty cache, so that every
// run pays for its compile.
//
// --phases prints the wall time each run spent in each phase of its chunks
// (bfs.cpp: expand, reserve, claim, walk, commit).
//
// --json prints one JSON object per run (and per control round) instead of
// the text lines, for scripts (bench/spin_bench); give it before --control.
//
// Figures go to stdout; record them with the date in bench/RESULTS.md.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <sched.h>
#include <sys/resource.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/memory.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"

#include "explicit/bfs.hpp"

namespace {

using namespace loophole;

// FIELDS counters in 0..RANGE-1; from each state four successors, each
// incrementing one counter (chosen by a cheap hash of the state) modulo
// RANGE, so all RANGE^FIELDS states are reachable. The successor vectors are
// reused, so a state costs the engine's work and little else.
class Synthetic final : public checker::TransitionSystem {
 public:
  Synthetic(int fields, int range) : range_(range) {
    for (int i = 0; i < fields; ++i) {
      std::string name = "c";
      name += std::to_string(i);
      layout_.fields.push_back({name, 0, range - 1});
    }
    layout_.data_fields = layout_.fields.size();
  }
  const checker::Layout& layout() const override { return layout_; }
  std::string generator() const override { return "synthetic"; }
  std::vector<checker::StateVec> initial_states() const override {
    return {checker::StateVec(layout_.fields.size(), 0)};
  }
  void successors(const checker::StateVec& s, std::vector<checker::Successor>& out) const override {
    std::uint32_t h = 2166136261U;
    for (const std::int32_t v : s) h = (h ^ static_cast<std::uint32_t>(v)) * 16777619U;
    out.resize(4);
    for (std::size_t j = 0; j < 4; ++j) {
      checker::Successor& x = out[j];
      x.state = s;
      const std::size_t f = (h + j) % s.size();
      x.state[f] = (x.state[f] + 1) % range_;
      x.kind = checker::MoveKind::action;
      x.player = static_cast<int>(j % 2);
      x.chooser = checker::Chooser::player;
      x.chooser_player = x.player;
    }
  }

 private:
  int range_;
  checker::Layout layout_;
};

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

struct Run {
  double cpu = 0;  // CPU seconds of all threads (wall time misleads on a busy machine)
  checker::Statistics stats;
  checker::Completion completion = checker::Completion::complete;
  checker::ExplicitGraph::MemoryUse memory;
  double round_trip_ns = 0;  // measured just before a run on several threads (else 0)
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(
      stderr,
      "explore_bench: %s\nusage: explore_bench [--runs N] [--threads 1,2] "
      "[--param NAME=V]... [--players N] [--max-states N] [--reference | --native | --tiered] "
      "[--json] [--phases] "
      "[--capacity] [--control] (RULESET.yaml | --synthetic FIELDS,RANGE)\n",
      why);
  std::exit(2);
}

std::string grouped(std::uint64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
    s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

const char* completion_name(checker::Completion c) {
  switch (c) {
    case checker::Completion::complete:
      return "complete";
    case checker::Completion::state_limit:
      return "state limit";
    case checker::Completion::memory_limit:
      return "memory limit";
    case checker::Completion::time_limit:
      return "time limit";
    case checker::Completion::interrupted:
      return "interrupted";
  }
  return "?";
}

void print_json(int threads, const Run& r) {
  const auto& s = r.stats;
  std::printf(
      "{\"threads\": %d, \"states\": %llu, \"transitions\": %llu, \"depth\": %u, "
      "\"seconds\": %.6f, \"cpu_seconds\": %.6f, \"peak_bytes\": %llu, "
      "\"bytes_per_state\": %.3f, \"completion\": \"%s\", \"generator\": \"%s\", "
      "\"native_from\": %s, \"round_trip_ns\": %.1f}\n",
      threads, static_cast<unsigned long long>(s.states),
      static_cast<unsigned long long>(s.transitions), s.depth, s.seconds, r.cpu,
      static_cast<unsigned long long>(s.bytes), s.bytes_per_state, completion_name(r.completion),
      s.generator.c_str(), s.native_from ? std::to_string(*s.native_from).c_str() : "null",
      r.round_trip_ns);
}

void print_run(const char* label, const Run& r) {
  const auto& s = r.stats;
  const double n = s.states == 0 ? 1 : static_cast<double>(s.states);
  std::printf(
      "%-8s states %s  transitions %s  depth %u  time %.3f s  cpu %.3f s  rate %.0f k/s  "
      "peak %.1f B/state (states %.1f, index %.1f, edges %.1f)  %s  [%s]",
      label, grouped(s.states).c_str(), grouped(s.transitions).c_str(), s.depth, s.seconds, r.cpu,
      s.seconds > 0 ? static_cast<double>(s.states) / s.seconds / 1000 : 0, s.bytes_per_state,
      static_cast<double>(r.memory.states) / n, static_cast<double>(r.memory.index) / n,
      static_cast<double>(r.memory.edges) / n, completion_name(r.completion),
      (s.generator + (s.native_from ? " from state " + grouped(*s.native_from) : "")).c_str());
  if (r.round_trip_ns > 0) std::printf("  rtt %.0f ns", r.round_trip_ns);
  std::printf("\n");
}

// Wall seconds for `threads` threads each running work(t) (whose result
// goes to a cache line of its own, so that it is not optimised away).
template <class Work>
double timed_team(int threads, const Work& work) {
  std::vector<std::uint64_t> sinks(static_cast<std::size_t>(threads) * 8);
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> team;
  for (int t = 0; t < threads; ++t) {
    team.emplace_back([&, t] { sinks[static_cast<std::size_t>(t) * 8] = work(t); });
  }
  for (auto& th : team) th.join();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One step of the xorshift generator the control loops use.
inline std::uint64_t xorshift(std::uint64_t x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

// The same arithmetic loop on each thread.
double control_loop(int threads) {
  return timed_team(threads, [](int t) {
    std::uint64_t x = 88172645463325252ULL + static_cast<std::uint64_t>(t);
    for (int i = 0; i < 400000000; ++i) x = xorshift(x);
    return x;
  });
}

// The same with independent work (eight xorshift chains side by side, which
// a core runs several instructions a cycle of). The loops above and below
// wait on one result after another and leave most of a core's issue slots
// free, so a host running another guest on the hyperthread sibling of one
// of our cores does not slow them down; it slows this one, as it does the
// successor generator.
double control_ilp(int threads) {
  return timed_team(threads, [](int t) {
    std::array<std::uint64_t, 8> x{};
    for (std::size_t k = 0; k < x.size(); ++k) {
      x[k] = 88172645463325252ULL + 1000 * k + static_cast<std::uint64_t>(t);
    }
    for (int i = 0; i < 100000000; ++i) {
      for (auto& v : x) v = xorshift(v);
    }
    std::uint64_t sum = 0;
    for (const auto v : x) sum += v;
    return sum;
  });
}

// The same for random reads from a 64 MiB table per thread (what claims
// and commits do to the hash index): a machine whose memory system is
// shared with busy neighbours slows this down while the arithmetic loops
// above run at full speed.
double control_memory(int threads) {
  constexpr std::size_t entries = std::size_t{1} << 23;  // 64 MiB of 8-byte entries
  std::vector<std::vector<std::uint64_t>> tables(static_cast<std::size_t>(threads));
  for (auto& t : tables) t.assign(entries, 1);
  return timed_team(threads, [&](int t) {
    const std::uint64_t* table = tables[static_cast<std::size_t>(t)].data();
    std::uint64_t x = 88172645463325252ULL + static_cast<std::uint64_t>(t), sum = 0;
    for (int i = 0; i < 20000000; ++i) {
      x = xorshift(x);
      sum += table[x & (entries - 1)];
    }
    return sum;
  });
}

// Nanoseconds for a cache line to go from one CPU to another and back (the
// median of a few rounds), between the first two CPUs this process may use,
// each thread pinned to one (unpinned, the scheduler may start both on one
// CPU and the passes then time context switches); 0 with fewer than 2 CPUs.
// A two-thread search's threads are not pinned, but two busy threads on a
// two-CPU machine run one on each.
double round_trip_ns() {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return 0;
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE && cpus.size() < 2; ++c) {
    if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
  }
  if (cpus.size() < 2) return 0;
  const auto pin = [](int cpu) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    sched_setaffinity(0, sizeof one, &one);  // 0: the calling thread
  };
  struct alignas(64) Line {
    std::atomic<std::uint32_t> v{0};
  };
  // (A few ms at most: the time counts in spin_bench's wall times.)
  constexpr std::uint32_t passes = 2000;
  std::vector<double> rounds;
  pin(cpus[0]);
  for (int round = 0; round < 5; ++round) {
    Line ping, pong;
    std::thread other([&] {
      pin(cpus[1]);
      pong.v.store(~std::uint32_t{0}, std::memory_order_release);  // running there
      for (std::uint32_t i = 1; i <= passes; ++i) {
        while (ping.v.load(std::memory_order_acquire) != i) {
        }
        pong.v.store(i, std::memory_order_release);
      }
    });
    while (pong.v.load(std::memory_order_acquire) != ~std::uint32_t{0}) {
    }
    const auto start = std::chrono::steady_clock::now();
    for (std::uint32_t i = 1; i <= passes; ++i) {
      ping.v.store(i, std::memory_order_release);
      while (pong.v.load(std::memory_order_acquire) != i) {
      }
    }
    const double ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    other.join();
    rounds.push_back(ns / passes);
  }
  sched_setaffinity(0, sizeof allowed, &allowed);
  return median(rounds);
}

// Round trips above this are a far placement (measured: ~100 ns near,
// ~500 ns far).
constexpr double far_round_trip_ns = 250;

// At least this capacity (--capacity) counts as two full cores.
constexpr double full_capacity = 1.9;

// Wall seconds of two one-thread searches of `system` run at once, each on a
// thread of its own pinned to CPU 0 and 1 (where the affinity allows).
std::pair<double, double> concurrent_pair(const checker::TransitionSystem& system,
                                          const checker::Semantics* sem, std::uint64_t max_states) {
  double times[2] = {0, 0};
  std::atomic<int> ready{0};
  auto search = [&](int k) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(k, &set);
    (void)sched_setaffinity(0, sizeof set, &set);  // (unpinned when refused)
    ready.fetch_add(1);
    while (ready.load() < 2) {
    }
    checker::ExplicitOptions options;
    options.threads = 1;
    options.max_states = max_states;
    times[k] = checker::explore_system(system, options, sem)->statistics().seconds;
  };
  std::thread a(search, 0), b(search, 1);
  a.join();
  b.join();
  return {times[0], times[1]};
}

}  // namespace

// An empty directory as $LOOPHOLE_CACHE while it lives.
class TempCache {
 public:
  TempCache() {
    std::string pattern = std::filesystem::temp_directory_path() / "explore-bench-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) usage("cannot make a temporary directory");
    dir_ = pattern;
    ::setenv("LOOPHOLE_CACHE", dir_.c_str(), 1);
  }
  ~TempCache() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    ::unsetenv("LOOPHOLE_CACHE");
  }
  TempCache(const TempCache&) = delete;
  TempCache& operator=(const TempCache&) = delete;

 private:
  std::filesystem::path dir_;
};

int main(int argc, char** argv) {
  loophole::checker::return_freed_memory();
  int runs = 5;
  std::vector<int> thread_counts = {1, 2};
  model::LoadOptions load;
  load.override_origin.file = "<command line>";
  std::uint64_t max_states = 0;
  std::string path;
  std::optional<std::pair<int, int>> synthetic;
  bool reference = false;
  bool native = false;
  bool tiered = false;
  bool json = false;
  bool phases = false;
  bool capacity = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(("missing value after " + a).c_str());
      return argv[++i];
    };
    if (a == "--runs") {
      runs = std::max(1, std::atoi(value().c_str()));
    } else if (a == "--threads") {
      thread_counts.clear();
      const std::string v = value();
      for (std::size_t p = 0; p < v.size();) {
        const std::size_t q = v.find(',', p);
        thread_counts.push_back(std::max(1, std::atoi(v.substr(p, q - p).c_str())));
        p = q == std::string::npos ? v.size() : q + 1;
      }
    } else if (a == "--param") {
      const std::string v = value();
      const std::size_t eq = v.find('=');
      if (eq == std::string::npos) usage("--param needs NAME=V");
      load.param_overrides[v.substr(0, eq)] = std::atoll(v.c_str() + eq + 1);
    } else if (a == "--players") {
      load.players = std::atoi(value().c_str());
    } else if (a == "--max-states") {
      max_states = std::strtoull(value().c_str(), nullptr, 10);
    } else if (a == "--json") {
      json = true;
    } else if (a == "--phases") {
      phases = true;
    } else if (a == "--capacity") {
      capacity = true;
    } else if (a == "--control") {
      for (int r = 0; r < runs; ++r) {
        const double one = control_loop(1);
        const double two = control_loop(2);
        const double ilp_one = control_ilp(1);
        const double ilp_two = control_ilp(2);
        const double mem_one = control_memory(1);
        const double mem_two = control_memory(2);
        const double rtt = round_trip_ns();
        if (json) {
          std::printf(
              "{\"control_1t_seconds\": %.6f, \"control_2t_seconds\": %.6f, "
              "\"control_ilp_1t_seconds\": %.6f, \"control_ilp_2t_seconds\": %.6f, "
              "\"control_memory_1t_seconds\": %.6f, \"control_memory_2t_seconds\": %.6f, "
              "\"round_trip_ns\": %.1f}\n",
              one, two, ilp_one, ilp_two, mem_one, mem_two, rtt);
          continue;
        }
        std::printf("control  1 thread %.3f s  2 threads %.3f s (same work per thread)\n", one,
                    two);
        std::printf("ilp      1 thread %.3f s  2 threads %.3f s (eight chains side by side)\n",
                    ilp_one, ilp_two);
        std::printf("memory   1 thread %.3f s  2 threads %.3f s (random reads, 64 MiB each)\n",
                    mem_one, mem_two);
        std::printf("rtt      %.0f ns (a cache line between two threads and back; %s)\n", rtt,
                    rtt > far_round_trip_ns ? "far apart" : "near");
      }
      return 0;
    } else if (a == "--reference") {
      reference = true;
    } else if (a == "--native") {
      native = true;
    } else if (a == "--tiered") {
      tiered = true;
    } else if (a == "--synthetic") {
      const std::string v = value();
      const std::size_t comma = v.find(',');
      if (comma == std::string::npos) usage("--synthetic needs FIELDS,RANGE");
      synthetic = {std::atoi(v.c_str()), std::atoi(v.c_str() + comma + 1)};
    } else if (!a.empty() && a[0] == '-') {
      usage(("unknown option " + a).c_str());
    } else {
      path = a;
    }
  }
  if (path.empty() == !synthetic) usage("give a ruleset or --synthetic");
  if (capacity && (thread_counts.empty() || thread_counts[0] != 1)) {
    usage("--capacity needs --threads to start with 1");
  }

  model::SourceManager sources;
  model::DiagnosticSink sink;
  std::optional<model::Game> game;
  std::unique_ptr<checker::Semantics> sem;
  std::unique_ptr<checker::TransitionSystem> system;
  if (synthetic) {
    system = std::make_unique<Synthetic>(synthetic->first, synthetic->second);
    if (!json) {
      std::printf("synthetic %d counters 0..%d\n", synthetic->first, synthetic->second - 1);
    }
  } else {
    game = model::load_game(path, load, sources, sink);
    if (!game) {
      std::fputs(sink.render(sources).c_str(), stderr);
      return 2;
    }
    sem = std::make_unique<checker::Semantics>(*game);
    // What checker::explore() searches (or, with --reference, the semantics).
    const auto made = std::chrono::steady_clock::now();
    system = reference ? std::make_unique<checker::SemanticsSystem>(*sem)
                       : checker::rules_system(
                             *sem, native ? checker::NativeMode::on : checker::NativeMode::off);
    if (native && !json) {
      std::printf("generator %s, made in %.3f s\n", system->generator().c_str(),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - made).count());
    }
    if (!json) {
      std::printf("%s (%s), %d players\n", path.c_str(), game->name.c_str(), game->players);
    }
  }
  const checker::Layout& layout = system ? system->layout() : sem->layout();
  const checker::Packer packer(layout);
  if (!json) {
    std::printf("layout   %zu fields (%zu data), %zu bits: %zu bytes packed\n",
                layout.fields.size(), layout.data_fields, packer.bits(), packer.bytes());
  }

  // The thread counts alternate within each repetition (1t #1, 2t #1, 1t #2,
  // ...): a machine whose speed drifts over minutes then slows both alike,
  // and each repetition pairs a run of every count for the speedups.
  const std::size_t counts = thread_counts.size();
  std::vector<std::vector<double>> seconds(counts), cpu(counts), rates(counts), bytes(counts),
      rtt(counts);
  std::vector<double> capacities;  // per repetition, with --capacity
  for (int r = 0; r < runs; ++r) {
    for (std::size_t c = 0; c < counts; ++c) {
      const int threads = thread_counts[c];
      const double round_trip = threads > 1 ? round_trip_ns() : 0;
      checker::ExplicitOptions options;
      options.threads = threads;
      options.max_states = max_states;
      checker::PhaseTimes times;
      checker::SearchTuning tuning;
      if (phases) tuning.phases = &times;
      // (--tiered: a system of the run's own, and a cache nobody compiled into.)
      std::unique_ptr<checker::TransitionSystem> fresh;
      std::optional<TempCache> cache;
      if (tiered && sem) {
        cache.emplace();
        fresh = checker::rules_system(*sem, checker::NativeMode::automatic,
                                      checker::native_after_seconds(options));
      }
      const double cpu0 = cpu_seconds();
      const std::unique_ptr<checker::ExploredGraph> g =
          checker::explore_system(fresh ? *fresh : *system, options, sem.get(), tuning);
      fresh.reset();  // (stops a compiler still running, as explore() does)
      Run run{cpu_seconds() - cpu0, g->statistics(), g->completion(), {}, round_trip};
      if (const auto* eg = dynamic_cast<const checker::ExplicitGraph*>(g.get())) {
        run.memory = eg->memory_use();
      }
      const std::string label = std::to_string(threads) + "t #" + std::to_string(r + 1);
      if (json) {
        print_json(threads, run);
        continue;
      }
      print_run(label.c_str(), run);
      if (phases) {
        std::printf(
            "phases   expand %.3f  reserve %.3f  claim %.3f  walk %.3f  commit %.3f  other %.3f s  "
            "(%llu chunks)\n",
            times.expand, times.reserve, times.claim, times.walk, times.commit, times.other,
            static_cast<unsigned long long>(times.chunks));
      }
      seconds[c].push_back(run.stats.seconds);
      cpu[c].push_back(run.cpu);
      rates[c].push_back(
          run.stats.seconds > 0 ? static_cast<double>(run.stats.states) / run.stats.seconds : 0);
      bytes[c].push_back(run.stats.bytes_per_state);
      rtt[c].push_back(round_trip);
    }
    if (capacity) {
      const auto [a, b] = concurrent_pair(*system, sem.get(), max_states);
      if (json) {
        std::printf("{\"pair_seconds\": [%.6f, %.6f]}\n", a, b);
        continue;
      }
      const double one = seconds[0].back();
      const double cap = a > 0 && b > 0 && one > 0 ? one / a + one / b : 0;
      capacities.push_back(cap);
      std::printf("pair #%d  two 1-thread searches at once: %.3f s and %.3f s  capacity %.2f\n",
                  r + 1, a, b, cap);
    }
  }
  if (json) return 0;
  for (std::size_t c = 0; c < counts; ++c) {
    std::printf("median   threads %d  time %.3f s  cpu %.3f s  rate %.0f k/s  peak %.1f B/state\n",
                thread_counts[c], median(seconds[c]), median(cpu[c]), median(rates[c]) / 1000,
                median(bytes[c]));
  }
  // Speedups over the first thread count, paired within each repetition:
  // of all pairs, then of those whose run on several threads had the CPUs
  // near each other and of those where they were far apart.
  for (std::size_t c = 1; c < counts; ++c) {
    for (const int placement : {0, 1, 2}) {
      std::vector<double> speedup, cpu_ratio;
      for (std::size_t r = 0; r < seconds[c].size(); ++r) {
        const bool far = rtt[c][r] > far_round_trip_ns;
        if ((placement == 1 && far) || (placement == 2 && !far)) continue;
        if (seconds[c][r] > 0) speedup.push_back(seconds[0][r] / seconds[c][r]);
        if (cpu[0][r] > 0) cpu_ratio.push_back(cpu[c][r] / cpu[0][r]);
      }
      // (The split only when there are pairs of both kinds.)
      if (speedup.empty() || (placement != 0 && speedup.size() == seconds[c].size())) continue;
      const char* which[] = {"", ", CPUs near", ", CPUs far apart"};
      std::printf(
          "speedup  %dt / %dt  median %.2fx  min %.2fx  max %.2fx  (%zu pairs%s; cpu ratio median "
          "%.2f)\n",
          thread_counts[c], thread_counts[0], median(speedup),
          *std::min_element(speedup.begin(), speedup.end()),
          *std::max_element(speedup.begin(), speedup.end()), speedup.size(), which[placement],
          median(cpu_ratio));
    }
    if (capacities.empty()) continue;
    // The same where the host gave two full cores, and the speedup as a
    // share of what it gave.
    std::vector<double> full, share;
    for (std::size_t r = 0; r < seconds[c].size(); ++r) {
      if (seconds[c][r] <= 0 || capacities[r] <= 0) continue;
      const double speedup = seconds[0][r] / seconds[c][r];
      share.push_back(speedup / capacities[r]);
      if (capacities[r] >= full_capacity) full.push_back(speedup);
    }
    std::printf("capacity median %.2f  (%zu of %zu repetitions at least %.1f)\n",
                median(capacities), full.size(), capacities.size(), full_capacity);
    if (!full.empty()) {
      std::printf(
          "speedup  %dt / %dt  median %.2fx  min %.2fx  max %.2fx  (%zu pairs, capacity >= %.1f)\n",
          thread_counts[c], thread_counts[0], median(full),
          *std::min_element(full.begin(), full.end()), *std::max_element(full.begin(), full.end()),
          full.size(), full_capacity);
    }
    if (!share.empty()) {
      std::printf("speedup  %dt / %dt  as a share of the capacity: median %.0f%%\n",
                  thread_counts[c], thread_counts[0], 100 * median(share));
    }
  }
  return 0;
}
