// A test double of checker::ExploredGraph: a plain breadth-first search over
// the reference semantics with a std::map of states, written for clarity and
// not speed, that can stop expanding at a given depth (as an engine that hit
// a limit would). Properties are checked on it and on the explicit engine's
// graph, and must agree; its truncated graphs test the `unknown` answers.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <vector>

#include "loophole/checker/explored.hpp"
#include "loophole/checker/semantics.hpp"

namespace loophole::properties::testing {

class TestGraph final : public checker::ExploredGraph {
 public:
  explicit TestGraph(const checker::Semantics& sem,
                     std::uint32_t max_depth = std::numeric_limits<std::uint32_t>::max())
      : sem_(sem) {
    std::map<checker::StateVec, checker::StateId> ids;
    const auto add = [&](const checker::StateVec& s, checker::StateId parent, std::uint32_t index,
                         std::uint32_t depth) {
      const auto [it, fresh] = ids.try_emplace(s, static_cast<checker::StateId>(states_.size()));
      if (fresh) {
        states_.push_back(s);
        parents_.push_back(parent);
        indices_.push_back(index);
        depths_.push_back(depth);
        edges_.emplace_back();
      }
      return it->second;
    };
    for (const auto& s : sem.initial_states()) add(s, checker::no_state, 0, 0);
    initial_ = static_cast<std::uint32_t>(states_.size());
    std::vector<checker::Successor> out;
    for (checker::StateId v = 0; v < states_.size(); ++v) {
      const checker::StateVec s = states_[v];
      sem.successors(s, out);
      if (out.empty()) continue;
      if (depths_[v] >= max_depth) {
        if (completion_ == checker::Completion::complete) expanded_ = v;
        completion_ = checker::Completion::state_limit;
        continue;
      }
      std::vector<checker::Edge> edges;
      for (std::uint32_t i = 0; i < out.size(); ++i) {
        checker::Edge e;
        e.to = add(out[i].state, v, i, depths_[v] + 1);
        e.index = i;
        e.progress = out[i].progress;
        e.chooser = out[i].chooser;
        e.chooser_player = static_cast<std::int8_t>(out[i].chooser_player);
        e.kind = out[i].kind;
        edges.push_back(e);
      }
      edges_[v] = std::move(edges);
      stats_.transitions += out.size();
    }
    stats_.states = states_.size();
    if (completion_ == checker::Completion::complete) expanded_ = states_.size();
  }

  // Removes every move of `v` (to plant a deadlock in a real graph).
  void drop_edges(checker::StateId v) {
    stats_.transitions -= edges_[v].size();
    edges_[v].clear();
  }

  [[nodiscard]] const checker::Semantics& semantics() const override { return sem_; }
  [[nodiscard]] std::uint64_t size() const override { return states_.size(); }
  [[nodiscard]] std::uint32_t initial_count() const override { return initial_; }
  [[nodiscard]] checker::StateVec state(checker::StateId id) const override { return states_[id]; }
  [[nodiscard]] std::vector<checker::Edge> edges(checker::StateId id) const override {
    return edges_[id];
  }
  [[nodiscard]] std::uint64_t expanded() const override { return expanded_; }
  [[nodiscard]] checker::StateId parent(checker::StateId id) const override { return parents_[id]; }
  [[nodiscard]] std::uint32_t parent_index(checker::StateId id) const override {
    return indices_[id];
  }
  [[nodiscard]] std::uint32_t depth(checker::StateId id) const override { return depths_[id]; }
  [[nodiscard]] checker::Completion completion() const override { return completion_; }
  [[nodiscard]] const checker::Statistics& statistics() const override { return stats_; }

 private:
  const checker::Semantics& sem_;
  std::vector<checker::StateVec> states_;
  std::vector<checker::StateId> parents_;
  std::vector<std::uint32_t> indices_, depths_;
  std::vector<std::vector<checker::Edge>> edges_;
  std::uint32_t initial_ = 0;
  std::uint64_t expanded_ = 0;
  checker::Completion completion_ = checker::Completion::complete;
  checker::Statistics stats_;
};

}  // namespace loophole::properties::testing
