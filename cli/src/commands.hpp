// The subcommands of `loophole`, each a function of its parsed arguments.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace loophole::cli {

std::string_view version();
// "loophole 0.1.0 (git 52804bf, Z3 4.8.12)", for --version. Defined in
// version.cpp, a file of the executable only (cli/CMakeLists.txt).
std::string version_text();

struct CheckArgs {
  std::vector<std::string> files;          // none: the rulesets of the project file
  std::string project;                     // --project FILE (default ./loophole.yaml)
  std::vector<std::string> include_roots;  // --include-root DIR
  std::vector<std::string> params;
  std::vector<std::string> sweeps;
  int players = 0;
  std::string engine = "explicit";
  int depth = 20;        // --depth: BMC depth of the smt engine
  std::string symbolic;  // --symbolic NAME: smallest scopes with a violation (smt)
  // --layer-states N: the smt engine's breadth-first layers hold at most N
  // states (0: BMC only); -1: the engine's default.
  std::int64_t layer_states = -1;
  int threads = 0;
  // The rules as machine code (checker::NativeMode): --native from the start,
  // --no-native never, neither: from the cache, or once the search runs long.
  bool native = false;
  bool no_native = false;
  bool no_symmetry = false;  // --no-symmetry: every concrete state (ExplicitOptions::symmetry)
  bool compact = false;      // --compact: hash compaction (ExplicitOptions::compact)
  std::uint64_t max_states = 0;
  std::string max_memory;
  std::string timeout;
  std::string fail_on = "error";
  std::string format = "text";
  std::string output;
  std::vector<std::string> reports;  // --report FORMAT:FILE: more reports of the same run
  std::string color = "auto";
  bool no_stats = false;
};

struct GraphArgs {
  std::string file;
  std::vector<std::string> include_roots;  // --include-root DIR
  std::string format = "dot";
  std::vector<std::string> params;
  std::string output;
  std::string trace;                // a finding id: check, then highlight its trace
  std::string engine = "explicit";  // --trace: as for check
  int depth = 20;                   // --trace: as for check
  std::string max_memory;           // --trace: as for check
  std::string timeout;              // --trace: of the check
  bool detail = false;              // each step's actions, triggers and end conditions
  int players = 0;
};

struct ExportArgs {
  std::string file;
  std::vector<std::string> include_roots;  // --include-root DIR
  std::string format = "promela";
  std::vector<std::string> params;
  int players = 0;
  std::string output;
};

// `loophole diff`: two versions of a ruleset (files, or git revisions).
struct DiffArgs {
  std::string old_version;  // OLD, or FILE with --rev
  std::string new_version;  // NEW ("" with --rev)
  std::vector<std::string> revs;
  std::vector<std::string> include_roots;  // --include-root DIR
  std::vector<std::string> params;
  int players = 0;
  int threads = 0;
  std::string engine = "explicit";  // as CheckArgs
  int depth = 20;
  bool native = false;
  bool no_native = false;
  std::uint64_t max_states = 0;
  std::string max_memory;
  std::string timeout;
  std::string fail_on = "error";
  std::string format = "text";
  std::string output;
};

// `loophole explain ID [FILES]` (explain_command.cpp).
struct ExplainArgs {
  std::string id;                  // a finding id, as the reports print it
  std::vector<std::string> files;  // none: the rulesets of the project file
  std::string project;             // --project FILE (default ./loophole.yaml)
  std::vector<std::string> include_roots;
  std::vector<std::string> params;
  int players = 0;
  std::string engine = "explicit";  // as CheckArgs
  int depth = 20;
  std::string max_memory;
  std::string timeout;  // --timeout: "" none
  bool native = false, no_native = false;
};

// `loophole simulate FILE` (simulate_command.cpp).
struct SimulateArgs {
  std::string file;
  std::vector<std::string> include_roots;
  std::vector<std::string> params;
  int players = 0;
  std::uint64_t games = 1000;
  std::uint64_t seed = 1;
  int threads = 0;
  std::string policy = "uniform";
  std::uint32_t max_moves = 10000;
  bool native = false;
  std::string timeout;
  std::string format = "text";
  std::string output;
  std::string color = "auto";
  bool no_stats = false;
};

// `loophole solve FILE` (solve_command.cpp).
struct SolveArgs {
  std::string file;
  std::vector<std::string> include_roots;
  std::vector<std::string> params;
  int players = 0;
  int threads = 0;
  std::string timeout;
  std::string nature = "adversarial";  // or "fair"
  std::string format = "text";         // or "json"
  std::string output;
  int tree_depth = 8;  // the coalition's moves along a branch of a strategy tree
  int tree_size = 40;  // nodes of a strategy tree
};

int run_check(const CheckArgs& args, const std::atomic<bool>& interrupted);
int run_graph(const GraphArgs& args, const std::atomic<bool>& interrupted);
int run_diff(const DiffArgs& args, const std::atomic<bool>& interrupted);
int run_export(const ExportArgs& args);
int run_explain(const ExplainArgs& args, const std::atomic<bool>& interrupted);
int run_simulate(const SimulateArgs& args, const std::atomic<bool>& interrupted);
int run_solve(const SolveArgs& args, const std::atomic<bool>& interrupted);

// Writes `text` to `path` atomically (temp file + rename); "" or "-" = stdout.
bool write_output(const std::string& path, const std::string& text, std::string& error);

}  // namespace loophole::cli
