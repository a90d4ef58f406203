// smt_bench: where the SMT engine's time goes, beside the explicit engine's
// time on the same ruleset. For each ruleset: the encoding's size and time,
// then per BMC depth the cumulative time and its split (adding the frame,
// the questions' queries, the completeness query) with the paths of the
// frame's relation and the control states possible at that depth
// (--no-prune: the whole relation at every depth), the time of an explicit
// search of the same scope, Z3's statistics of the BMC solver (--z3-stats),
// and one line for "no rule gap" and per always/never property proved by
// k-induction, then IC3/PDR for at most --pdr seconds (--prove). Depths
// answered by the breadth-first layers (at most --layers states; 0: BMC
// alone) show the layer's computation as "frame" and the questions asked of
// its states as "queries"; --findings prints the answers (to compare
// --layers 0 with the default), --no-symmetry counts the explicit engine's
// concrete states (what the layers hold), --no-explicit skips the explicit
// search (at 100 M states it costs more than the BMC it is beside):
//
//   smt_bench [--depth K] [--max-k K] [--timeout-ms MS] [--timeout S]
//             [--no-completeness] [--no-prune] [--layers STATES] [--prove] [--z3-stats]
//             [--findings] [--no-symmetry] [--no-explicit]
//             [--z3 NAME=VALUE]... [--pdr SECONDS]
//             [--param NAME=V]... RULESET.yaml...
//
// Figures go to stdout; record them with the date in bench/RESULTS.md.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/smt/engine.hpp"

