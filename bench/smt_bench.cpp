// smt_bench: how deep BMC gets per second on a ruleset, and how long the
// k-induction proof of each always/never property takes. Prints the
// encoding's size, the cumulative time at each BMC depth, and one line per
// property (proved with k / violated / unknown, seconds):
//
//   smt_bench [--depth K] [--max-k K] [--timeout-ms MS] [--param NAME=V]... RULESET.yaml
//
// Figures go to stdout; record them with the date in bench/RESULTS.md.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "loophole/checker/semantics.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/smt/engine.hpp"

int main(int argc, char** argv) {
  using namespace loophole;
  smt::Options o;
  o.depth = 10;
  o.induction = false;
  model::LoadOptions load;
  std::string file;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--depth") {
      o.depth = std::atoi(next().c_str());
    } else if (a == "--max-k") {
      o.max_k = std::atoi(next().c_str());
    } else if (a == "--timeout-ms") {
      o.timeout_ms = static_cast<unsigned>(std::atoi(next().c_str()));
    } else if (a == "--param") {
      const std::string p = next();
      const auto eq = p.find('=');
      if (eq == std::string::npos) return 2;
      load.param_overrides[p.substr(0, eq)] = std::atoll(p.c_str() + eq + 1);
    } else {
      file = a;
    }
  }
  if (file.empty()) {
    std::fprintf(stderr,
                 "usage: smt_bench [--depth K] [--max-k K] [--timeout-ms MS] "
                 "[--param NAME=V]... RULESET.yaml\n");
    return 2;
  }
  model::SourceManager sources;
  model::DiagnosticSink sink;
  const auto game = model::load_game(file, load, sources, sink);
  if (!game) {
    std::fputs(sink.render(sources).c_str(), stderr);
    return 2;
  }
  const checker::Semantics sem(*game);
  const auto t0 = std::chrono::steady_clock::now();
  smt::Engine engine(sem);
  const double encode =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (engine.unsupported()) {
    std::printf("%s\n", engine.unsupported()->message().c_str());
    return 3;
  }
  properties::CheckSelection sel;
  sel.response_loops = sel.stalemates = sel.dead_rules = false;
  const auto r = engine.check(o, sel);
  std::printf("%s: %zu fields, %zu paths, encoded in %.2f s\n", file.c_str(), r.statistics.fields,
              r.statistics.paths, encode);
  for (std::size_t k = 0; k < r.statistics.depth_seconds.size(); ++k) {
    std::printf("  depth %2zu  %8.2f s\n", k, r.statistics.depth_seconds[k]);
  }
  std::printf("  bmc: depth %d in %.2f s%s\n", r.statistics.depth, r.statistics.seconds,
              r.statistics.complete ? " (complete)" : "");
  for (std::size_t i = 0; i < game->properties.size(); ++i) {
    const auto& p = game->properties[i];
    if (p.kind != model::Property::Kind::always && p.kind != model::Property::Kind::never) continue;
    const auto proof = engine.prove_property(static_cast<int>(i), o);
    const char* status = proof.status == smt::ProofStatus::proved     ? "proved"
                         : proof.status == smt::ProofStatus::violated ? "violated"
                                                                      : "unknown";
    std::printf("  property %-34s %-8s k=%d  %.2f s  %s\n", p.name.c_str(), status, proof.k,
                proof.seconds, proof.reason.c_str());
  }
  return 0;
}
