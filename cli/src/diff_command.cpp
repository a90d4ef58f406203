// `loophole diff OLD NEW`: checks two versions of a ruleset the same way and
// reports what the edit changed (reports/diff.hpp). A version is a file or a
// git revision of one (`REV:path`, or `FILE --rev A [--rev B]`). A revision
// is the revision's YAML files written to a temporary directory at their
// paths in the repository, so the file and everything it includes are of
// that revision, not of the working tree; the directory is removed
// afterwards, and reports name the files `REV:path`.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loophole/model/diagnostics.hpp"
#include "loophole/pipeline/pipeline.hpp"
#include "loophole/reports/diff.hpp"
#include "loophole/reports/process.hpp"

#include "command_line.hpp"
#include "commands.hpp"
#include "signals.hpp"

namespace loophole::cli {
namespace {

namespace fs = std::filesystem;

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

// Runs `git -C DIR ARGS...` (no shell: process.hpp) with `input` on its
// standard input; its stdout, or nullopt with `error` set from git's first
// line of complaint.
std::optional<std::string> run_git(const fs::path& dir, std::vector<std::string> args,
                                   std::string& error, const std::string& input = "") {
  args.insert(args.begin(), {"git", "-C", dir.string()});
  const auto r = reports::run_process(args, input, error);
  if (!r) {
    error = "cannot run 'git'";
    return std::nullopt;
  }
  if (r->exit_code != 0) {
    std::string why = r->err.substr(0, r->err.find('\n'));
    if (why.rfind("fatal: ", 0) == 0) why = why.substr(7);
    if (why.empty()) why = fmt::format("'git {}' failed", args[3]);
    error = why;
    return std::nullopt;
  }
  return r->out;
}

bool is_yaml(const std::string& name) {
  const auto ext = fs::path(name).extension().string();
  return ext == ".yaml" || ext == ".yml";
}

// A revision as the user wrote it: git would read one that starts with '-'
// as an option (`--rev=--output=FILE`), and control characters have no place
// in one. It is resolved to a commit id (rev-parse, after
// --end-of-options) before anything else sees it.
bool valid_revision(const std::string& rev) {
  if (rev.empty() || rev[0] == '-') return false;
  return std::none_of(rev.begin(), rev.end(),
                      [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; });
}

bool is_object_id(const std::string& id) {
  return (id.size() == 40 || id.size() == 64) && std::all_of(id.begin(), id.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// A path of a tree entry that may be written under the temporary root:
// relative, no empty, `.` or `..` component, no backslash or control
// character. git itself refuses such names when it checks a tree out, but
// a crafted tree (git mktree) holds them and a fetch does not check.
bool safe_tree_path(const std::string& name) {
  if (name.empty() || name.front() == '/' || name.back() == '/') return false;
  std::size_t at = 0;
  while (at <= name.size()) {
    const auto end = std::min(name.find('/', at), name.size());
    const std::string_view part(name.data() + at, end - at);
    if (part.empty() || part == "." || part == ".." || part == ".git") return false;
    at = end + 1;
  }
  return std::none_of(name.begin(), name.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7F || c == '\\';
  });
}

// Creates `target` (a new file: O_EXCL, never through a link) with `bytes`.
bool write_new_file(const fs::path& target, std::string_view bytes, std::string& error) {
  const int fd = ::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  bool ok = fd >= 0;
  for (std::size_t done = 0; ok && done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    ok = n > 0 || (n < 0 && errno == EINTR);
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  if (fd >= 0 && ::close(fd) != 0) ok = false;
  if (!ok) error = fmt::format("cannot write '{}': {}", target.string(), std::strerror(errno));
  return ok;
}

// Creates the directories of `relative` under `root` that do not exist yet,
// each registered to be removed if a signal ends the run (signals.hpp).
bool make_directories(const fs::path& root, const fs::path& relative, std::string& error) {
  fs::path at = root;
  for (const auto& part : relative) {
    at /= part;
    if (::mkdir(at.c_str(), 0700) == 0) {
      remove_if_ended(at.string());
    } else if (errno != EEXIST) {
      error = fmt::format("cannot create '{}': {}", at.string(), std::strerror(errno));
      return false;
    }
  }
  return true;
}

// Writes every YAML file of commit `commit` (and `main`, its repository
// path) under `root`, at its path in the repository, so that the includes
// of the revision resolve to files of the same revision: the file list from
// `git ls-tree`, the contents from one `git cat-file --batch`. An entry
// whose path would leave `root` is an error, not skipped: the revision is
// not what it claims to be.
bool write_tree(const fs::path& dir, const std::string& commit, const std::string& main,
                const fs::path& root, std::string& error) {
  const auto listing =
      run_git(dir, {"ls-tree", "-r", "-z", "--full-tree", "--end-of-options", commit}, error);
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
    if (!safe_tree_path(name)) {
      error = fmt::format("the revision holds a file whose path leaves its tree: '{}'",
                          model::terminal_safe(name));
      return false;
    }
    const auto space = entry.rfind(' ', tab);
    const std::string object = entry.substr(space + 1, tab - space - 1);
    if (!is_object_id(object)) continue;
    paths.push_back(name);
    objects += object + "\n";
  }
  const auto blobs = run_git(dir, {"cat-file", "--batch"}, error, objects);
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
    if (!make_directories(root, fs::path(name).parent_path(), error)) return false;
    remove_if_ended(target.string());
    if (!write_new_file(target, std::string_view(*blobs).substr(eol + 1, size), error)) {
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
  const auto fail = [&](const std::string& why) {
    error = fmt::format("cannot read '{}:{}' from git: {}", rev, file, why);
    return std::nullopt;
  };
  if (!valid_revision(rev)) return fail("not a revision name");
  auto commit = run_git(
      dir, {"rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"}, error);
  if (!commit) {
    if (error == "cannot run 'git'") return std::nullopt;
    return fail(fmt::format("unknown revision '{}'", rev));
  }
  commit->erase(commit->find_last_not_of('\n') + 1);
  if (!is_object_id(*commit)) return fail(fmt::format("unknown revision '{}'", rev));
  // The file itself first, for a plain message when it is not in the revision.
  if (!run_git(dir, {"cat-file", "-e", "--end-of-options", *commit + ":./" + name}, error)) {
    if (error == "cannot run 'git'") return std::nullopt;
    return fail(fmt::format("'{}' is not in revision '{}'", file, rev));
  }
  auto prefix = run_git(dir, {"rev-parse", "--show-prefix"}, error);
  if (!prefix) return fail(error);
  prefix->erase(prefix->find_last_not_of('\n') + 1);
  Version v;
  std::string root_name = (fs::temp_directory_path() / "loophole-diff-XXXXXX").string();
  if (::mkdtemp(root_name.data()) == nullptr) {
    error = fmt::format("cannot create a temporary directory: {}", std::strerror(errno));
    return std::nullopt;
  }
  remove_if_ended(root_name);
  v.temporary = root_name;
  v.anchor = (v.temporary / *prefix).lexically_normal();
  if (v.anchor.filename().empty()) v.anchor = v.anchor.parent_path();
  v.dir = dir;
  v.rev = rev;
  if (!write_tree(dir, *commit, *prefix + name, v.temporary, error)) return fail(error);
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
  if (!apply_params(args.params, load)) return 2;
  if (args.players != 0) load.players = args.players;
  load.include_roots = args.include_roots;

  std::vector<std::string> sides;
  const std::string& file = args.old_version;
  const bool one_file = args.new_version.empty();
  if (!one_file && args.revs.empty()) {
    sides = {args.old_version, args.new_version};
  } else if (one_file && args.revs.size() == 2) {
    sides = {args.revs[0] + ":" + file, args.revs[1] + ":" + file};
  } else if (one_file && args.revs.size() == 1) {
    sides = {args.revs[0] + ":" + file, file};
  } else {
    std::cerr << "loophole: error: diff takes OLD NEW, or FILE with one or two --rev\n";
    return 2;
  }
  // Until both versions are loaded a signal ends the run at once, and
  // removes the revisions' temporary trees first (remove_if_ended).
  std::vector<Version> versions;
  for (const auto& s : sides) {
    auto v = resolve(s, error);
    if (!v) {
      std::cerr << "loophole: error: " << error << "\n";
      return 2;
    }
    versions.push_back(std::move(*v));
  }

  // Both versions are checked by the pipeline, as `check` checks them
  // (pipeline.hpp), under one set of limits for the whole run.
  pipeline::Options check;
  if (!apply_engine(args.engine, check)) return 2;
  check.depth = args.depth;
  check.explore.threads = args.threads;
  check.explore.native = pipeline::native_mode(args.native, args.no_native);
  check.explore.max_states = args.max_states;
  check.interrupted = &interrupted;
  if (!apply_limits(args.max_memory, args.timeout, check)) return 2;
  model::SourceManager sources;
  model::DiagnosticSink sink;
  for (auto& v : versions) {
    if (v.path != "-") continue;
    if (!read_stdin_if_dash(v.path, sources, sink)) {
      std::cerr << sink.render(sources);
      return 2;
    }
    v.display = v.path;
  }
  std::vector<model::Game> games;
  for (const auto& v : versions) {
    // A revision's includes come from the revision: its tree, which holds
    // nothing but the revision's own YAML files.
    model::LoadOptions opts = load;
    if (!v.temporary.empty()) opts.include_roots = {v.temporary.string()};
    if (auto g = model::load_game(v.path, opts, sources, sink)) games.push_back(std::move(*g));
  }
  if (!sink.all().empty()) {
    std::string text = sink.render(sources);
    for (const auto& v : versions) text = rename_files(std::move(text), v);
    std::cerr << text;
  }
  if (games.size() != 2) return 2;
  // From here a signal asks the searches to stop; the trees are removed as
  // the versions go out of scope.
  signals_ask_to_stop();
  std::vector<pipeline::Analyzed> runs;
  for (std::size_t i = 0; i < 2; ++i) {
    runs.push_back(pipeline::analyze(std::move(games[i]), versions[i].display, check));
    for (const auto& m : runs.back().messages) std::cerr << rename_files(m, versions[i]) << "\n";
    rename_files(runs.back().report, versions[i]);
  }

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
    if (r.inconclusive) return 3;
  }
  return 0;
}

}  // namespace loophole::cli
