// `loophole diff OLD NEW`: checks two versions of a ruleset the same way and
// reports what the edit changed (reports/diff.hpp). A version is a file or a
// git revision of one (`REV:path`, or `FILE --rev A [--rev B]`). A revision
// is the revision's YAML files written to a temporary directory at their
// paths in the repository, so the file and everything it includes are of
// that revision, not of the working tree; the directory is removed
// afterwards, and reports name the files `REV:path`.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loophole/reports/diff.hpp"

#include "analyze.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "signals.hpp"

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
  // A git revision: the directory it is written to (removed when done), the
  // place in it that stands for the file's own directory, its directory in
  // the working tree, and the revision.
  fs::path temporary;
  fs::path anchor;
  fs::path dir;
  std::string rev;
  Version() = default;
  Version(const Version&) = delete;
  Version& operator=(const Version&) = delete;
  Version(Version&& o) noexcept { *this = std::move(o); }
  Version& operator=(Version&& o) noexcept {
    std::swap(path, o.path);
    std::swap(display, o.display);
    std::swap(temporary, o.temporary);
    std::swap(anchor, o.anchor);
    std::swap(dir, o.dir);
    std::swap(rev, o.rev);
    return *this;
  }
  ~Version() {
    std::error_code ec;
    if (!temporary.empty()) fs::remove_all(temporary, ec);
  }

  // What reports call a file this version loaded: `REV:path` (path as seen
  // from the current directory) for a file of a revision.
  [[nodiscard]] std::string display_of(const std::string& file) const {
    if (file == path) return display;
    if (temporary.empty()) return file;
    const fs::path rel = fs::path(file).lexically_relative(anchor);
    if (rel.empty()) return file;
    const fs::path shown = (dir == "." ? rel : dir / rel).lexically_normal();
    return fmt::format("{}:{}", rev, shown.string());
  }
};

// Runs `cmd` through the shell; its stdout, or nullopt (and `error` from the
// first line it printed, or the command) when it fails.
std::optional<std::string> run_git(const std::string& cmd, std::string& error) {
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
    if (why.empty()) why = fmt::format("'{}' failed", cmd.substr(0, cmd.find(" 2>")));
    error = code == 127 ? "cannot run 'git'" : why;
    return std::nullopt;
  }
  return text;
}

bool is_yaml(const std::string& name) {
  const auto ext = fs::path(name).extension().string();
  return ext == ".yaml" || ext == ".yml";
}

// Writes every YAML file of revision `rev` (and `main`, its repository path)
// under `root`, at its path in the repository, so that the includes of the
// revision resolve to files of the same revision: the file list from
// `git ls-tree`, the contents (as `git show REV:path` gives them) from one
// `git cat-file --batch`.
bool write_tree(const std::string& git, const std::string& rev, const std::string& main,
                const fs::path& root, std::string& error) {
  const auto listing = run_git(
      fmt::format("{} ls-tree -r -z --full-tree {} 2>/dev/null", git, shell_quote(rev)), error);
  if (!listing) return false;
  std::vector<std::string> paths;
  std::string objects;
  for (std::size_t at = 0; at < listing->size();) {
    const auto end = listing->find('\0', at);
    const std::string entry = listing->substr(at, end - at);
    at = end == std::string::npos ? listing->size() : end + 1;
    // "MODE TYPE OBJECT\tPATH"; only regular files (not links, submodules).
    const auto tab = entry.find('\t');
    if (tab == std::string::npos || entry.rfind("100", 0) != 0) continue;
    const std::string name = entry.substr(tab + 1);
    if (!is_yaml(name) && name != main) continue;
    paths.push_back(name);
    objects += entry.substr(entry.rfind(' ', tab) + 1, tab - entry.rfind(' ', tab) - 1) + "\n";
  }
  const fs::path list = root / ".objects";
  std::ofstream(list, std::ios::binary) << objects;
  const auto blobs = run_git(
      fmt::format("{} cat-file --batch <{} 2>/dev/null", git, shell_quote(list.string())), error);
  if (!blobs) return false;
  // Each blob is "OBJECT blob SIZE\n" + SIZE bytes + "\n".
  std::size_t at = 0;
  for (const auto& name : paths) {
    const auto eol = blobs->find('\n', at);
    if (eol == std::string::npos) break;
    const std::string header = blobs->substr(at, eol - at);
    const auto space = header.rfind(' ');
    if (header.find(" blob ") == std::string::npos) {
      error = fmt::format("no blob for '{}' ({})", name, header);
      return false;
    }
    const std::size_t size = std::stoull(header.substr(space + 1));
    if (eol + 1 + size > blobs->size()) {
      error = fmt::format("'git cat-file' cut '{}' short", name);
      return false;
    }
    const fs::path target = root / name;
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    std::ofstream out(target, std::ios::binary);
    out.write(blobs->data() + eol + 1, static_cast<std::streamsize>(size));
    if (!out) {
      error = fmt::format("cannot write '{}'", target.string());
      return false;
    }
    at = eol + 1 + size + 1;
  }
  return true;
}

