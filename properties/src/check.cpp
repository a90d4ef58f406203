// Runs the selected analyses on one shared context (the graph is copied and
// every control point read once, however many analyses run) and sorts the
// findings so that a report is the same from run to run and thread count to
// thread count: errors first, then by file position, rule and message.
#include "loophole/properties/check.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <iterator>
#include <mutex>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

#include "analyses.hpp"
#include "context.hpp"

namespace loophole::properties {

std::string_view to_string(Question q) {
  switch (q) {
    case Question::deadlocks:
      return "deadlocks";
    case Question::response_loops:
      return "response loops";
    case Question::turn_loops:
      return "turn loops";
    case Question::stalemates:
      return "stalemates";
    case Question::ends_out_of_reach:
      return "ends out of reach";
    case Question::unreachable_wins:
      return "unreachable wins";
    case Question::rule_gaps:
      return "rule gaps";
    case Question::ties:
      return "ties";
    case Question::dead_rules:
      return "dead rules";
    case Question::user_properties:
      return "user properties";
  }
  return "?";
}

std::optional<Question> question_of(Kind k) {
  switch (k) {
    case Kind::deadlock:
      return Question::deadlocks;
    case Kind::response_loop:
    case Kind::unbounded_chain:
    case Kind::stall:
      return Question::response_loops;
    case Kind::turn_loop:
      return Question::turn_loops;
    case Kind::stalemate:
      return Question::stalemates;
    case Kind::cannot_lose:
    case Kind::cannot_end:
      return Question::ends_out_of_reach;
    case Kind::unreachable_win:
      return Question::unreachable_wins;
    case Kind::rule_gap:
      return Question::rule_gaps;
    case Kind::tie:
      return Question::ties;
    case Kind::dead_rule:
      return Question::dead_rules;
    case Kind::property_violation:
      return Question::user_properties;
    case Kind::structure:
      return std::nullopt;
  }
  return std::nullopt;
}

CheckSelection CheckSelection::only(Kind k) {
  CheckSelection s;
  s.deadlocks = k == Kind::deadlock;
  s.response_loops = k == Kind::response_loop || k == Kind::unbounded_chain ||
                     k == Kind::turn_loop || k == Kind::stall;
  s.stalemates = k == Kind::stalemate || k == Kind::cannot_lose || k == Kind::cannot_end;
  s.unreachable_wins = k == Kind::unreachable_win;
  s.rule_gaps = k == Kind::rule_gap || k == Kind::tie;
  s.dead_rules = k == Kind::dead_rule;
  s.user_properties = k == Kind::property_violation;
  return s;
}

CheckResult run_checks(const checker::ExploredGraph& graph, const CheckSelection& selection,
                       const std::atomic<bool>* interrupt, int threads,
                       const AnalysisProgress& progress, checker::RunLimits* limits) {
  CheckResult result;
  using Clock = std::chrono::steady_clock;
  const auto seconds_since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  const std::size_t selected = std::size_t{selection.deadlocks} + selection.response_loops +
                               selection.stalemates + selection.unreachable_wins +
                               selection.rule_gaps + selection.dead_rules +
                               selection.user_properties;
  if (progress) progress("", 0, selected);
  const auto started = Clock::now();
  if (threads <= 0) threads = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  const detail::Context cx(graph, selection, interrupt, limits, threads);
  result.seconds.emplace_back("context", seconds_since(started));
  using Analysis = void (*)(const detail::Context&, std::vector<Finding>&);
  // Part 0 is no analysis: the pass of strongly connected components that
  // the cycle searches and the backward searches share (Context::cyclic),
  // started first so that the analyses that do not need it run beside it.
  const auto& properties = cx.game.properties;
  const bool components =
      selection.response_loops || selection.stalemates ||
      (selection.user_properties &&
       std::any_of(properties.begin(), properties.end(), [](const model::Property& p) {
         return p.kind == model::Property::Kind::leads_to;
       }));
  const struct {
    bool selected;
    Question question;
    Analysis run;
    bool heavy;  // builds cyclic components over the states (graph_algorithms.hpp)
  } parts[] = {
      {components, Question::deadlocks,
       [](const detail::Context& c, std::vector<Finding>&) { c.cyclic(); }, true},
      {selection.deadlocks, Question::deadlocks, detail::find_deadlocks, false},
      {selection.response_loops, Question::response_loops, detail::find_response_loops, true},
      {selection.response_loops, Question::turn_loops, detail::find_turn_loops, true},
      {selection.stalemates, Question::stalemates, detail::find_stalemates, true},
      {selection.stalemates, Question::ends_out_of_reach, detail::find_ends_out_of_reach, false},
      {selection.unreachable_wins, Question::unreachable_wins, detail::find_unreachable_wins,
       false},
      {selection.rule_gaps, Question::rule_gaps, detail::find_rule_gaps, false},
      {selection.rule_gaps, Question::ties, detail::find_ties, false},
      {selection.dead_rules, Question::dead_rules, detail::find_dead_rules, false},
      {selection.user_properties, Question::user_properties, detail::check_user_properties, true},
  };
  // Under a memory limit, a heavy analysis starts beside another only when
  // both fit: the components cost up to 16 bytes a state (the visit numbers,
  // the search's path and stack) besides the results. Otherwise it waits
  // for the other to finish: run one after the other, they fit where side
  // by side they would stop at the limit.
  const std::uint64_t heavy_bytes = std::uint64_t{cx.size()} * 16;
  std::mutex heavy_mutex;
  std::condition_variable heavy_done;
  int heavy_running = 0;
  const auto fits_beside = [&] {
    return limits == nullptr || limits->max_resident() == 0 ||
           checker::resident_bytes() + heavy_bytes <= limits->max_resident();
  };
  struct Outcome {
    std::vector<Finding> found;
    bool cut_short = false;
    double seconds = 0;
    std::exception_ptr error;
  };
  constexpr std::size_t count = std::size(parts);
  std::array<Outcome, count> outcomes;
  // The analyses only read the context, the graph and the semantics (whose
  // scratch is per thread), so they run side by side, each into its own
  // findings; those are joined in the order above whatever the thread count.
  // On several threads the shared components start first, beside them the
  // longest of the analyses that do not wait for them (user properties,
  // unreachable wins, dead rules), then those that do; on one, they run in
  // the order above (so an interruption cuts off a tail of it).
  constexpr std::array<std::size_t, count> by_cost = {0, 10, 6, 9, 2, 5, 3, 4, 7, 1, 8};
  std::atomic<std::size_t> next{0};
  // What the progress callback is told: the analyses running, oldest first.
  std::mutex progress_mutex;
  std::vector<std::string_view> running;
  std::size_t finished = 0;
  const auto report = [&](std::string_view name, bool starts) {
    if (!progress) return;
    const std::lock_guard lock(progress_mutex);
    if (starts) {
      running.push_back(name);
    } else {
      running.erase(std::find(running.begin(), running.end(), name));
      ++finished;
    }
    progress(running.empty() ? std::string_view() : running.front(), finished, selected);
  };
  const auto work = [&] {
    for (std::size_t k; (k = next.fetch_add(1)) < count;) {
      const std::size_t i = threads > 1 ? by_cost[k] : k;
      Outcome& o = outcomes[i];
      if (!parts[i].selected) continue;
      if (cx.interrupted()) {
        o.cut_short = true;
        continue;
      }
      if (parts[i].heavy) {
        std::unique_lock lock(heavy_mutex);
        heavy_done.wait(lock, [&] { return heavy_running == 0 || fits_beside(); });
        ++heavy_running;
      }
      const auto t = Clock::now();
      if (i != 0) report(to_string(parts[i].question), true);
      try {
        parts[i].run(cx, o.found);
      } catch (...) {
        o.error = std::current_exception();
      }
      if (i != 0) report(to_string(parts[i].question), false);
      if (parts[i].heavy) {
        const std::lock_guard lock(heavy_mutex);
        --heavy_running;
        heavy_done.notify_all();
      }
      o.seconds = seconds_since(t);
      if (cx.interrupted()) o.cut_short = true;
    }
  };
  {
    std::vector<std::jthread> team;
    const auto helpers = std::min(count, static_cast<std::size_t>(threads)) - 1;
    for (std::size_t i = 0; i < helpers; ++i) team.emplace_back(work);
    work();
  }
  for (std::size_t i = 0; i < count; ++i) {
    Outcome& o = outcomes[i];
    if (o.error) std::rethrow_exception(o.error);
    if (!parts[i].selected) continue;
    if (i == 0) {
      if (!o.cut_short) result.seconds.emplace_back("components", o.seconds);
      continue;
    }
    if (o.cut_short) {
      result.not_run.emplace_back(to_string(parts[i].question));
      continue;
    }
    result.seconds.emplace_back(to_string(parts[i].question), o.seconds);
    std::move(o.found.begin(), o.found.end(), std::back_inserter(result.findings));
  }
  auto& found = result.findings;
  detail::finish_findings(cx, found);
  return result;
}

namespace detail {

void finish_findings(const Context& cx, std::vector<Finding>& found) {
  const auto order = [](const Finding& a, const Finding& b) {
    return std::forward_as_tuple(b.severity, a.where.file, a.where.line, a.where.col, a.rule,
                                 a.message) < std::forward_as_tuple(a.severity, b.where.file,
                                                                    b.where.line, b.where.col,
                                                                    b.rule, b.message);
  };
  std::stable_sort(found.begin(), found.end(), order);
  if (!cx.interrupted()) group_root_causes(cx, found, order);
  mark_invented_rules(cx.game, found);
  list_root_causes(found);
}

}  // namespace detail

std::vector<Finding> check_all(const checker::ExploredGraph& graph,
                               const CheckSelection& selection) {
  return run_checks(graph, selection, nullptr).findings;
}

}  // namespace loophole::properties
