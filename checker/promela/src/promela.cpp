// The Promela generator. It compiles the Game the way the reference semantics
// runs it (checker/src/semantics): every move becomes one `atomic` alternative
// of a single `do` loop, specialised on everything the semantics decides from
// the state (step, holder, acting player, pending trigger, stack top), so that
// `self`, bound variables and quantifier domains are constants in the text.
// Choices inside effects (choose, pick, draw, move) are nondeterministic
// `if`/`do` inside the atomic step; rule gaps restore the state saved at the
// start of the move (hidden copies) and set ctl.over = 2 and ctl.gap, exactly
// as Run::gap does. Expressions are emitted twice: their value (failures give
// 0, as Evaluator does) and their first failure's gap code, in evaluation
// order with the same short-circuits.
#include "loophole/promela/promela.hpp"

#include <algorithm>
#include <cstdint>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "generator.hpp"

namespace loophole::promela {
namespace detail {

// ---------------------------------------------------------------------------
// The model

// What a move may write, saved at its start with plain assignments (pan
// undoes those when it backtracks into the move, unlike d_step copies) and
// restored when the move ends in a rule gap. Only moves that can reach their
// gap label save anything.
std::pair<std::string, std::string> Generator::save_restore(const std::string& body) const {
  const std::string l = "goto lh_gap_" + std::to_string(label_);
  if (body.find(l) == std::string::npos) return {"", ""};
  static const std::regex assignment(R"(\b(s[0-9]+_[A-Za-z0-9_]*) = )");
  std::set<int> written;
  for (auto it = std::sregex_iterator(body.begin(), body.end(), assignment);
       it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1].str();
    written.insert(std::stoi(name.substr(1, name.find('_') - 1)));
  }
  std::string save, restore;
  for (int i : written) {
    save += "lh_" + names_[i] + " = " + names_[i] + "; ";
    restore += (restore.empty() ? "" : "; ") + names_[i] + " = lh_" + names_[i];
  }
  if (!save.empty()) save += "\n";
  if (!restore.empty()) restore = "d_step { " + restore + " };\n";
  return {save, restore};
}

void Generator::move(const std::string& guard, const std::string& body) {
  const std::string l = std::to_string(label_);
  const auto [save, restore] = save_restore(body);
  moves_ += ":: atomic { " + guard + " ->\nlh_prog = 0;\n" + save + body + "goto lh_done_" + l +
            ";\nlh_gap_" + l + ": lh_g = lh_g;\n" + restore;
  if (p_.ctl.over >= 0) moves_ += f(p_.ctl.over) + " = 2;\n";
  if (p_.ctl.gap >= 0) moves_ += f(p_.ctl.gap) + " = lh_g;\n";
  moves_ += "lh_prog = 0;\nlh_done_" + l + ": LH_CHECK; LH_DISPATCH }\n";
  ++move_count_;
  ++label_;
}

std::string Generator::properties() const {
  std::vector<std::string> checks;
  if (p_.ctl.gap >= 0 || !p_.gap_sites.empty()) checks.push_back(f(p_.ctl.over) + " != 2");
  for (std::size_t i = 0; i < g_.properties.size(); ++i) {
    const auto& prop = g_.properties[i];
    const int prop_expr = p_.rules.property_expr[i];
    if (prop.kind != model::Property::Kind::always && prop.kind != model::Property::Kind::never) {
      continue;
    }
    std::string where;
    for (std::size_t k = 0; k < g_.steps.size(); ++k) {
      const bool in = std::find(prop.at_steps.begin(), prop.at_steps.end(), static_cast<int>(k)) !=
                          prop.at_steps.end() ||
                      std::find(prop.at_phases.begin(), prop.at_phases.end(), g_.steps[k].phase) !=
                          prop.at_phases.end();
      if (in) where += (where.empty() ? "" : " || ") + f(p_.ctl.step) + " == " + std::to_string(k);
    }
    const bool restricted = !prop.at_steps.empty() || !prop.at_phases.empty();
    // `self` in a property is the active player.
    std::string holds = "0";
    for (int a = n_ - 1; a >= 0; --a) {
      Ctx c;
      c.self = a;
      const std::string h = "((" + gap(prop_expr, c) + ") == 0 && (" + val(prop_expr, c) + "))";
      holds = a == n_ - 1 ? h : cond(active() + " == " + std::to_string(a), h, holds);
    }
    std::string ok = prop.kind == model::Property::Kind::always ? holds : "!(" + holds + ")";
    if (restricted) ok = "!(" + (where.empty() ? "0" : where) + ") || " + ok;
    checks.push_back(ok);
  }
  std::string out;
  for (const auto& c : checks) out += (out.empty() ? "" : "; ") + std::string("assert(") + c + ")";
  return out.empty() ? "skip" : out;
}

std::string Generator::declarations() const {
  std::ostringstream o;
  const auto& fields = p_.layout.fields;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const auto& fl = fields[i];
    const char* type =
        fl.lo >= 0 && fl.hi <= 200 ? "byte" : (fl.lo >= -30000 && fl.hi <= 30000 ? "short" : "int");
    std::int32_t init = 0;
    if (i < g_.slots.size()) init = g_.slots[i].init;
    if (static_cast<int>(i) == p_.ctl.turn) init = 1;
    o << type << " " << names_[i] << " = " << init << ";\t/* " << comment_text(fl.name) << " "
      << fl.lo << ".." << fl.hi << " */\n";
  }
  o << "\n/* Scratch values of one move: not part of the state vector. */\n";
  o << "hidden int lh_g, lh_v, lh_n, lh_r, lh_c, lh_h, lh_x;\nhidden byte lh_prog;\n";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const auto& fl = fields[i];
    const char* type =
        fl.lo >= 0 && fl.hi <= 200 ? "byte" : (fl.lo >= -30000 && fl.hi <= 30000 ? "short" : "int");
    o << "hidden " << type << " lh_" << names_[i] << ";\n";
  }
  return o.str();
}