// FILE at revision REV: the revision's tree of YAML files written to a
// temporary directory (write_tree), FILE loaded from there, so it and every
// file it includes are of that revision.
std::optional<Version> from_git(const std::string& rev, const std::string& file,
                                std::string& error) {
  const fs::path p(file);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  const std::string name = p.filename().string();
  const std::string git = "git -C " + shell_quote(dir.string());
  // The file itself first, for a plain message when it is not in the revision.
  if (!run_git(fmt::format("{} show {} 2>&1", git, shell_quote(rev + ":./" + name)), error)) {
    if (error != "cannot run 'git'") {
      error = fmt::format("cannot read '{}:{}' from git: {}", rev, file, error);
    }
    return std::nullopt;
  }
  auto prefix = run_git(git + " rev-parse --show-prefix 2>&1", error);
  if (!prefix) {
    error = fmt::format("cannot read '{}:{}' from git: {}", rev, file, error);
    return std::nullopt;
  }
  prefix->erase(prefix->find_last_not_of('\n') + 1);
  Version v;
  std::string root_name = (fs::temp_directory_path() / "loophole-diff-XXXXXX").string();
  if (::mkdtemp(root_name.data()) == nullptr) {
    error = fmt::format("cannot create a temporary directory: {}", std::strerror(errno));
    return std::nullopt;
  }
  v.temporary = root_name;
  v.anchor = (v.temporary / *prefix).lexically_normal();
  if (v.anchor.filename().empty()) v.anchor = v.anchor.parent_path();
  v.dir = dir;
  v.rev = rev;
  if (!write_tree(git, rev, *prefix + name, v.temporary, error)) {
    error = fmt::format("cannot read '{}:{}' from git: {}", rev, file, error);
    return std::nullopt;
  }
  v.path = (v.anchor / name).string();
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

void rename_files(reports::RulesetReport& rs, const Version& v) {
  if (v.temporary.empty()) return;
  for (auto& f : rs.findings) f.where.file = v.display_of(f.where.file);
}

// The diagnostics with the files of a revision named as reports name them:
// each path into its temporary directory runs to the next ':', quote,
// parenthesis or space.
std::string rename_files(std::string text, const Version& v) {
  if (v.temporary.empty()) return text;
  const std::string root = v.temporary.string();
  for (auto at = text.find(root); at != std::string::npos; at = text.find(root, at)) {
    const auto end = text.find_first_of(":'\"() \n", at);
    const std::string shown = v.display_of(text.substr(at, end - at));
    text.replace(at, end - at, shown);
    at += shown.size();
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
  load.include_roots = args.include_roots;

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
  // A revision is written to a temporary directory that must be removed
  // however the run ends: a signal asks to stop rather than ending it.
  signals_ask_to_stop();
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
  explore.native = native_mode(args.native, args.no_native);
  explore.max_states = args.max_states;
  explore.interrupt = &interrupted;
  model::SourceManager sources;
  model::DiagnosticSink sink;
  std::vector<Analyzed> runs;
  for (const auto& v : versions) {
    // A revision's includes come from the revision: its tree, which holds
    // nothing but the revision's own YAML files.
    model::LoadOptions opts = load;
    if (!v.temporary.empty()) opts.include_roots = {v.temporary.string()};
    auto a = analyze(v.path, v.display, opts, explore, sources, sink);
    if (!a) continue;
    rename_files(a->report, v);
    runs.push_back(std::move(*a));
  }
  if (!sink.all().empty()) {
    std::string text = sink.render(sources);
    for (const auto& v : versions) text = rename_files(std::move(text), v);
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
