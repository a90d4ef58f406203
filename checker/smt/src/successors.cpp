// One concrete state's successors under the encoded relation (successors.hpp).
#include "successors.hpp"

#include <algorithm>
#include <unordered_map>

namespace loophole::smt::detail {

Successors::Successors(Encoding& en)
    : en_(en), built_(en.paths.size(), false), x_(en.ctx), small_(en.ctx) {
  for (const auto& v : en_.x) x_.push_back(v);
  for (std::size_t i = 0; i < en_.x.size(); ++i) x_index_[en_.x[i].id()] = i;
  disjuncts_.resize(en_.paths.size(), en_.ctx.bool_val(false));
  conjuncts_.resize(en_.paths.size());
  small_.add(en_.in_range(en_.y));
}

const std::vector<z3::expr>& Successors::conjuncts(std::uint32_t p) {
  auto& out = conjuncts_[p];
  if (out.empty()) {
    const z3::expr& pc = en_.paths[p].pc;
    if (pc.is_app() && pc.decl().decl_kind() == Z3_OP_AND) {
      for (unsigned a = 0; a < pc.num_args(); ++a) out.push_back(pc.arg(a));
    } else {
      out.push_back(pc);
    }
  }
  return out;
}

bool Successors::in_range(const checker::StateVec& s) const {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto& f = en_.low.layout.fields[i];
    if (s[i] < f.lo || s[i] > f.hi) return false;
  }
  return true;
}

z3::expr_vector Successors::values(const checker::StateVec& s) {
  z3::expr_vector to(en_.ctx);
  for (const std::int32_t v : s) to.push_back(en_.ctx.int_val(v));
  return to;
}

std::optional<bool> Successors::holds(const z3::expr& pred, const checker::StateVec& s) {
  z3::expr p = pred;
  const z3::expr e = p.substitute(x_, values(s)).simplify();
  if (e.is_true()) return true;
  if (e.is_false()) return false;
  // Not folded to a constant (an integer division by zero is any value):
  // the solver decides, as BMC's query would.
  small_.push();
  small_.add(e);
  const z3::check_result r = en_.control.check(small_);
  small_.pop();
  if (r == z3::unknown) return std::nullopt;
  return r == z3::sat;
}

bool Successors::of(const checker::StateVec& s, const std::vector<std::uint32_t>& paths,
                    std::vector<checker::StateVec>& out, std::size_t limit) {
  out.clear();
  const z3::expr_vector to = values(s);
  z3::expr_vector residual(en_.ctx);
  // Per state, by Z3 id: a term with x replaced by s's values, simplified.
  // Paths share most of their conditions' conjuncts and next values, so
  // each is simplified once a state.
  std::unordered_map<unsigned, z3::expr> memo;
  auto value = [&](const z3::expr& e) -> const z3::expr& {
    auto it = memo.find(e.id());
    if (it == memo.end()) {
      z3::expr copy = e;
      it = memo.emplace(e.id(), copy.substitute(x_, to).simplify()).first;
    }
    return it->second;
  };
  for (const std::uint32_t p : paths) {
    bool possible = true, decided = true;
    for (const z3::expr& c : conjuncts(p)) {
      const z3::expr& v = value(c);
      if (v.is_false()) {
        possible = false;
        break;
      }
      if (!v.is_true()) decided = false;
    }
    if (!possible) continue;
    // The next state: constants when the condition is decided and every
    // next value folds to one (a copy of a field, most of them).
    const Path& path = en_.paths[p];
    checker::StateVec t(en_.y.size());
    for (std::size_t i = 0; i < t.size() && decided; ++i) {
      const z3::expr& n = path.next[i];
      std::int64_t v = 0;
      if (n.is_numeral_i64(v)) {
        t[i] = static_cast<std::int32_t>(v);
      } else if (const auto at = x_index_.find(n.id()); at != x_index_.end()) {
        t[i] = s[at->second];
      } else if (value(n).is_numeral_i64(v)) {
        t[i] = static_cast<std::int32_t>(v);
      } else {
        decided = false;
      }
    }
    if (decided) {
      if (in_range(t)) out.push_back(std::move(t));
      continue;
    }
    // Else the solver enumerates the choices' outcomes.
    if (!built_[p]) {
      z3::expr_vector ands(en_.ctx);
      ands.push_back(path.pc);
      for (std::size_t i = 0; i < en_.y.size(); ++i) ands.push_back(en_.y[i] == path.next[i]);
      disjuncts_[p] = z3::mk_and(ands);
      built_[p] = true;
    }
    residual.push_back(value(disjuncts_[p]));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (residual.empty()) return true;
  small_.push();
  small_.add(z3::mk_or(residual));
  auto block = [&](const checker::StateVec& t) {
    z3::expr_vector same(en_.ctx);
    for (std::size_t i = 0; i < t.size(); ++i) same.push_back(en_.y[i] == t[i]);
    small_.add(!z3::mk_and(same));
  };
  for (const auto& t : out) block(t);
  while (out.size() <= limit) {
    const z3::check_result r = en_.control.check(small_);
    if (r == z3::unsat) break;
    if (r != z3::sat) {
      small_.pop();
      return false;
    }
    checker::StateVec t = decode_state(small_.get_model(), en_.y);
    block(t);
    out.push_back(std::move(t));
  }
  small_.pop();
  return true;
}

}  // namespace loophole::smt::detail