std::string Generator::run() {
  require_int32();
  const auto& ctl = p_.ctl;
  const std::string n = std::to_string(n_);
  const std::string pending = any_pending();
  const std::string idle = pending == "0" ? "" : "!" + pending + " && ";

  // Setup (label 0): the initial states.
  std::string setup;
  {
    Ctx c;
    c.self = 0;
    stmt(setup, p_.rules.setup, c);
    emit(setup);
  }
  const std::string l0 = std::to_string(label_);
  const auto [save0, restore0] = save_restore(setup);
  std::string init = "atomic {\nlh_prog = 0;\n" + save0 + setup + "goto lh_done_" + l0 +
                     ";\nlh_gap_" + l0 + ": lh_g = lh_g;\n" + restore0;
  if (ctl.over >= 0) init += f(ctl.over) + " = 2;\n";
  if (ctl.gap >= 0) init += f(ctl.gap) + " = lh_g;\n";
  init += "lh_done_" + l0 + ": LH_CHECK;\nif :: " + f(ctl.over) +
          " != 0 -> goto end_over :: else -> skip fi }\n";
  ++label_;

  // Pending triggers: the first player from the active one who has one moves.
  for (std::size_t t = 0; t < g_.triggers.size(); ++t) {
    const int base = ctl.pending[t];
    if (base < 0) continue;
    for (int q = 0; q < n_; ++q) {
      std::string first;
      for (int a = 0; a < n_; ++a) {
        std::string before = active() + " == " + std::to_string(a);
        for (int j = a; j != q; j = (j + 1) % n_) before += " && " + no_pending_for(j);
        first += (first.empty() ? "" : " || ") + std::string("(") + before + ")";
      }
      const std::string guard =
          f(p_.ctl.over) + " == 0 && " + f(base + q) + " == 1 && (" + first + ")";
      // The arguments its event fired with (`on: damaged(p, n)`): one move
      // per combination of the values kept, each its effect's locals 0..k-1.
      const int kept = ctl.pending_args[t];
      const int k = kept < 0 ? 0 : static_cast<int>(g_.triggers[t].params.size());
      const auto& args = g_.events[static_cast<std::size_t>(g_.triggers[t].event)].args;
      Ctx c;
      c.self = q;
      const auto each = [&](const auto& self, int j, const std::string& with) -> void {
        if (j < k) {
          const auto& a = args[static_cast<std::size_t>(j)];
          for (std::int64_t v = a.lo; v <= a.hi; ++v) {
            c.binders[j] = v;
            self(self, j + 1, with + " && " + f(kept + q * k + j) + " == " + num(v));
          }
          return;
        }
        for (int decline = 0; decline <= (g_.triggers[t].optional ? 1 : 0); ++decline) {
          std::string body;
          set(body, base + q, "0");
          for (int i = 0; i < k; ++i) set(body, kept + q * k + i, "0");
          if (decline == 0) stmt(body, p_.rules.trigger_effect[t], c);
          emit(body);
          move(guard + with, body);
        }
      };
      each(each, 0, "");
    }
  }
  const std::string running = f(ctl.over) + " == 0 && " + idle;
  // start
  {
    std::string body;
    enter(body, 0, false, true, 0);
    move(running + f(ctl.stage) + " == 0", body);
  }
  for (std::size_t k = 0; k < g_.steps.size(); ++k) {
    const int step = static_cast<int>(k);
    const std::string at =
        running + f(ctl.step) + " == " + std::to_string(k) + " && " + f(ctl.stage);
    {  // effects
      std::string body;
      step_do(body, step);
      move(at + " == 1", body);
    }
    {  // advance
      std::string body;
      advance(body, step);
      move(at + " == 3", body);
    }
    if (ctl.target >= 0) {  // enter, after end triggers resolved
      std::vector<std::pair<int, bool>> targets;
      if (p_.rules.step_repeat[k] >= 0) targets.emplace_back(step, false);
      if (p_.rules.step_end_turn[k] >= 0 || step + 1 == static_cast<int>(g_.steps.size())) {
        targets.emplace_back(0, true);
      }
      if (step + 1 < static_cast<int>(g_.steps.size())) targets.emplace_back(step + 1, false);
      for (const auto& [target, nt] : targets) {
        std::string body;
        set(body, ctl.target, "0");
        set(body, ctl.new_turn, "0");
        enter(body, target, nt, false, step);
        move(at + " == 4 && " + f(ctl.target) + " == " + std::to_string(target) + " && " +
                 f(ctl.new_turn) + " == " + (nt ? "1" : "0"),
             body);
      }
    }
  }
  // Windows: per window opened by some step, per holder.
  for (std::size_t w = 0; w < g_.windows.size(); ++w) {
    if (!p_.window_used[w]) continue;
    const int win = static_cast<int>(w);
    const auto& wd = g_.windows[w];
    for (int h = 0; h < n_; ++h) {
      const std::string at = running + f(ctl.stage) + " == 2 && " + steps_with_window(win) +
                             " && " + f(ctl.holder) + " == " + std::to_string(h);
      std::string any_action;
      for (int a : p_.window_actions[w]) {
        const std::string pre = enabled_pre(a, h, win);
        if (pre == "0") continue;
        Ctx c;
        c.self = h;
        const int guard = p_.rules.action_guard[a];
        const std::string gg = test_gap(guard, c);
        std::string body;
        gap_check(body, gg);
        take_action(body, win, a, h);
        std::string guard_text = pre;
        if (gg == "0") {
          guard_text += " && (" + test_val(guard, c) + ")";
        } else {
          guard_text += " && ((" + gg + ") != 0 || (" + test_val(guard, c) + "))";
        }
        move(at + " && " + guard_text, body);
        const std::string en = enabled(a, h, win);
        if (en != "0") any_action += (any_action.empty() ? "" : " || ") + en;
      }
      switch (wd.protocol) {
        case Protocol::priority: {
          if (!wd.may_pass) break;
          std::string body;
          std::string close;
          close_window(close);
          body += "if\n:: " + f(ctl.passes) + " + 1 < " + n + " -> " + f(ctl.holder) + " = " +
                  next_of(std::to_string(h)) + "; " + f(ctl.passes) + " = " + f(ctl.passes) +
                  " + 1\n:: else ->\n" + close + "fi;\n";
          emit(body);
          std::string not_resolve =
              "!(" + f(ctl.passes) + " + 1 == " + n + " && " + f(ctl.stack_size) + " > 0)";
          move(at + " && " + not_resolve, body);
          break;
        }
        case Protocol::alternate: {
          if (wd.must_act) break;  // no pass: act or be stuck
          std::string body;
          body += per_order([&](std::string& o) { handover(o, win, h); });
          emit(body);
          std::string guard = at;
          if (!wd.may_pass) guard += " && !(" + (any_action.empty() ? "0" : any_action) + ")";
          move(guard, body);
          break;
        }
        case Protocol::sequence: {
          const int k = static_cast<int>(wd.order.size());
          for (int seat = 0; seat < std::max(1, k); ++seat) {
            for (int acted = 0; acted <= (ctl.acted >= 0 ? 1 : 0); ++acted) {
              if (wd.must_act && acted == 0) continue;  // a seat passes only after acting
              std::size_t next = static_cast<std::size_t>(seat) + 1;
              bool answered = acted != 0;
              while (next < wd.order.size() && wd.order[next] == SequenceTurn::active_if_answered &&
                     !answered) {
                ++next;
                answered = false;
              }
              std::string body;
              if (next >= wd.order.size()) {
                close_window(body);
              } else {
                set(body, ctl.seat, std::to_string(next));
                set(body, ctl.acted, "0");
                set(body, ctl.holder,
                    wd.order[next] == SequenceTurn::opponent ? next_of(active()) : active());
              }
              emit(body);
              std::string guard = at + " && " + f(ctl.seat) + " == " + std::to_string(seat);
              if (ctl.acted >= 0) guard += " && " + f(ctl.acted) + " == " + std::to_string(acted);
              move(guard, body);
            }
          }
          break;
        }
      }
    }
  }
  // Resolving the top of the stack: per action and controller.
  if (ctl.stack_size >= 0) {
    std::string prio_steps;
    for (std::size_t k = 0; k < g_.steps.size(); ++k) {
      const int w = g_.steps[k].window;
      if (w < 0 || g_.windows[w].protocol != Protocol::priority || !g_.windows[w].may_pass)
        continue;
      prio_steps += (prio_steps.empty() ? "" : " || ") + f(ctl.step) + " == " + std::to_string(k);
    }
    if (!prio_steps.empty()) {
      for (std::size_t a = 0; a < g_.actions.size(); ++a) {
        for (int q = 0; q < n_; ++q) {
          std::string body = "if\n";
          for (int i = 1; i <= ctl.stack_capacity; ++i) {
            body += ":: " + f(ctl.stack_size) + " == " + std::to_string(i) + " -> " +
                    stack_entry(i - 1, 0) + " = 0; " + stack_entry(i - 1, 1) + " = 0\n";
          }
          body += "fi;\n";
          set(body, ctl.stack_size, f(ctl.stack_size) + " - 1");
          Ctx c;
          c.self = q;
          stmt(body, p_.rules.action_effect[a], c);
          set(body, ctl.holder, active());
          set(body, ctl.passes, "0");
          emit(body);
          move(running + f(ctl.stage) + " == 2 && (" + prio_steps + ") && " + f(ctl.passes) +
                   " + 1 == " + n + " && " + f(ctl.stack_size) + " > 0 && " + top(0) +
                   " == " + std::to_string(a) + " && " + top(1) + " == " + std::to_string(q),
               body);
        }
      }
    }
  }

  std::ostringstream o;
  o << "/* Promela export of '" << comment_text(g_.name) << "' (" << comment_text(source_)
    << ") by loophole export.\n"
    << " * " << n_ << " players, scope turns = " << g_.scope.turns << ", stack = " << g_.scope.stack
    << ".\n"
    << " * The state vector is loophole's layout, one global per field in layout order\n"
    << " * (docs/semantics.md); each loophole move is one atomic step of process game.\n"
    << " * pan's \"states, stored\" = loophole's states + 1 (the state before setup).\n"
    << " * Compile with -DLH_PROGRESS (spin -DLH_PROGRESS -a) for pan -l: a move that\n"
    << " * enters a step then passes through the progress state progress_lh, so a\n"
    << " * non-progress cycle is a response loop. See docs/promela.md. */\n\n";
  o << declarations();
  o << "\n#define LH_CHECK " << properties() << "\n";
  o << "#ifdef LH_PROGRESS\n#define LH_DISPATCH if :: " << f(ctl.over)
    << " != 0 -> goto end_over :: lh_prog != 0 -> lh_prog = 0; goto progress_lh :: else -> skip "
       "fi\n"
    << "#else\n#define LH_DISPATCH if :: " << f(ctl.over)
    << " != 0 -> goto end_over :: else -> skip fi\n#endif\n\n";
  o << "active proctype game() {\n" << init << "lh_loop:\n  do\n" << moves_ << "  od;\n";
  o << "#ifdef LH_PROGRESS\nprogress_lh: goto lh_loop;\n#endif\n";
  o << "end_over: false\n}\n";
  return o.str();
}

}  // namespace detail

std::string to_promela(const model::Game& game, const std::string& source) {
  detail::Generator gen(game, source);
  return gen.run();
}

namespace detail {

void Generator::require_int32() const {
  if (p_.beyond_int32.empty()) return;
  throw Unsupported("the Promela export computes in 32-bit integers, as pan does, and '" +
                        p_.beyond_int32 + "' can take values beyond them",
                    p_.beyond_int32_at);
}

}  // namespace detail

}  // namespace loophole::promela
