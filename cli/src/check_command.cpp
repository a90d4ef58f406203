// `loophole check`: for each ruleset (and each value of a --sweep), load and
// type-check it, then check it through the pipeline (pipeline.hpp:
// structural checks, the chosen engine, every property); then render one
// report. A ruleset that fails to load makes the run exit 2, but the other
// rulesets are still checked so one run reports every error.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <thread>

#include <fcntl.h>
#include <fmt/format.h>
#include <range/v3/view/zip.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/model/phase_graph.hpp"
#include "loophole/pipeline/mpi.hpp"
#include "loophole/pipeline/pipeline.hpp"
#include "loophole/reports/graphviz.hpp"
#include "loophole/reports/report.hpp"
#include "loophole/reports/trace_graph.hpp"

#include "command_line.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "project.hpp"
#include "signals.hpp"
#include "sweep.hpp"

namespace loophole::cli {
namespace {

properties::Severity severity_of(const std::string& s) {
  if (s == "note") return properties::Severity::note;
  if (s == "warning") return properties::Severity::warning;
  return properties::Severity::error;
}

// The HTML report shows each ruleset's phase graph, and under each of the
// first max_path_graphs findings with a trace its path on that graph
// (reports::trace_dot_options, as `graph --trace` draws it); without `dot`
// it is written without them (and says so on stderr).
constexpr std::size_t max_path_graphs = 25;  // per ruleset: one `dot` run each

void add_phase_graphs(const reports::Report& report, reports::RenderOptions& render) {
  for (const auto& rs : report.rulesets) {
    if (rs.model == nullptr || render.svg.count(rs.file) != 0) continue;
    const auto graph = model::build_phase_graph(*rs.model);
    std::string error;
    auto svg = reports::dot_to_svg(model::to_dot(*rs.model, graph, {}), error);
    if (!svg) {
      std::cerr << "loophole: warning: no phase graph in the HTML report: " << error << "\n";
      return;
    }
    render.svg[rs.file] = std::move(*svg);
    const auto ids = reports::finding_ids(rs);
    std::size_t drawn = 0;
    for (std::size_t i = 0; i < rs.findings.size() && drawn < max_path_graphs; ++i) {
      const auto& f = rs.findings[i];
      if (!f.trace || f.trace->steps.empty()) continue;
      auto path = reports::dot_to_svg(
          model::to_dot(*rs.model, graph, reports::trace_dot_options(*rs.model, f)), error);
      if (!path) continue;
      render.path_svg[reports::path_key(rs.file, ids[i])] = std::move(*path);
      ++drawn;
    }
  }
}

// --report FORMAT:FILE (repeatable): the same run written in more formats,
// so CI explores once for its SARIF, summary and HTML.
std::optional<std::vector<std::pair<reports::Format, std::string>>> parse_report_targets(
    const std::vector<std::string>& specs, std::string& error) {
  std::vector<std::pair<reports::Format, std::string>> out;
  for (const auto& s : specs) {
    const auto colon = s.find(':');
    const auto format =
        colon == std::string::npos ? std::nullopt : reports::parse_format(s.substr(0, colon));
    if (!format || colon + 1 >= s.size()) {
      error = fmt::format(
          "expected FORMAT:FILE with FORMAT one of text, json, sarif, junit, markdown, html; "
          "found '{}'",
          s);
      return std::nullopt;
    }
    out.emplace_back(*format, s.substr(colon + 1));
  }
  return out;
}

// Whether two output paths name one file (or both standard output): the
// second report would silently replace the first.
bool same_target(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  const auto is_stdout = [](const std::string& p) { return p.empty() || p == "-"; };
  if (is_stdout(a) || is_stdout(b)) return is_stdout(a) && is_stdout(b);
  std::error_code ec1, ec2;
  if (fs::equivalent(a, b, ec1)) return true;
  const auto ca = fs::weakly_canonical(a, ec1), cb = fs::weakly_canonical(b, ec2);
  return !ec1 && !ec2 && ca == cb;
}

// The first pair of the run's outputs (-o, then each --report) that name
// one file, as a message; empty when there is none.
std::string clashing_outputs(const std::string& output,
                             const std::vector<std::pair<reports::Format, std::string>>& extra) {
  std::vector<std::pair<std::string, std::string>> all{{"-o", output}};
  for (const auto& [format, path] : extra) all.emplace_back("--report", path);
  for (std::size_t i = 0; i < all.size(); ++i) {
    for (std::size_t j = i + 1; j < all.size(); ++j) {
      if (!same_target(all[i].second, all[j].second)) continue;
      const std::string& shown = all[j].second.empty() ? "-" : all[j].second;
      return fmt::format("{} and {} both write '{}'; give each report a file of its own",
                         all[i].first, all[j].first, model::terminal_safe(shown));
    }
  }
  return "";
}

}  // namespace

std::string_view version() { return "0.1.0"; }

int run_check(const CheckArgs& args, const std::atomic<bool>& interrupted) {
  model::LoadOptions load;
  load.override_origin = model::SourceSpan{"<command line>", 0, 0, 0};
  std::string error;
  const auto extra_reports = parse_report_targets(args.reports, error);
  if (!extra_reports) {
    std::cerr << "loophole: error: --report: " << error << "\n";
    return 2;
  }
  if (const auto clash = clashing_outputs(args.output, *extra_reports); !clash.empty()) {
    std::cerr << "loophole: error: " << clash << "\n";
    return 2;
  }
  if (!apply_params(args.params, load)) return 2;
  std::optional<Sweep> sweep;
  if (!args.sweeps.empty()) {
    if (args.sweeps.size() > 1) {
      std::cerr << "loophole: error: --sweep: only one param can be swept per run\n";
      return 2;
    }
    sweep = parse_sweep(args.sweeps[0], error);
    if (!sweep) {
      std::cerr << "loophole: error: --sweep: " << error << "\n";
      return 2;
    }
  }
  if (args.players != 0) load.players = args.players;
  load.include_roots = args.include_roots;

  // The pipeline's options (pipeline.hpp). --max-memory bounds the resident
  // size of the whole process and --timeout the wall time of the whole run,
  // search, analyses and SMT engine alike (checker/limits.hpp); without
  // --max-memory the bound is 80% of the memory available at the start.
  pipeline::Options options;
  if (!apply_engine(args.engine, options)) return 2;
  options.depth = args.depth;
  if (args.layer_states >= 0) options.layer_states = static_cast<std::size_t>(args.layer_states);
  options.explore.threads = args.threads;
  options.explore.native = pipeline::native_mode(args.native, args.no_native);
  options.explore.max_states = args.max_states;
  options.explore.symmetry = !args.no_symmetry;
  options.interrupted = &interrupted;
  if (!apply_limits(args.max_memory, args.timeout, options)) return 2;
  // Under mpirun: the explicit search distributed over the ranks; rank 0
  // alone prints and writes reports (docs/distributed.md).
  const bool reporting = pipeline::reporting_rank();
  if (pipeline::launched_by_mpirun()) {
    if (options.engine != pipeline::EngineChoice::explicit_search || !args.symbolic.empty()) {
      if (reporting) std::cerr << "loophole: error: under mpirun only --engine explicit runs\n";
      return 2;
    }
    options.engine = pipeline::EngineChoice::distributed;
  }
  // --compact: the one line that says what hash compaction means.
  options.explore.compact = args.compact;
  if (args.compact) {
    if (options.engine != pipeline::EngineChoice::explicit_search &&
        options.engine != pipeline::EngineChoice::automatic) {
      if (reporting) {
        std::cerr << "loophole: error: --compact: only the explicit search on one process "
                     "compacts its states (--engine explicit or auto)\n";
      }
      return 2;
    }
    if (reporting) {
      std::cerr << "loophole: warning: --compact: states are told apart by 64-bit fingerprints; "
                   "two that share one count as one, so a state may be missed and a clean "
                   "verdict holds only with the probability the report gives\n";
    }
  }
  // The progress line: on a terminal only; prefixed with the swept value.
  ProgressLine progress(isatty(fileno(stderr)) != 0);
  if (progress.enabled()) {
    options.explore.progress = [&progress](const checker::Progress& p) {
      progress.show(exploration_progress(p));
    };
    options.analyses_progress = [&progress](std::string_view running, std::size_t done,
                                            std::size_t total) {
      progress.show(analysis_progress(running, done, total));
    };
    options.smt_progress = [&progress](int depth, int max_depth, double seconds,
                                       std::string_view what) {
      progress.show(smt_progress(depth, max_depth, seconds, what));
    };
  }
  options.clear_progress = [&progress] { progress.clear(); };
  const bool diagnostics_color = use_color(args.color, STDERR_FILENO);
  reports::RenderOptions render;
  // A report written to a file is plain unless --color always asks.
  render.text.color = args.color == "always" || ((args.output.empty() || args.output == "-") &&
                                                 use_color(args.color, STDOUT_FILENO));
  render.text.statistics = !args.no_stats;
  render.timings = !args.no_stats;
  render.fail_on = severity_of(args.fail_on);
  const auto format = reports::parse_format(args.format).value_or(reports::Format::text);
  const bool html = format == reports::Format::html ||
                    std::any_of(extra_reports->begin(), extra_reports->end(),
                                [](const auto& r) { return r.first == reports::Format::html; });

  model::SourceManager sources;
  reports::Report report;
  report.tool_version = std::string(version());
  // The report names steps and slots through each Game, so the Games live
  // until it is rendered; explored graphs are dropped as soon as their
  // findings (which carry their own traces) are computed.
  std::vector<std::unique_ptr<model::Game>> games;
  bool bad_input = false;
  bool inconclusive = false;
  // Renders `rep` in every format asked and writes it (stdout or -o, and
  // each --report). Bad input (exit 2): the diagnostics are on stderr;
  // report files are left as they were, so CI never uploads a report of a
  // run that did not check.
  const auto write_reports = [&](const reports::Report& rep, bool bad) {
    std::string why;
    reports::RenderOptions r = render;
    if (html) add_phase_graphs(rep, r);
    const std::string rendered = reports::render(format, rep, sources, r);
    const bool to_file = !args.output.empty() && args.output != "-";
    if (!(bad && to_file) && !write_output(args.output, rendered, why)) {
      std::cerr << "loophole: error: " << why << "\n";
      return false;
    }
    for (const auto& [extra_format, path] : *extra_reports) {
      if (bad) break;
      reports::RenderOptions plain = r;
      plain.text.color = false;
      if (!write_output(path, reports::render(extra_format, rep, sources, plain), why)) {
        std::cerr << "loophole: error: " << why << "\n";
        return false;
      }
    }
    return true;
  };
  // A rank of a distributed run died: rank 0 writes what was explored of the
  // ruleset being checked (then the search ends the process with 3).
  options.write_partial = [&](const reports::RulesetReport& partial) {
    reports::Report copy = report;
    copy.rulesets.push_back(partial);
    write_reports(copy, false);
    std::cerr << "loophole: a rank ended the run; the report covers what was explored\n";
  };

  // The rulesets to check: the files given, else those of the project file
  // (--project, or ./loophole.yaml), each with its scope and baseline.
  std::optional<Project> project;
  if (!args.project.empty() || args.files.empty()) {
    project = load_project(args.project.empty() ? "loophole.yaml" : args.project, sources,
                           report.diagnostics);
    if (!project) {
      std::cerr << report.diagnostics.render(sources, diagnostics_color);
      if (args.files.empty() && args.project.empty()) {
        std::cerr << "loophole: error: no ruleset files given and no loophole.yaml here\n";
      }
      return 2;
    }
  }
  // A ruleset of a project includes from anywhere in the project's tree.
  if (project) {
    const std::string dir = std::filesystem::path(project->path).parent_path().string();
    load.include_roots.push_back(dir.empty() ? "." : dir);
  }
  struct Target {
    std::string file;
    const ProjectRuleset* entry = nullptr;
  };
  std::vector<Target> targets;
  for (std::string file : args.files) {
    if (!read_stdin_if_dash(file, sources, report.diagnostics)) {
      bad_input = true;
      continue;
    }
    targets.push_back({file, nullptr});
  }
  if (project) {
    for (const auto& e : project->rulesets) {
      if (args.files.empty()) targets.push_back({e.file, &e});
      for (auto& t : targets) {
        if (t.file == e.file) t.entry = &e;
      }
    }
  }

  for (const auto& target : targets) {
    const std::string& file = target.file;
    std::vector<std::int64_t> values{0};
    if (sweep) {
      values.clear();
      for (auto v = sweep->from; v <= sweep->to; ++v) values.push_back(v);
    }
    std::vector<reports::RulesetReport> runs;  // one per swept value
    const auto sweep_started = std::chrono::steady_clock::now();
    for (std::size_t index = 0; index < values.size(); ++index) {
      const auto v = values[index];
      if (sweep) {
        const std::chrono::duration<double> elapsed =
            std::chrono::steady_clock::now() - sweep_started;
        progress.set_prefix(sweep_progress(sweep->name, v, index + 1, values.size(),
                                           seconds_left(elapsed.count(), index, values.size())));
        progress.show("loading");
      }
      model::LoadOptions opts = load;
      if (target.entry != nullptr) apply_scope(*target.entry, opts);
      if (sweep) {
        if (sweep->name == "players") {
          opts.players = static_cast<int>(v);
        } else {
          opts.param_overrides[sweep->name] = v;
        }
      }
      if (target.entry != nullptr && !read_entry_file(*target.entry, sources, report.diagnostics)) {
        bad_input = true;
        break;
      }
      auto game = model::load_game(file, opts, sources, report.diagnostics);
      if (!game) {
        bad_input = true;
        break;
      }
      games.push_back(std::make_unique<model::Game>(std::move(*game)));
      const model::Game& g = *games.back();
      // The pipeline (pipeline.hpp): structural checks, the engine(s), the
      // analyses; with --symbolic, the SMT engine on every value of one param.
      signals_ask_to_stop();
      pipeline::Checked checked;
      if (args.symbolic.empty()) {
        checked = pipeline::check_game(g, file, options);
      } else {
        const auto load_value = [&](std::int64_t value) -> const model::Game* {
          model::LoadOptions o = opts;
          o.param_overrides[args.symbolic] = value;
          auto loaded = model::load_game(file, o, sources, report.diagnostics);
          if (!loaded) return nullptr;
          games.push_back(std::make_unique<model::Game>(std::move(*loaded)));
          return games.back().get();
        };
        checked = pipeline::check_symbolic(g, file, args.symbolic, load_value, options, error);
        if (!error.empty()) {
          std::cerr << "loophole: error: " << error << "\n";
          return 2;
        }
      }
      for (const auto& m : checked.messages) {
        if (reporting) std::cerr << m << "\n";
      }
      inconclusive = inconclusive || checked.inconclusive;
      reports::RulesetReport rs = std::move(checked.report);
      if (sweep) {
        rs.swept = sweep->name;
        rs.swept_value = v;
      }
      runs.push_back(std::move(rs));
      if (interrupted.load()) break;
    }
    progress.set_prefix("");
    progress.clear();
    merge_sweep(runs);
    if (target.entry != nullptr) apply_baseline(*target.entry, runs);
    std::move(runs.begin(), runs.end(), std::back_inserter(report.rulesets));
    if (interrupted.load()) break;
  }

  if (reporting && !report.diagnostics.all().empty()) {
    std::cerr << report.diagnostics.render(sources, diagnostics_color);
  }
  signals_ask_to_stop();
  if (!reporting) {  // (another rank of a distributed run: rank 0 reports)
    return pipeline::agree_on(0);
  }
  if (!write_reports(report, bad_input)) return pipeline::agree_on(2);
  if (interrupted.load()) {
    std::cerr << "loophole: interrupted; the report covers what was explored\n";
  }
  int code = inconclusive || interrupted.load() ? 3 : 0;
  if (bad_input) code = 2;
  for (const auto& rs : report.rulesets) {
    const auto ids = reports::finding_ids(rs);
    for (const auto& [f, id] : ranges::views::zip(rs.findings, ids)) {
      if (code != 2 && reports::fails(rs, f, id, render.fail_on)) code = 1;
    }
  }
  return pipeline::agree_on(code);
}

namespace {

// Writes `text` to the open file `f` and closes it; false, with `error` set,
// when either fails.
bool write_and_close(std::FILE* f, const std::string& path, const std::string& text,
                     std::string& error) {
  errno = 0;
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const int write_errno = errno;
  const bool closed = std::fclose(f) == 0;
  if (written && closed) return true;
  const int e = !written ? write_errno : errno;
  error = fmt::format("cannot write '{}': {}", path, std::strerror(e != 0 ? e : EIO));
  return false;
}

std::FILE* open_for_writing(const std::string& file, const std::string& path, std::string& error) {
  std::FILE* f = std::fopen(file.c_str(), "wb");
  if (f == nullptr) error = fmt::format("cannot write '{}': {}", path, std::strerror(errno));
  return f;
}

}  // namespace

// A regular file (or a new one) is written as a temporary file beside it,
// renamed into place: an interrupted or failed run never leaves half a
// report.
bool write_output(const std::string& path, const std::string& text, std::string& error) {
  if (path.empty() || path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return true;
  }
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::error_code ec;
  if (fs::is_directory(fs::status(target, ec))) {
    error = fmt::format("cannot write '{}': {}", path, std::strerror(EISDIR));
    return false;
  }
  const fs::file_status own = fs::symlink_status(target, ec);
  if (fs::exists(own) && !fs::is_regular_file(own)) {
    // A symbolic link, a device or a pipe (/dev/stdout, /dev/null, a FIFO)
    // is written through as it is: a file renamed over it would replace it
    // (the link, the device) instead of writing to what it stands for.
    std::FILE* f = open_for_writing(path, path, error);
    return f != nullptr && write_and_close(f, path, text, error);
  }
  // The temporary file is new (mkstemp: O_EXCL, so a link or file planted
  // under its name is never written through) and gets the permissions a
  // file created in its place would have.
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmp_name = (dir / fmt::format(".{}.tmp.XXXXXX", target.filename().string())).string();
  const int fd = ::mkostemp(tmp_name.data(), O_CLOEXEC);
  if (fd < 0) {
    error = fmt::format("cannot write '{}': {}", path, std::strerror(errno));
    return false;
  }
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  const fs::path tmp(tmp_name);
  std::FILE* f = ::fdopen(fd, "wb");
  if (f == nullptr) {
    error = fmt::format("cannot write '{}': {}", path, std::strerror(errno));
    ::close(fd);
    fs::remove(tmp, ec);
    return false;
  }
  if (!write_and_close(f, path, text, error)) {
    fs::remove(tmp, ec);
    return false;
  }
  std::error_code renamed;
  fs::rename(tmp, target, renamed);
  if (renamed) {
    fs::remove(tmp, ec);
    error = fmt::format("cannot write '{}': {}", path, renamed.message());
    return false;
  }
  return true;
}

}  // namespace loophole::cli
