// The cycle analyses on a slice of a graph kept elsewhere (state_groups.hpp:
// cycle_findings): the same analyses as check_all runs, on a Context over
// the slice that is told the whole graph's reachability answers instead of
// computing them from the slice; and ends out of reach, told the whole
// graph's answers it reads (EndsReach).
#include <algorithm>
#include <memory>
#include <set>

#include "loophole/checker/conditions.hpp"
#include "loophole/properties/state_groups.hpp"

#include "analyses.hpp"

namespace loophole::properties {

namespace detail {

std::vector<std::uint64_t> rules_words(const std::set<std::string>& rules) {
  std::vector<std::uint64_t> w = {rules.size()};
  for (const std::string& r : rules) {
    w.push_back(r.size());
    for (std::size_t i = 0; i < r.size(); i += 8) {
      std::uint64_t word = 0;
      for (std::size_t j = 0; j < 8 && i + j < r.size(); ++j) {
        word |= static_cast<std::uint64_t>(static_cast<unsigned char>(r[i + j])) << (8 * j);
      }
      w.push_back(word);
    }
  }
  return w;
}

std::vector<std::uint64_t> key_words(const LoopKey& key) {
  std::vector<std::uint64_t> w = {
      static_cast<std::uint64_t>(key.loop),
      static_cast<std::uint64_t>(static_cast<std::int64_t>(key.player))};
  const auto rules = rules_words(key.rules);
  w.insert(w.end(), rules.begin(), rules.end());
  return w;
}

void known_places(const Context& cx, std::uint64_t analysis,
                  std::map<LoopKey, std::size_t>& places) {
  if (cx.known_counts == nullptr) return;
  for (auto& [key, n] : places) {
    std::vector<std::uint64_t> at = {analysis};
    const auto words = key_words(key);
    at.insert(at.end(), words.begin(), words.end());
    const auto it = cx.known_counts->places.find(at);
    if (it != cx.known_counts->places.end()) n = it->second;
  }
}

}  // namespace detail

std::vector<LoopSummary> loop_summaries(const checker::ExploredGraph& slice,
                                        std::vector<bool> can_finish,
                                        const std::vector<std::uint8_t>& designated) {
  const CheckSelection selection;
  detail::Context cx(slice, selection);
  cx.assume_can_finish(std::move(can_finish));
  cx.designated = &designated;
  std::vector<LoopSummary> out;
  detail::response_loop_summaries(cx, out);
  detail::turn_loop_summaries(cx, out);
  detail::stalemate_summaries(cx, out);
  return out;
}

// As the analyses decide over their loops (response_loops.cpp,
// turn_loops.cpp, stalemate.cpp), over every component's summary: sorted by
// the lasso's length, then the entry's number; one finding per key (response
// loops: none for a class folded into a stronger loop of the same rules);
// the first max_stalemates stalemates.
LoopCounts loop_counts(const std::vector<LoopSummary>& all, std::size_t max_stalemates,
                       std::vector<std::size_t>* chosen) {
  LoopCounts counts;
  std::vector<std::size_t> order(all.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const LoopSummary& x = all[a];
    const LoopSummary& y = all[b];
    if (x.analysis != y.analysis) return x.analysis < y.analysis;
    if (x.words[0] != y.words[0]) return x.words[0] < y.words[0];
    return x.order < y.order;
  });
  const auto key_of = [&](std::size_t i) {  // [analysis, class, player, rules...]
    std::vector<std::uint64_t> k = {all[i].analysis};
    k.insert(k.end(), all[i].words.begin() + 1, all[i].words.end());
    return k;
  };
  const auto rules_of = [&](std::size_t i) {
    return std::vector<std::uint64_t>(all[i].words.begin() + 3, all[i].words.end());
  };
  const auto strong = [](std::uint64_t c) {
    return c == static_cast<std::uint64_t>(LoopClass::mandatory) ||
           c == static_cast<std::uint64_t>(LoopClass::optional_one);
  };
  std::set<std::vector<std::uint64_t>> strong_rules;
  for (const std::size_t i : order) {
    if (all[i].analysis == 2) {
      ++counts.stalemates;
      continue;
    }
    ++counts.places[key_of(i)];
    if (all[i].analysis == 0 && strong(all[i].words[1])) strong_rules.insert(rules_of(i));
  }
  std::map<std::vector<std::uint64_t>, std::set<int>> folded;
  for (const std::size_t i : order) {
    if (all[i].analysis == 0 && !strong(all[i].words[1]) && strong_rules.contains(rules_of(i))) {
      folded[rules_of(i)].insert(static_cast<int>(all[i].words[1]));
    }
  }
  for (const auto& [rules, classes] : folded) {
    counts.folded[rules].assign(classes.begin(), classes.end());
  }
  if (chosen == nullptr) return counts;
  std::set<std::vector<std::uint64_t>> reported;
  std::size_t stalemates = 0;
  for (const std::size_t i : order) {
    if (all[i].analysis == 2) {
      if (stalemates++ < max_stalemates) chosen->push_back(i);
      continue;
    }
    if (all[i].analysis == 0) {
      const auto it = folded.find(rules_of(i));
      if (it != folded.end() && it->second.contains(static_cast<int>(all[i].words[1]))) continue;
    }
    if (reported.insert(key_of(i)).second) chosen->push_back(i);
  }
  return counts;
}

