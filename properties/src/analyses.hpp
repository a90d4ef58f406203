// One function per analysis (one file each); check.cpp runs the selected ones
// on one shared Context and sorts what they found.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "loophole/properties/finding.hpp"

#include "context.hpp"

namespace loophole::properties::detail {

void find_deadlocks(const Context& cx, std::vector<Finding>& out);
void find_response_loops(const Context& cx, std::vector<Finding>& out);  // and unbounded chains
void find_response_loops_only(const Context& cx, std::vector<Finding>& out);
void find_unbounded_chains(const Context& cx, std::vector<Finding>& out);
void find_turn_loops(const Context& cx, std::vector<Finding>& out);
void find_ties(const Context& cx, std::vector<Finding>& out);
void find_stalemates(const Context& cx, std::vector<Finding>& out);
void find_ends_out_of_reach(const Context& cx, std::vector<Finding>& out);
void find_unreachable_wins(const Context& cx, std::vector<Finding>& out);
void find_rule_gaps(const Context& cx, std::vector<Finding>& out);
void find_dead_rules(const Context& cx, std::vector<Finding>& out);
void check_user_properties(const Context& cx, std::vector<Finding>& out);
// leads_to on a slice (state_groups.hpp: leads_to_findings).
void leads_to_on_slice(const Context& cx, const std::vector<std::uint64_t>& bits,
                       const std::vector<StateId>& bad, std::vector<Finding>& out);

// What makes two loops (response loops, turn loops) one finding: the class,
// the controlling player of an optional loop (each player's infinite combo
// is a finding of its own), and the rules used on the cycle.
struct LoopKey {
  LoopClass loop = LoopClass::none;
  int player = -1;
  std::set<std::string> rules;
  auto operator<=>(const LoopKey&) const =
      default;  // NOLINT(modernize-use-nullptr): clang-tidy 14 misreads <=>
};

// The places of each key counted over the whole graph, where the context
// is a slice given them (Context::known_counts); otherwise left as counted.
void known_places(const Context& cx, std::uint64_t analysis,
                  std::map<LoopKey, std::size_t>& places);

// The loops of an analysis, found one component at a time and kept one per
// key: the one a finding shows (the shortest lasso, then the earliest
// entry), with its component's members, and how many there were. (Keeping
// every loop until all were found cost 68 MiB at cosmere's 7.7 M states,
// 95 thousand loops of a dozen keys.) L has entry, cycle, key and members.
template <class L>
class LoopsByKey {
 public:
  explicit LoopsByKey(const Context& cx) : cx_(cx) {}
  void add(L loop, std::span<const StateId> members) {
    const std::uint64_t lasso = cx_.depth(loop.entry) + loop.cycle.size();
    auto [it, fresh] = kept_.try_emplace(loop.key);
    Kept& k = it->second;
    ++k.places;
    if (fresh || std::pair{lasso, loop.entry} < std::pair{k.lasso, k.loop.entry}) {
      loop.members.assign(members.begin(), members.end());
      k.loop = std::move(loop);
      k.lasso = lasso;
    }
  }
  // Per key, how many loops have it: in the whole graph when the context
  // is a slice that knows them (known_counts, keyed by `analysis`: 0
  // response loops, 1 turn loops, as LoopSummary::analysis).
  [[nodiscard]] std::map<LoopKey, std::size_t> places(std::uint64_t analysis) const {
    std::map<LoopKey, std::size_t> out;
    for (const auto& [key, k] : kept_) out.emplace(key, k.places);
    known_places(cx_, analysis, out);
    return out;
  }
  // The kept loops, shortest lassos first (then the earliest entry).
  [[nodiscard]] std::vector<L> shown() && {
    std::vector<std::pair<std::uint64_t, L>> order;
    for (auto& [key, k] : kept_) order.emplace_back(k.lasso, std::move(k.loop));
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second.entry < b.second.entry;
    });
    std::vector<L> out;
    for (auto& [lasso, loop] : order) out.push_back(std::move(loop));
    return out;
  }

 private:
  struct Kept {
    L loop;
    std::uint64_t lasso = 0;
    std::size_t places = 0;
  };
  const Context& cx_;
  std::map<LoopKey, Kept> kept_;
};

// The words of a LoopSummary (state_groups.hpp) and of LoopCounts' keys:
// a set of rules as its size, then per rule its length and its bytes, 8 a
// word; a key as [class, player, rules...]. (cycle_slice.cpp)
std::vector<std::uint64_t> rules_words(const std::set<std::string>& rules);
std::vector<std::uint64_t> key_words(const LoopKey& key);
// Per analysis, the summaries of the slice's components (loop_summaries).
void response_loop_summaries(const Context& cx, std::vector<LoopSummary>& out);
void turn_loop_summaries(const Context& cx, std::vector<LoopSummary>& out);
void stalemate_summaries(const Context& cx, std::vector<LoopSummary>& out);

// A loop that a card (or trigger) only joins, around a smaller loop the same
// player keeps going (or the same nobody), is that loop's consequence: sets
// out[i].cause for each shown (key, index into out) that has such a loop.
void link_joined_loops(const std::vector<std::pair<LoopKey, std::size_t>>& shown,
                       std::vector<Finding>& out);

// Not an analysis: run last, on the sorted findings of all of them
// (root_causes.cpp); `order` is the order they are sorted in.
void group_root_causes(const Context& cx, std::vector<Finding>& found,
                       const std::function<bool(const Finding&, const Finding&)>& order);
// What run_checks does with the findings of the analyses: sorts them
// (errors first, then location, rule, message), groups root causes, marks
// invented rules and lists the causes.
void finish_findings(const Context& cx, std::vector<Finding>& found);
// Then, once the messages are final: "it follows from ID" beneath each
// consequence, "it causes ID: message" beneath its cause.
void list_root_causes(std::vector<Finding>& found);

}  // namespace loophole::properties::detail
