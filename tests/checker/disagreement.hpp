// Where the compiled successor generator first disagrees with the reference
// semantics on one state: the successor lists (states, order, move fields),
// the written-fields bits of the flat path (every changed field marked), and
// the engine's packed path (each successor packed from the source's words).
// Shared by tests/checker/compiled_test.cpp, which walks every ruleset of
// the repository, and tests/fuzz/fuzz_engines.cpp, which walks generated ones.
#pragma once

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "loophole/checker/conditions.hpp"
#include "loophole/checker/semantics.hpp"

#include "explicit/compiled.hpp"
#include "explicit/packer.hpp"

namespace loophole::checker::testing {

// For sets of unpacked states (the walks' visited sets).
struct VecHash {
  std::size_t operator()(const StateVec& v) const {
    std::size_t h = 1469598103934665603ULL;
    for (const std::int32_t x : v) h = (h ^ static_cast<std::uint32_t>(x)) * 1099511628211ULL;
    return h;
  }
};

inline std::string show(const StateVec& s, const Layout& layout) {
  std::ostringstream o;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i > 0) o << ' ';
    o << layout.fields[i].name << '=' << s[i];
  }
  return o.str();
}

// Empty when the two successor lists agree, else what differs first.
inline std::string compare(const std::vector<Successor>& ref, const std::vector<Successor>& got,
                           const Layout& layout) {
  if (ref.size() != got.size()) {
    return std::to_string(got.size()) + " successors, reference " + std::to_string(ref.size());
  }
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const Successor& a = ref[i];
    const Successor& b = got[i];
    std::string what;
    if (a.state != b.state)
      what += " state (" + show(b.state, layout) + " vs " + show(a.state, layout) + ")";
    if (a.kind != b.kind) what += " kind";
    if (a.player != b.player) what += " player";
    if (a.ref != b.ref) what += " ref";
    if (a.chooser != b.chooser) what += " chooser";
    if (a.chooser_player != b.chooser_player) what += " chooser_player";
    if (a.progress != b.progress) what += " progress";
    if (!what.empty()) return "successor " + std::to_string(i) + " differs in" + what;
  }
  return {};
}

// The buffers of a walk (kept between states).
struct AgreementScratch {
  explicit AgreementScratch(const Semantics& sem)
      : packer(sem.layout()), base(packer.words()), want(packer.words()) {
    flat.fields = sem.layout().fields.size();
    packed.fields = flat.fields;
    packed.pack_with = &packer;
  }
  Packer packer;
  std::vector<Successor> ref, got;  // ref: the reference's successors of the last state
  FlatSuccessors flat, packed;
  std::vector<Word> base, want;
};

// Empty when the compiled system agrees with the reference on state s, else
// what differs first. Leaves the reference's successors in x.ref.
inline std::string disagreement(const Semantics& sem, const CompiledSystem& compiled,
                                const StateVec& s, AgreementScratch& x) {
  sem.successors(s, x.ref, false);
  compiled.successors(s, x.got);
  std::string diff = compare(x.ref, x.got, sem.layout());
  if (!diff.empty()) return diff;
  compiled.successors_flat(s.data(), x.flat);
  for (std::size_t i = 0; i < x.flat.count; ++i) {
    for (std::size_t f = 0; f < s.size(); ++f) {
      const bool marked = (x.flat.dirty_of(i)[f / 64] >> (f % 64) & 1) != 0;
      if (x.flat.state(i)[f] != s[f] && !marked) {
        return "successor " + std::to_string(i) + " changes " + sem.layout().fields[f].name +
               " without marking it written";
      }
    }
  }
  x.packer.pack(s, x.base.data());
  x.packed.pack_base = x.base.data();
  compiled.successors_flat(s.data(), x.packed);
  if (!x.packed.wrote_packed || x.packed.count != x.ref.size()) {
    return "the packed path gave " + std::to_string(x.packed.count) + " successors";
  }
  for (std::size_t i = 0; i < x.packed.count; ++i) {
    x.packer.pack(x.ref[i].state, x.want.data());
    if (!std::equal(x.want.begin(), x.want.end(),
                    x.packed.packed.begin() + static_cast<std::ptrdiff_t>(i * x.packer.words()))) {
      return "successor " + std::to_string(i) + " packs differently on the engine's path";
    }
  }
  return {};
}

// Every condition of a game that Conditions can be asked about: the
// properties' (and leads_to's `to`), and, for more of the language, the
// rules' guards, trigger conditions, step conditions and end conditions.
inline std::vector<const model::Expr*> all_conditions(const model::Game& g) {
  std::vector<const model::Expr*> out;
  for (const auto& p : g.properties) {
    out.push_back(p.expr.get());
    out.push_back(p.to.get());
  }
  for (const auto& a : g.actions) out.push_back(a.guard.get());
  for (const auto& t : g.triggers) out.push_back(t.condition.get());
  for (const auto& st : g.steps) {
    out.push_back(st.repeat_while.get());
    out.push_back(st.end_turn_if.get());
  }
  for (const auto& e : g.end_conditions) out.push_back(e.condition.get());
  return out;
}

// What a walk saw of the conditions: how many were asked, held, and how many
// actions were enabled (so that it can tell it saw both outcomes).
struct ConditionTally {
  std::uint64_t asked = 0, held = 0, enabled = 0;
};

// Empty when the compiled conditions give Semantics::holds in s (self: the
// active player) and Semantics::enabled_actions, else the first that does
// not.
inline std::string condition_disagreement(const Semantics& sem, const Conditions& c,
                                          const std::vector<const model::Expr*>& exprs,
                                          const StateVec& s, ConditionTally& tally) {
  for (std::size_t i = 0; i < exprs.size(); ++i) {
    const bool want = exprs[i] == nullptr || sem.holds(*exprs[i], s);
    const bool got = c.holds(i, s);
    tally.asked += exprs[i] != nullptr ? 1 : 0;
    tally.held += exprs[i] != nullptr && want ? 1 : 0;
    if (got != want) {
      return "condition '" + exprs[i]->text + "' holds " + (want ? "" : "not ") +
             "on the reference and " + (got ? "" : "not ") + "compiled";
    }
  }
  std::vector<int> want, got;
  sem.enabled_actions(s, want);
  c.enabled_actions(s, got);
  if (got != want) {
    const auto list = [](const std::vector<int>& v) {
      std::string t;
      for (const int a : v) t += (t.empty() ? "" : " ") + std::to_string(a);
      return "[" + t + "]";
    };
    return "enabled actions " + list(want) + " on the reference, " + list(got) + " compiled";
  }
  tally.enabled += want.size();
  return {};
}

}  // namespace loophole::checker::testing