std::vector<Finding> cycle_findings(const checker::ExploredGraph& slice,
                                    std::vector<bool> can_finish,
                                    std::vector<std::vector<bool>> doomed,
                                    std::map<int, std::uint64_t> overflows,
                                    std::size_t max_stalemates, const EndsReach* ends,
                                    std::vector<Finding> gaps, const LoopCounts* counts,
                                    const std::vector<std::uint8_t>* designated) {
  CheckSelection selection;
  selection.max_stalemates = max_stalemates;
  detail::Context cx(slice, selection);
  cx.assume_can_finish(std::move(can_finish));
  cx.known_doomed = std::move(doomed);
  cx.known_overflows = std::move(overflows);
  cx.known_counts = counts;
  cx.designated = designated;
  cx.known_ends = ends;
  std::vector<Finding> found = std::move(gaps);
  detail::find_response_loops(cx, found);  // and the unbounded chains
  detail::find_turn_loops(cx, found);
  detail::find_stalemates(cx, found);
  if (ends != nullptr) detail::find_ends_out_of_reach(cx, found);
  detail::finish_findings(cx, found);
  return found;
}

std::vector<Finding> leads_to_findings(const checker::ExploredGraph& slice,
                                       const std::vector<std::uint64_t>& bits,
                                       const std::vector<checker::StateId>& bad) {
  // (The context keeps a reference to the selection: a named one.)
  const CheckSelection selection = CheckSelection::only(Kind::property_violation);
  detail::Context cx(slice, selection);
  std::vector<Finding> found;
  detail::leads_to_on_slice(cx, bits, bad, found);
  return found;
}

std::function<std::uint64_t(const checker::StateVec&)> leads_to_marks(
    const checker::Semantics& sem) {
  const model::Game& game = sem.game();
  std::vector<const model::Expr*> exprs;
  std::vector<const model::Property*> props;
  for (const model::Property& p : game.properties) {
    if (p.kind != model::Property::Kind::leads_to) continue;
    props.push_back(&p);
    exprs.push_back(p.expr.get());
    exprs.push_back(p.to.get());
  }
  auto conditions = std::make_shared<const checker::Conditions>(sem, std::move(exprs));
  const int step = sem.layout().step;
  return [conditions, props, step, &game](const checker::StateVec& s) {
    std::uint64_t bits = 0;
    for (std::size_t k = 0; k < props.size() && k < 32; ++k) {
      const model::Property& p = *props[k];
      if (p.expr && property_applies(game, p, s[static_cast<std::size_t>(step)]) &&
          conditions->holds(2 * k, s)) {
        bits |= std::uint64_t{1} << (2 * k);
      }
      if (p.to && conditions->holds(2 * k + 1, s)) bits |= std::uint64_t{1} << (2 * k + 1);
    }
    return bits;
  };
}

}  // namespace loophole::properties
