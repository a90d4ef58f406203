// Symbolic scope: which values of one param make a finding appear. The scope
// is finite (the param's declared min..max), so each value is loaded and
// checked by BMC in turn, smallest first; the answer groups the values per
// finding and says it the way a designer would ("deadlock appears when
// deck <= 2").
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "loophole/smt/engine.hpp"

namespace loophole::smt {

std::string summarise_values(const std::string& param, const std::vector<std::int64_t>& values,
                             std::int64_t lo, std::int64_t hi) {
  if (values.empty()) return "never";
  const bool contiguous =
      values.back() - values.front() + 1 == static_cast<std::int64_t>(values.size());
  if (contiguous) {
    if (values.front() == lo && values.back() == hi)
      return fmt::format("for every {} in {}..{}", param, lo, hi);  // "appears for every ..."
    if (values.size() == 1) return fmt::format("{} == {}", param, values.front());
    if (values.front() == lo) return fmt::format("{} <= {}", param, values.back());
    if (values.back() == hi) return fmt::format("{} >= {}", param, values.front());
    return fmt::format("{} in {}..{}", param, values.front(), values.back());
  }
  std::string list;
  for (auto v : values) list += (list.empty() ? "" : ", ") + std::to_string(v);
  return fmt::format("{} in {{{}}}", param, list);
}

ScopeResult symbolic_scope(const std::string& param, std::int64_t lo, std::int64_t hi,
                           const std::function<const model::Game*(std::int64_t)>& load,
                           const Options& options, const Questions& selection) {
  ScopeResult out;
  using Key = std::pair<checker::Kind, std::string>;
  std::map<Key, ScopeAnswer> answers;
  std::map<Key, ScopeAnswer> open;
  auto note = [](ScopeAnswer& a, const checker::Finding& f, std::int64_t v) {
    if (a.values.empty()) {
      a.kind = f.kind;
      a.rule = f.rule;
      a.message = f.message;
      a.first = f;
      a.first_value = v;
    }
    if (a.values.empty() || a.values.back() != v) a.values.push_back(v);
  };
  for (std::int64_t v = lo; v <= hi; ++v) {
    const model::Game* game = load(v);
    if (game == nullptr) continue;
    const checker::Semantics sem(*game);
    Engine engine(sem, options);
    if (engine.unsupported()) {
      out.unsupported = engine.unsupported();
      return out;
    }
    out.checked.push_back(v);
    const Result r = engine.check(options, selection);
    out.depth = std::max(out.depth, r.statistics.depth);
    bool settled = r.statistics.stopped == Stop::none;
    for (const auto& f : r.findings) {
      if (f.verdict == checker::Verdict::violated) note(answers[{f.kind, f.rule}], f, v);
      if (f.verdict == checker::Verdict::unknown) {
        note(open[{f.kind, f.rule}], f, v);
        settled = false;
      }
    }
    if (!settled) out.unsettled.push_back(v);
    const auto& st = r.statistics;
    out.values.push_back(
        ScopeValue{v, settled, st.complete, st.layer_states, st.depth, st.seconds, r.settled});
    if (engine.stopped() != Stop::none) {
      out.stopped = engine.stopped();
      break;
    }
  }
  const std::int64_t first = out.checked.empty() ? lo : out.checked.front();
  const std::int64_t last = out.checked.empty() ? hi : out.checked.back();
  auto collect = [&](std::map<Key, ScopeAnswer>& from, std::vector<ScopeAnswer>& to) {
    for (auto& [key, a] : from) {
      a.summary = summarise_values(param, a.values, first, last);
      to.push_back(std::move(a));
    }
    std::stable_sort(to.begin(), to.end(), [](const ScopeAnswer& a, const ScopeAnswer& b) {
      return a.values.front() < b.values.front();
    });
  };
  collect(answers, out.answers);
  collect(open, out.open);
  // Where some value stayed unsettled, "deck <= 2" is only what the search
  // saw: a deeper problem may appear at other values too.
  if (!out.unsettled.empty()) {
    for (auto& a : out.answers) a.summary += fmt::format(" within depth {}", out.depth);
  }
  return out;
}

}  // namespace loophole::smt