namespace {

using namespace loophole;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

int bench(const std::string& file, const model::LoadOptions& load, const smt::Options& o,
          bool prove, bool z3_stats, bool findings, bool symmetry, bool run_explicit) {
  model::SourceManager sources;
  model::DiagnosticSink sink;
  const auto game = model::load_game(file, load, sources, sink);
  if (!game) {
    std::fputs(sink.render(sources).c_str(), stderr);
    return 2;
  }
  const checker::Semantics sem(*game);

  // The explicit engine on the same scope: every reachable state.
  checker::ExplicitOptions eo;
  eo.threads = 2;
  eo.symmetry = symmetry;
  auto t0 = Clock::now();
  std::unique_ptr<checker::ExploredGraph> graph;
  if (run_explicit) graph = checker::explore(sem, eo);
  const double explicit_seconds = since(t0);

  t0 = Clock::now();
  smt::Engine engine(sem, o);
  const double encode = since(t0);
  if (engine.unsupported()) {
    std::printf("%s\n", engine.unsupported()->message().c_str());
    return 3;
  }
  const std::clock_t cpu0 = std::clock();
  const auto r = engine.check(o, smt::Questions{});
  const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
  const auto& st = r.statistics;
  std::printf("%s: %zu fields, %zu paths, encoded in %.2f s\n", file.c_str(), st.fields, st.paths,
              encode);
  if (graph) {
    std::printf("  explicit: %llu states, BFS depth %u, %.2f s (2 threads)\n",
                static_cast<unsigned long long>(graph->statistics().states),
                graph->statistics().depth, explicit_seconds);
  }
  std::printf("  depth  cumulative     frame   queries  complete    paths  controls\n");
  for (std::size_t k = 0; k < st.depth_seconds.size(); ++k) {
    std::printf("  %5zu  %8.2f s  %7.2f  %8.2f  %8.2f  %7zu  %8zu\n", k, st.depth_seconds[k],
                st.frame_seconds[k], st.query_seconds[k], st.completeness_seconds[k],
                st.frame_paths[k], st.frame_controls[k]);
  }
  std::printf("  bmc: depth %d in %.2f s, %.2f s CPU (+ %.2f s encoding)%s%s\n", st.depth,
              st.seconds, cpu, encode, st.complete ? " (complete)" : "",
              st.stopped != smt::Stop::none
                  ? (std::string(" stopped by ") + std::string(smt::to_string(st.stopped))).c_str()
                  : "");
  if (st.layer_depth >= 0) {
    std::printf(
        "  layers: depths 0-%d answered by the breadth-first layers (%zu states, %.1f MiB "
        "reserved; Z3 %.1f MiB)\n",
        st.layer_depth, st.layer_states, static_cast<double>(st.layer_bytes) / (1 << 20),
        static_cast<double>(st.z3_bytes) / (1 << 20));
  }
  if (findings) {
    // The answers, to compare runs (--layers 0 against the default): one
    // line each, sorted, without the details that name the depth.
    std::vector<std::string> lines;
    for (const auto& f : r.findings) {
      lines.push_back(std::string(checker::to_string(f.kind)) + " " +
                      std::string(checker::to_string(f.verdict)) + " " + f.rule + " " + f.message +
                      (f.trace ? " (trace " + std::to_string(f.trace->size()) + ")" : ""));
    }
    std::sort(lines.begin(), lines.end());
    for (const auto& line : lines) std::printf("  finding: %s\n", line.c_str());
  }
  if (z3_stats) std::printf("%s", st.solver_statistics.c_str());
  if (!prove) return 0;
  {
    const auto proof = engine.prove_no_gap(o);
    const char* status = proof.status == smt::ProofStatus::proved     ? "proved"
                         : proof.status == smt::ProofStatus::violated ? "violated"
                                                                      : "unknown";
    std::printf("  no rule gap %-35s %-8s k=%d  %.2f s  %s\n", "", status, proof.k, proof.seconds,
                proof.reason.c_str());
  }
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

}  // namespace

int main(int argc, char** argv) {
  smt::Options o;
  o.depth = 10;
  o.induction = false;
  model::LoadOptions load;
  std::vector<std::string> files;
  bool prove = false, z3_stats = false, findings = false, symmetry = true, run_explicit = true;
  double timeout = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--depth") {
      o.depth = std::atoi(next().c_str());
    } else if (a == "--max-k") {
      o.max_k = std::atoi(next().c_str());
    } else if (a == "--timeout-ms") {
      o.timeout_ms = static_cast<unsigned>(std::atoi(next().c_str()));
    } else if (a == "--timeout") {
      timeout = std::atof(next().c_str());
    } else if (a == "--no-completeness") {
      o.completeness = false;
    } else if (a == "--layers") {
      o.layer_states = static_cast<std::size_t>(std::atoll(next().c_str()));
    } else if (a == "--layers-past-depth") {
      o.layers_past_depth = true;  // as under --symbolic
    } else if (a == "--no-prune") {
      o.prune_control = false;
    } else if (a == "--z3") {
      o.solver_params += (o.solver_params.empty() ? "" : " ") + next();
    } else if (a == "--prove") {
      prove = true;
    } else if (a == "--pdr") {
      o.pdr_seconds = static_cast<unsigned>(std::atoi(next().c_str()));
    } else if (a == "--no-explicit") {
      run_explicit = false;
    } else if (a == "--no-symmetry") {
      symmetry = false;  // the explicit engine's, to compare its state count with the layers'
    } else if (a == "--findings") {
      findings = true;
    } else if (a == "--z3-stats") {
      z3_stats = true;
    } else if (a == "--param") {
      const std::string p = next();
      const auto eq = p.find('=');
      if (eq == std::string::npos) return 2;
      load.param_overrides[p.substr(0, eq)] = std::atoll(p.c_str() + eq + 1);
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) {
    std::fprintf(stderr,
                 "usage: smt_bench [--depth K] [--max-k K] [--timeout-ms MS] [--timeout S] "
                 "[--no-completeness] [--no-prune] [--layers STATES] [--layers-past-depth] "
                 "[--prove] [--z3-stats] [--z3 "
                 "NAME=VALUE]... "
                 "[--pdr SECONDS] [--findings] [--no-symmetry] [--no-explicit] [--param NAME=V]... "
                 "RULESET.yaml...\n");
    return 2;
  }
  int code = 0;
  for (const auto& f : files) {
    smt::Options each = o;
    if (timeout > 0) {
      each.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(timeout));
    }
    code = std::max(code, bench(f, load, each, prove, z3_stats, findings, symmetry, run_explicit));
  }
  return code;
}
