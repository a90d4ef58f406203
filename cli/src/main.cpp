// The `loophole` command: wires model → checker → properties → reports.
// One option table (CLI11) drives --help and parsing. Results go to stdout,
// progress and logs to stderr. Exit codes: 0 nothing at or above --fail-on,
// 1 findings, 2 bad input or usage, 3 inconclusive (a limit was reached).
#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include "loophole/checker/memory.hpp"
#include "loophole/pipeline/mpi.hpp"

#include "commands.hpp"
#include "signals.hpp"

// (Setting up the options throws only on a programming error; running a
// command is guarded below.)
int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape)
  loophole::checker::return_freed_memory();
  loophole::cli::install_signal_handlers();
  using loophole::cli::CheckArgs;
  using loophole::cli::GraphArgs;
  CLI::App app{"loophole: a model checker for the rules of card games"};
  app.require_subcommand(1);
  app.set_version_flag("--version", loophole::cli::version_text,
                       "print the version, the git revision and the Z3 version, and exit");
  // Each subcommand has a footer of its own (a subcommand inherits the
  // footer set before it is added, so this one is set after them, below).
  const std::string file_help = "A ruleset FILE of '-' is read from standard input.\n";

  CheckArgs check;
  auto* c =
      app.add_subcommand("check", "check rulesets: load, type-check, explore, report findings");
  c->footer(file_help +
            "Exit codes: 0 no finding at or above --fail-on (findings accepted in loophole.yaml\n"
            "do not count), 1 findings, 2 bad input or usage, 3 inconclusive (a state, memory\n"
            "or time limit was reached first, or the run was interrupted).\n"
            "See docs/cli.md.");
  c->add_option("files", check.files,
                "ruleset files (none: the rulesets of ./loophole.yaml or --project)");
  c->add_option("--include-root", check.include_roots,
                "also allow includes from under DIR (repeatable); by default a ruleset includes "
                "only files in its own directory tree, or its project's")
      ->allow_extra_args(false);
  c->add_option("--project", check.project,
                "project file: rulesets, scopes and accepted findings (docs/ci.md)");
  // One value per occurrence: the files are optional (loophole.yaml), so a
  // repeatable option must not swallow them.
  c->add_option("-p,--param", check.params, "override a param: NAME=VALUE (repeatable)")
      ->allow_extra_args(false);
  c->add_option("--sweep", check.sweeps, "check each value of a param: NAME=FROM..TO")
      ->allow_extra_args(false);
  c->add_option("--players", check.players, "player count (within the ruleset's players range)")
      ->check(CLI::Range(1, 64));
  c->add_option("--engine", check.engine,
                "explicit | smt (Z3: BMC, k-induction, static checks) | auto | structure")
      ->check(CLI::IsMember({"explicit", "smt", "auto", "structure"}));
  c->add_option("--depth", check.depth, "smt: bounded model checking depth (moves)")
      ->check(CLI::Range(0, 10000));
  c->add_option("--layer-states", check.layer_states,
                "smt: answer the depths by breadth-first search while it holds at most N states "
                "(default 1000000, under --symbolic 100000000; 0: bounded model checking only)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 40));
  c->add_option("--symbolic", check.symbolic,
                "smt: check every value of this param in its min..max; say where findings appear");
  c->add_option("-j,--threads", check.threads, "worker threads (0 = all cores)")
      ->check(CLI::Range(0, 256));
  auto* native = c->add_flag("--native", check.native,
                             "explicit: compile the rules to machine code with the system's C "
                             "compiler (cached) before exploring; by default that happens in "
                             "the background once a search runs a few seconds");
  c->add_flag("--no-native", check.no_native, "explicit: never run the rules as machine code")
      ->excludes(native);
  c->add_flag("--no-symmetry", check.no_symmetry,
              "explicit: store every concrete state, not one per orbit of interchangeable "
              "record slots");
  c->add_flag("--compact", check.compact,
              "explicit: store a 64-bit fingerprint per state instead of the state (hash "
              "compaction: more states in memory, a verdict that holds with a probability "
              "the report gives)");
  c->add_option("--max-states", check.max_states, "stop (inconclusive) after this many states")
      ->check(CLI::PositiveNumber);
  c->add_option("--max-memory", check.max_memory, "stop (inconclusive) above this memory, e.g. 4G");
  c->add_option("--timeout", check.timeout, "stop (inconclusive) after this long, e.g. 30s");
  c->add_option("--fail-on", check.fail_on, "lowest severity that fails the run (exit 1)")
      ->check(CLI::IsMember({"error", "warning", "note"}));
  c->add_option("--format", check.format, "text | json | sarif | junit | markdown | html")
      ->check(CLI::IsMember({"text", "json", "sarif", "junit", "markdown", "html"}));
  c->add_option("-o,--output", check.output, "write the report to FILE (atomically)");
  c->add_option("--report", check.reports,
                "also write the report as FORMAT to FILE: FORMAT:FILE (repeatable)")
      ->allow_extra_args(false);
  c->add_option("--color", check.color,
                "auto | always | never (auto: NO_COLOR and CLICOLOR_FORCE, else a terminal)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  c->add_flag("--no-stats", check.no_stats,
              "omit the statistics line (text) and timings (json, html)");

  GraphArgs graph;
  auto* g = app.add_subcommand("graph", "print the phase/step graph of a ruleset");
  g->footer(file_help +
            "Exit codes: 0 the graph was written, 2 bad input or usage (or no such finding\n"
            "for --trace), 3 --trace's search reached a limit (--timeout) or was interrupted\n"
            "before the finding was found.\n"
            "See docs/cli.md.");
  g->add_option("file", graph.file, "ruleset file")->required();
  g->add_option("--format", graph.format, "dot | svg (svg runs graphviz's dot)")
      ->check(CLI::IsMember({"dot", "svg"}));
  g->add_option("--trace", graph.trace,
                "highlight the path of this finding's trace (a finding id, as in the reports)");
  g->add_option("--players", graph.players, "player count, for --trace")->check(CLI::Range(1, 64));
  g->add_option("--engine", graph.engine, "--trace: explicit | smt | auto, as for check")
      ->check(CLI::IsMember({"explicit", "smt", "auto"}));
  g->add_option("--depth", graph.depth, "--trace: smt BMC depth, as for check")
      ->check(CLI::Range(0, 10000));
  g->add_option("--max-memory", graph.max_memory,
                "--trace: stop the check (inconclusive, exit 3) above this memory, e.g. 4G");
  g->add_option("--timeout", graph.timeout,
                "--trace: stop the check (inconclusive, exit 3) after this long, e.g. 30s");
  g->add_flag("--detail", graph.detail,
              "show each step's actions, triggers and end conditions, not only its name");
  g->add_option("-p,--param", graph.params, "override a param: NAME=VALUE (repeatable)");
  g->add_option("-o,--output", graph.output, "write to FILE (atomically)");
  g->add_option("--include-root", graph.include_roots, "as for check")->allow_extra_args(false);

  loophole::cli::ExportArgs exp;
  auto* x = app.add_subcommand("export", "write the ruleset as a model for another checker");
  x->footer(file_help +
            "Exit codes: 0 the model was written, 2 bad input or usage. (export runs no\n"
            "search, so it has no --timeout.)\n"
            "See docs/cli.md and docs/promela.md.");
  x->add_option("file", exp.file, "ruleset file")->required();
  x->add_option("--format", exp.format, "promela (a SPIN model, docs/promela.md)")
      ->check(CLI::IsMember({"promela"}));
  x->add_option("-p,--param", exp.params, "override a param: NAME=VALUE (repeatable)");
  x->add_option("--players", exp.players, "player count (within the ruleset's players range)")
      ->check(CLI::Range(1, 64));
  x->add_option("-o,--output", exp.output, "write to FILE (atomically)");
  x->add_option("--include-root", exp.include_roots, "as for check")->allow_extra_args(false);

  loophole::cli::DiffArgs diff;
  auto* d = app.add_subcommand(
      "diff",
      "compare two versions of a ruleset: findings added and removed, ends that became "
      "(un)reachable, state-space size; exit 1 when the edit adds findings");
  d->footer(
      "OLD or NEW may be '-' (standard input).\n"
      "Exit codes: 0 the edit adds no finding at or above --fail-on, 1 it adds findings,\n"
      "2 bad input or usage, 3 no finding added but a search was inconclusive (a limit\n"
      "was reached first, or the run was interrupted).\n"
      "See docs/cli.md.");
  // Two positionals rather than one of 1..2 values, which CLI11's usage line
  // shows as `files(1x)`.
  d->add_option("old", diff.old_version, "OLD: a file, REV:path or '-'; or the FILE of --rev")
      ->required();
  d->add_option("new", diff.new_version, "NEW: a file, REV:path or '-'");
  d->add_option("--rev", diff.revs, "a git revision of FILE (give one or two; one = vs. FILE)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  d->add_option("-p,--param", diff.params, "override a param in both: NAME=VALUE (repeatable)");
  d->add_option("--players", diff.players, "player count for both")->check(CLI::Range(1, 64));
  d->add_option("-j,--threads", diff.threads, "worker threads (0 = all cores)")
      ->check(CLI::Range(0, 256));
  d->add_option("--engine", diff.engine, "explicit | smt | auto, as for check (both versions)")
      ->check(CLI::IsMember({"explicit", "smt", "auto"}));
  d->add_option("--depth", diff.depth, "smt: bounded model checking depth (moves)")
      ->check(CLI::Range(0, 10000));
  auto* diff_native = d->add_flag("--native", diff.native, "as for check");
  d->add_flag("--no-native", diff.no_native, "as for check")->excludes(diff_native);
  d->add_option("--max-states", diff.max_states, "stop (inconclusive) after this many states")
      ->check(CLI::PositiveNumber);
  d->add_option("--max-memory", diff.max_memory, "stop (inconclusive) above this memory, e.g. 4G");
  d->add_option("--timeout", diff.timeout, "stop (inconclusive) after this long, e.g. 30s");
  d->add_option("--fail-on", diff.fail_on,
                "lowest severity of an added finding that fails (exit 1)")
      ->check(CLI::IsMember({"error", "warning", "note"}));
  d->add_option("--format", diff.format, "text | json")->check(CLI::IsMember({"text", "json"}));
  d->add_option("-o,--output", diff.output, "write to FILE (atomically)");
  d->add_option("--include-root", diff.include_roots, "as for check (working-tree files)")
      ->allow_extra_args(false);

  loophole::cli::ExplainArgs explain;
  auto* ex = app.add_subcommand(
      "explain", "print one finding in full: its whole transcript and the rule text involved");
  ex->add_option("id", explain.id, "the finding's id, as the reports print it")->required();
  ex->add_option("files", explain.files, "ruleset files (none: the rulesets of ./loophole.yaml)");
  ex->add_option("--project", explain.project, "project file, as for check");
  ex->add_option("-p,--param", explain.params, "override a param: NAME=VALUE (repeatable)")
      ->allow_extra_args(false);
  ex->add_option("--players", explain.players, "player count")->check(CLI::Range(1, 64));
  ex->add_option("--include-root", explain.include_roots, "as for check")->allow_extra_args(false);
  ex->add_option("--engine", explain.engine, "explicit | smt | auto, as for check")
      ->check(CLI::IsMember({"explicit", "smt", "auto"}));
  ex->add_option("--depth", explain.depth, "smt: bounded model checking depth (moves)")
      ->check(CLI::Range(0, 10000));
  ex->add_option("--max-memory", explain.max_memory,
                 "stop (inconclusive) above this memory, e.g. 4G");
  ex->add_option("--timeout", explain.timeout, "stop (inconclusive) after this long, e.g. 30s");
  auto* ex_native = ex->add_flag("--native", explain.native, "as for check");
  ex->add_flag("--no-native", explain.no_native, "as for check")->excludes(ex_native);
  ex->footer(
      "Exit codes: 0 the finding was printed, 2 bad input, usage or an unknown id (the\n"
      "ids there are are listed), 3 the search was cut short (time limit, signal)\n"
      "before the finding could be found. See docs/cli.md.");
  loophole::cli::SimulateArgs sim;
  auto* s = app.add_subcommand(
      "simulate", "play random games of a ruleset: win rates, game lengths, rule use, problems");
  s->footer(file_help +
            "Exit codes: 0 no problem met, 1 a rule gap, deadlock or violated property was met,\n"
            "2 bad input or usage, 3 inconclusive (--timeout or a signal stopped it; the games\n"
            "played so far are reported). See docs/simulate.md.");
  s->add_option("file", sim.file, "ruleset file")->required();
  s->add_option("--games", sim.games, "how many games to play")->check(CLI::Range(1, 1000000000));
  s->add_option("--seed", sim.seed, "random seed: the same seed gives the same games");
  s->add_option("-p,--param", sim.params, "override a param: NAME=VALUE (repeatable)")
      ->allow_extra_args(false);
  s->add_option("--players", sim.players, "player count")->check(CLI::Range(1, 64));
  s->add_option("-j,--threads", sim.threads, "worker threads (0 = all cores)")
      ->check(CLI::Range(0, 256));
  s->add_option("--policy", sim.policy, "uniform | greedy (docs/simulate.md)")
      ->check(CLI::IsMember({"uniform", "greedy"}));
  s->add_option("--max-moves", sim.max_moves, "cut a game off after this many moves")
      ->check(CLI::Range(1, 10000000));
  s->add_option("--timeout", sim.timeout, "stop (inconclusive) after this long, e.g. 30s");
  s->add_flag("--native", sim.native,
              "run the rules as machine code (the system's C compiler, cached): the same games, "
              "faster");
  s->add_option("--format", sim.format, "text | json | html")
      ->check(CLI::IsMember({"text", "json", "html"}));
  s->add_option("-o,--output", sim.output, "write the report to FILE (atomically)");
  s->add_option("--color", sim.color, "auto | always | never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  s->add_flag("--no-stats", sim.no_stats,
              "omit timings (the output is then the same bytes for "
              "any thread count)");
  s->add_option("--include-root", sim.include_roots, "as for check")->allow_extra_args(false);
  loophole::cli::SolveArgs solve;
  auto* so = app.add_subcommand(
      "solve",
      "who can force what: a win, or a game that never ends, per player and coalition (explored "
      "graph)");
  so->footer(file_help +
             "Exit codes: 0 answered, 2 bad input or usage, 3 the search was cut short\n"
             "(--timeout, a signal): strategies need the whole graph. See docs/cli.md.");
  so->add_option("file", solve.file, "ruleset file")->required();
  so->add_option("-p,--param", solve.params, "override a param: NAME=VALUE (repeatable)")
      ->allow_extra_args(false);
  so->add_option("--players", solve.players, "player count")->check(CLI::Range(1, 64));
  so->add_option("-j,--threads", solve.threads, "worker threads (0 = all cores)")
      ->check(CLI::Range(0, 256));
  so->add_option("--timeout", solve.timeout, "stop (inconclusive) after this long, e.g. 30s");
  so->add_option("--include-root", solve.include_roots, "as for check")->allow_extra_args(false);
  so->add_option("--nature", solve.nature,
                 "adversarial (default) | fair: nature's choices a fair coin, wins almost sure")
      ->check(CLI::IsMember({"adversarial", "fair"}));
  so->add_option("--format", solve.format, "text | json")->check(CLI::IsMember({"text", "json"}));
  so->add_option("-o,--output", solve.output, "write the report to FILE (atomically)");
  so->add_option("--tree-depth", solve.tree_depth,
                 "strategy trees: at most N of the coalition's moves deep (default 8)")
      ->check(CLI::Range(1, 1000));
  so->add_option("--tree-size", solve.tree_size, "strategy trees: at most N nodes (default 40)")
      ->check(CLI::Range(1, 100000));
  app.footer(
      "Exit codes: 0 no finding, 1 findings, 2 bad input or usage, 3 inconclusive;\n"
      "each subcommand's --help says what they mean for it. See docs/cli.md.");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "loophole: error: " << e.what() << "\n";
    return 2;
  }

  // Under mpirun only `check` runs, as one distributed search over the ranks
  // (docs/distributed.md); every other command would run once per rank.
  if (loophole::pipeline::launched_by_mpirun()) {
    const char* why = !loophole::pipeline::distributed_available()
                          ? "this loophole was built without MPI (install libopenmpi-dev and "
                            "rebuild)"
                      : !c->parsed() ? "only `check` runs under mpirun"
                                     : nullptr;
    if (why != nullptr) {
      std::cerr << "loophole: error: " << why << "\n";
      return 2;
    }
  }
  const loophole::pipeline::MpiSession mpi(argc, argv);
  try {
    if (c->parsed()) return loophole::cli::run_check(check, loophole::cli::interrupted());
    if (g->parsed()) return loophole::cli::run_graph(graph, loophole::cli::interrupted());
    if (x->parsed()) return loophole::cli::run_export(exp);
    if (d->parsed()) return loophole::cli::run_diff(diff, loophole::cli::interrupted());
    if (ex->parsed()) return loophole::cli::run_explain(explain, loophole::cli::interrupted());
    if (s->parsed()) return loophole::cli::run_simulate(sim, loophole::cli::interrupted());
    if (so->parsed()) return loophole::cli::run_solve(solve, loophole::cli::interrupted());
  } catch (const std::bad_alloc&) {
    std::cerr << "loophole: error: out of memory (use --max-memory to end runs cleanly)\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "loophole: internal error: " << e.what() << "\n";
    return 70;
  }
  return 2;
}
