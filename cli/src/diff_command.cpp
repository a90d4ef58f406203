// `loophole diff OLD NEW`: checks two versions of a ruleset the same way and
// reports what the edit changed (reports/diff.hpp). A version is a file or a
// git revision of one (`REV:path`, or `FILE --rev A [--rev B]`). A revision
// is written next to the file it is a version of, under a hidden temporary
// name, so the includes it names resolve as they do for the file itself; it
// is removed afterwards, and reports name it `REV:path`.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loophole/reports/diff.hpp"

#include "analyze.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace loophole::cli {
namespace {

namespace fs = std::filesystem;

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (const char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// One side of the diff: the file to load and the name to show for it.
struct Version {
  std::string path;     // what is loaded
  std::string display;  // what reports call it
  fs::path temporary;   // removed when done ("" for a plain file)
  Version() = default;
  Version(const Version&) = delete;
  Version& operator=(const Version&) = delete;
  Version(Version&&) = default;
  Version& operator=(Version&&) = default;
  ~Version() {
    std::error_code ec;
    if (!temporary.empty()) fs::remove(temporary, ec);
  }
};

// `git show REV:./NAME` run in the file's directory, written next to it.
std::optional<Version> from_git(const std::string& rev, const std::string& file,
                                std::string& error) {
  const fs::path p(file);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  const std::string name = p.filename().string();
  const std::string cmd = fmt::format("git -C {} show {} 2>&1", shell_quote(dir.string()),
                                      shell_quote(rev + ":./" + name));
  std::FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) {
    error = "cannot run 'git'";
    return std::nullopt;
  }
  std::string text;
  char buf[8192];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) text.append(buf, n);
  const int status = ::pclose(pipe);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::string why = text.substr(0, text.find('\n'));
    if (why.rfind("fatal: ", 0) == 0) why = why.substr(7);
    error = code == 127 ? "cannot run 'git'"
                        : fmt::format("cannot read '{}:{}' from git: {}", rev, file, why);
    return std::nullopt;
  }
  std::string tag;
  for (const char c : rev) tag += std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
  Version v;
  v.temporary = dir / fmt::format(".{}.loophole-diff-{}-{}{}", p.stem().string(), tag, ::getpid(),
                                  p.extension().string());
  std::ofstream out(v.temporary, std::ios::binary);
  out << text;
  if (!out) {
    error = fmt::format("cannot write '{}'", v.temporary.string());
    return std::nullopt;
  }
  v.path = v.temporary.string();
  v.display = fmt::format("{}:{}", rev, file);
  return v;
}

// A command-line argument: an existing file, or REV:path.
std::optional<Version> resolve(const std::string& arg, std::string& error) {
  std::error_code ec;
  const auto colon = arg.find(':');
  if (fs::exists(arg, ec) || colon == std::string::npos || colon == 0) {
    Version v;
    v.path = arg;
    v.display = arg;
    return v;
  }
  return from_git(arg.substr(0, colon), arg.substr(colon + 1), error);
}

void rename_file(reports::RulesetReport& rs, const Version& v) {
  if (v.temporary.empty()) return;
  for (auto& f : rs.findings) {
    if (f.where.file == v.path) f.where.file = v.display;
  }
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

}  // namespace

int run_diff(const DiffArgs& args, const std::atomic<bool>& interrupted) {
  std::string error;
  model::LoadOptions load;
  load.override_origin = model::SourceSpan{"<command line>", 0, 0, 0};
  for (const auto& p : args.params) {
    const auto a = parse_param(p, error);
    if (!a) {
      std::cerr << "loophole: error: --param: " << error << "\n";
      return 2;
    }
    load.param_overrides[a->name] = a->value;
  }
  if (args.players != 0) load.players = args.players;

  std::vector<std::string> sides;
  if (args.files.size() == 2 && args.revs.empty()) {
    sides = args.files;
  } else if (args.files.size() == 1 && args.revs.size() == 2) {
    sides = {args.revs[0] + ":" + args.files[0], args.revs[1] + ":" + args.files[0]};
  } else if (args.files.size() == 1 && args.revs.size() == 1) {
    sides = {args.revs[0] + ":" + args.files[0], args.files[0]};
  } else {
    std::cerr << "loophole: error: diff takes OLD NEW, or FILE with one or two --rev\n";
    return 2;
  }
  std::vector<Version> versions;
  for (const auto& s : sides) {
    auto v = resolve(s, error);
    if (!v) {
      std::cerr << "loophole: error: " << error << "\n";
      return 2;
    }
    versions.push_back(std::move(*v));
  }

  checker::ExplicitOptions explore;
  explore.threads = args.threads;
  explore.max_states = args.max_states;
  explore.interrupt = &interrupted;
  model::SourceManager sources;
  model::DiagnosticSink sink;
  std::vector<Analyzed> runs;
  for (const auto& v : versions) {
    auto a = analyze(v.path, v.display, load, explore, sources, sink);
    if (!a) continue;
    rename_file(a->report, v);
    runs.push_back(std::move(*a));
  }
  if (!sink.all().empty()) {
    std::string text = sink.render(sources);
    for (const auto& v : versions) {
      if (!v.temporary.empty()) text = replace_all(text, v.path, v.display);
    }
    std::cerr << text;
  }
  if (runs.size() != 2) return 2;

  const auto d = reports::diff_rulesets(runs[0].report, runs[1].report);
  const std::string out =
      args.format == "json" ? reports::render_diff_json(d) : reports::render_diff_text(d);
  if (!write_output(args.output, out, error)) {
    std::cerr << "loophole: error: " << error << "\n";
    return 2;
  }
  if (interrupted.load()) {
    std::cerr << "loophole: interrupted; the diff covers what was explored\n";
  }
  const auto threshold = args.fail_on == "note"      ? properties::Severity::note
                         : args.fail_on == "warning" ? properties::Severity::warning
                                                     : properties::Severity::error;
  if (reports::adds_findings(d, threshold)) return 1;
  for (const auto& r : runs) {
    if (r.report.completion != checker::Completion::complete) return 3;
  }
  return 0;
}

}  // namespace loophole::cli
