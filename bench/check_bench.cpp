// check_bench: how long the analyses take after the exploration, which is
// what a designer waits for on every `loophole check` beside the search.
// Explores a ruleset once (one thread), then runs every analysis on the
// graph several times and prints, per part (the shared pass over every state,
// then each analysis, its traces included), every run's seconds and the
// median (total: the wall time of all of it):
//
//   check_bench [--runs N] [--threads N] [--param NAME=V]... [--players N] RULESET.yaml
//
// --threads runs the analyses side by side on N threads (default 1; the
// exploration is always on one).
//
// Figures go to stdout; record them with the date in bench/RESULTS.md.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/memory.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/properties/check.hpp"

namespace {

using namespace loophole;

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "check_bench: %s\nusage: check_bench [--runs N] [--threads N] [--param NAME=V]... "
               "[--players N] RULESET.yaml\n",
               why);
  std::exit(2);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  loophole::checker::return_freed_memory();
  int runs = 5;
  int threads = 1;
  model::LoadOptions load;
  load.override_origin.file = "<command line>";
  std::string path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(("missing value after " + a).c_str());
      return argv[++i];
    };
    if (a == "--runs") {
      runs = std::max(1, std::atoi(value().c_str()));
    } else if (a == "--threads") {
      threads = std::atoi(value().c_str());
    } else if (a == "--param") {
      const std::string v = value();
      const auto eq = v.find('=');
      if (eq == std::string::npos) usage("--param needs NAME=V");
      load.param_overrides[v.substr(0, eq)] = std::atoll(v.c_str() + eq + 1);
    } else if (a == "--players") {
      load.players = std::atoi(value().c_str());
    } else if (!a.empty() && a[0] == '-') {
      usage(("unknown option " + a).c_str());
    } else {
      path = a;
    }
  }
  if (path.empty()) usage("give a ruleset");

  model::SourceManager sources;
  model::DiagnosticSink sink;
  const std::optional<model::Game> game = model::load_game(path, load, sources, sink);
  if (!game) {
    std::fputs(sink.render(sources).c_str(), stderr);
    return 2;
  }
  const checker::Semantics sem(*game);
  checker::ExplicitOptions options;
  options.threads = 1;
  const auto graph = checker::explore(sem, options);
  const checker::Statistics& st = graph->statistics();
  std::printf("%s (%s), %d players: %llu states, %llu transitions, explored in %.3f s\n",
              path.c_str(), game->name.c_str(), game->players,
              static_cast<unsigned long long>(st.states),
              static_cast<unsigned long long>(st.transitions), st.seconds);

  std::vector<std::string> order;
  std::map<std::string, std::vector<double>> seconds;
  std::vector<double> totals;
  std::size_t findings = 0;
  using Clock = std::chrono::steady_clock;
  for (int r = 0; r < runs; ++r) {
    const auto started = Clock::now();
    const properties::CheckResult result =
        properties::run_checks(*graph, properties::CheckSelection{}, nullptr, threads);
    findings = result.findings.size();
    std::printf("run %d  ", r + 1);
    for (const auto& [name, s] : result.seconds) {
      if (!seconds.contains(name)) order.push_back(name);
      seconds[name].push_back(s);
      std::printf(" %s %.3f", name.c_str(), s);
    }
    const double total = std::chrono::duration<double>(Clock::now() - started).count();
    totals.push_back(total);
    std::printf("  total %.3f s\n", total);
  }
  std::printf("median  ");
  for (const std::string& name : order)
    std::printf(" %s %.3f", name.c_str(), median(seconds[name]));
  std::printf("  total %.3f s  (%zu findings)\n", median(totals), findings);
  return 0;
}
