// native_source() (native.hpp): a Program's programs as C. Each expression
// program becomes a C function whose stack entries are locals (t0, t1, ...:
// the depth before every instruction is known when the program is
// translated), its jumps gotos; the statement programs become one function
// with a label per statement, entered through a switch on the pc, which
// returns at every statement the interpreter runs itself; whether an action
// may be taken (Runner::enabled) becomes one function with a case per
// action. Each case below is the interpreter's (ExprMachine::run_program,
// Runner::run_effect, Runner::enabled) with its operands written in.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "compiled_program.hpp"
#include "native.hpp"

namespace loophole::checker {

namespace {

class Translator {
 public:
  explicit Translator(const CompiledSystem::Program& p) : p_(p) {}

  std::string source() {
    out_ << "/* loophole --native: the successor generator's programs, generated; do not edit. */\n"
         << "#include <stdint.h>\n"
         << "struct loophole_frame { int32_t* w; uint64_t* dirty; int64_t* b; int64_t* r; "
            "int32_t self; };\n"
         << "static inline int wrap(int p) { while (p >= " << p_.low.players
         << ") p -= " << p_.low.players << "; return p; }\n"
         << "static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }\n"
         << "static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }\n";
    tables();
    find_starts();
    for (const int s : starts_) expression(s);
    statements();
    enabled();
    out_ << "typedef int64_t (*loophole_expr)(const int32_t*, int64_t*, int, int*);\n"
         << "const loophole_expr loophole_exprs[" << std::max<std::size_t>(1, p_.xcode.size())
         << "] = {";
    std::size_t next = 0;
    if (p_.xcode.empty()) out_ << " 0";  // (C has no empty initializer)
    for (std::size_t pc = 0; pc < p_.xcode.size(); ++pc) {
      if (pc % 8 == 0) out_ << "\n ";
      if (next < starts_.size() && starts_[next] == static_cast<int>(pc)) {
        out_ << " x" << pc << ",";
        ++next;
      } else {
        out_ << " 0,";
      }
    }
    out_ << "\n};\n";
    return out_.str();
  }

 private:
  // --- tables and domains ----------------------------------------------------

  void tables() {
    out_ << "static const int32_t lo[" << std::max<std::size_t>(1, p_.slot_lo.size()) << "] = {";
    list(p_.slot_lo);
    out_ << "};\nstatic const int32_t hi[" << std::max<std::size_t>(1, p_.slot_hi.size())
         << "] = {";
    list(p_.slot_hi);
    out_ << "};\n";
    for (std::size_t l = 0; l < p_.lists.size(); ++l) {
      out_ << "static const int64_t list" << l << "["
           << std::max<std::size_t>(1, p_.lists[l].size()) << "] = {";
      list(p_.lists[l]);
      out_ << "};\n";
    }
  }
  template <class T>
  void list(const std::vector<T>& v) {
    if (v.empty()) out_ << "0";
    for (std::size_t i = 0; i < v.size(); ++i) out_ << (i == 0 ? "" : ",") << v[i];
  }

  // ExprMachine::domain_size / domain_value, as C expressions.
  [[nodiscard]] std::string domain_size(int d) const {
    const CDomain& c = p_.domains[static_cast<std::size_t>(d)];
    if (c.kind == model::Domain::Kind::others) {
      return "(self >= 0 ? " + std::to_string(c.size - 1) + " : " + std::to_string(c.size) + ")";
    }
    return std::to_string(c.size);
  }
  [[nodiscard]] std::string domain_value(int d, const std::string& i) const {
    const CDomain& c = p_.domains[static_cast<std::size_t>(d)];
    using K = model::Domain::Kind;
    switch (c.kind) {
      case K::others:
        return "(self >= 0 && (" + i + ") >= self ? (" + i + ") + 1 : (" + i + "))";
      case K::range:
        return "((int64_t)" + std::to_string(c.lo) + " + (" + i + "))";
      case K::kinds_tagged:
        return "list" + std::to_string(c.list) + "[" + i + "]";
      default:
        return "(" + i + ")";
    }
  }

  // --- expressions -----------------------------------------------------------

  // Every program starts at 0 or after a ret (Program::xcode).
  void find_starts() {
    for (std::size_t pc = 0; pc < p_.xcode.size(); ++pc) {
      if (pc == 0 || p_.xcode[pc - 1].op == X::ret) starts_.push_back(static_cast<int>(pc));
    }
  }
  [[nodiscard]] bool is_start(int pc) const {
    return std::binary_search(starts_.begin(), starts_.end(), pc);
  }

  static std::string t(int depth) { return "t" + std::to_string(depth); }
  static std::string k64(std::int64_t k) {
    // (INT64_MIN has no literal: written as an expression.)
    if (k == INT64_MIN) return "(-INT64_C(9223372036854775807) - 1)";
    return "INT64_C(" + std::to_string(k) + ")";
  }
  // Whether a <op> b leaves 64 bits (ExprMachine::checked_op), as explicit
  // range tests: tcc has no __builtin_*_overflow and no __int128.
  static std::string overflows(model::Op op, const std::string& a, const std::string& b) {
    const std::string lo = k64(INT64_MIN), hi = k64(INT64_MAX);
    switch (op) {
      case model::Op::add:
        return "((" + b + " > 0 && " + a + " > " + hi + " - " + b + ") || (" + b + " < 0 && " + a +
               " < " + lo + " - " + b + "))";
      case model::Op::sub:
        return "((" + b + " < 0 && " + a + " > " + hi + " + " + b + ") || (" + b + " > 0 && " + a +
               " < " + lo + " + " + b + "))";
      case model::Op::mul:
        return "(" + a + " > 0 ? (" + b + " > 0 ? " + a + " > " + hi + " / " + b + " : " + b +
               " < " + lo + " / " + a + ") : (" + b + " > 0 ? " + a + " < " + lo + " / " + b +
               " : (" + a + " != 0 && " + b + " < " + hi + " / " + a + ")))";
      default:  // neg, abs; and a division's INT64_MIN / -1 (b the divisor)
        return "(" + a + " == " + lo + (b.empty() ? "" : " && " + b + " == -1") + ")";
    }
  }
  // compare() of compiled_program.hpp.
  static std::string compare(const std::string& v, Cmp cmp, const std::string& k) {
    switch (cmp) {
      case Cmp::none:
        return v;
      case Cmp::lt:
        return "((" + v + ") < (" + k + "))";
      case Cmp::eq:
        return "((" + v + ") == (" + k + "))";
      case Cmp::le:
        return "((" + v + ") <= (" + k + "))";
      case Cmp::gt:
        return "((" + v + ") > (" + k + "))";
      case Cmp::ne:
        return "((" + v + ") != (" + k + "))";
      case Cmp::ge:
        return "((" + v + ") >= (" + k + "))";
    }
    throw NativeError("native: unknown comparison");
  }

  // ExprMachine::rel_player / rel_slot.
  static std::string rel_slot(const XIns& x) {
    const std::string player = x.d >= 0    ? "s[" + std::to_string(x.d) + "]"
                               : x.d == -1 ? std::string("self")
                                           : "b[" + std::to_string(-2 - x.d) + "]";
    return "(" + std::to_string(x.a) + " + wrap((int)(" + player + ") + " + std::to_string(x.c) +
           ") * " + std::to_string(x.b) + ")";
  }
  // ExprMachine::leaf_value.
  static std::string leaf_value(const XIns& x) {
    switch (x.op) {
      case X::konst:
        return k64(x.k);
      case X::load:
        return "(int64_t)s[" + std::to_string(x.a) + "]";
      case X::bound:
        return "b[" + std::to_string(x.a) + "]";
      case X::rel:
        return "(int64_t)s[" + rel_slot(x) + "]";
      case X::rel_slot:
        return "(int64_t)" + rel_slot(x);
      case X::self:
        return "(int64_t)self";
      case X::top:
        return "(s[" + std::to_string(x.a) + "] == 0 ? (int64_t)0 : (int64_t)s[" +
               std::to_string(x.b) + " + 2 * s[" + std::to_string(x.a) + "]])";
      default:
        throw NativeError("native: not a leaf");
    }
  }
  static bool is_leaf(X op) {
    return op == X::load || op == X::bound || op == X::rel || op == X::rel_slot || op == X::self ||
           op == X::top;
  }

  // The stack depth before each instruction of the program at `start`, by
  // following its jumps; -1 where no path leads.
  std::vector<int> depths(int start) {
    std::vector<int> depth(p_.xcode.size(), -1);
    std::vector<int> work;
    const auto reach = [&](int pc, int d) {
      if (pc < start || pc >= static_cast<int>(p_.xcode.size()) || d < 0 || d > max_stack) {
        throw NativeError("native: a jump leaves its program");
      }
      auto& at = depth[static_cast<std::size_t>(pc)];
      if (at == d) return;
      if (at >= 0) throw NativeError("native: two stack depths meet");
      at = d;
      work.push_back(pc);
    };
    reach(start, 0);
    while (!work.empty()) {
      const int pc = work.back();
      work.pop_back();
      const XIns& x = p_.xcode[static_cast<std::size_t>(pc)];
      const int d = depth[static_cast<std::size_t>(pc)];
      const int next = pc + 1;
      if (is_leaf(x.op)) {
        switch (x.then) {
          case Then::push:
            reach(next, d + 1);
            break;
          case Then::add:
          case Then::sub:
          case Then::cmp:
            reach(next, d);
            break;
          case Then::and_:
          case Then::or_:
            reach(x.j, d + 1);
            reach(next, d);
            break;
        }
        continue;
      }
      switch (x.op) {
        case X::konst:
          reach(next, d + 1);
          break;
        case X::var_dyn:
        case X::var_slot:
          reach(next, d - (x.c > 0 ? 1 : 0) - (x.b >= 0 ? 1 : 0) + 1);
          break;
        case X::zone_dyn:
        case X::add:
        case X::sub:
        case X::mul:
        case X::div:
        case X::mod:
        case X::eq:
        case X::ne:
        case X::lt:
        case X::le:
        case X::gt:
        case X::ge:
        case X::min:
        case X::max:
          reach(next, d - 1);
          break;
        case X::clamp:
          reach(next, d - 2);
          break;
        case X::checked: {
          const auto op = static_cast<model::Op>(x.c);
          reach(next, op == model::Op::neg || op == model::Op::abs ? d : d - 1);
          break;
        }
        case X::and_jump:
        case X::or_jump:
          reach(x.a, d);
          reach(next, d - 1);
          break;
        case X::jump_if0:
          reach(x.a, d - 1);
          reach(next, d - 1);
          break;
        case X::jump:
          reach(x.a, d);
          break;
        case X::quant_begin:
          reach(x.d, d + 1);
          reach(next, d + 3);
          break;
        case X::quant_step:
          reach(x.d, d - 1);
          reach(next, d - 3);
          break;
        case X::ret:
          if (d < 1) throw NativeError("native: ret on an empty stack");
          break;
        default:  // next_player, zone_sum, zone_range, not_, neg, to_bool, abs, cmp_k
          reach(next, d);
          break;
      }
    }
    return depth;
  }

  void expression(int start) {
    const std::vector<int> depth = depths(start);
    const int most = *std::max_element(depth.begin(), depth.end()) + 3;
    out_ << "static int64_t x" << start << "(const int32_t* s, int64_t* b, int self, int* err) {\n"
         << "  (void)s; (void)b; (void)self; (void)err;\n  int64_t";
    for (int i = 0; i <= most; ++i) out_ << (i == 0 ? " " : ", ") << t(i) << " = 0";
    out_ << ";\n";
    for (auto pc = static_cast<std::size_t>(start); pc < p_.xcode.size(); ++pc) {
      if (depth[pc] >= 0) instruction(static_cast<int>(pc), depth[pc]);
      if (p_.xcode[pc].op == X::ret) break;
    }
    out_ << "}\n";
  }

  void fail(const std::string& site) {
    out_ << "{ if (*err < 0) *err = " << site << "; return 0; }";
  }

  void instruction(int pc, int d) {
    const XIns& x = p_.xcode[static_cast<std::size_t>(pc)];
    const std::string top = d > 0 ? t(d - 1) : "t0";
    const std::string below = d > 1 ? t(d - 2) : "t0";
    const std::string k = k64(x.k);
    out_ << " L" << pc << ": ";
    if (is_leaf(x.op)) {
      const std::string v = leaf_value(x);
      switch (x.then) {
        case Then::push:
          out_ << t(d) << " = " << compare(v, x.cmp, k) << ";";
          break;
        case Then::add:
          out_ << top << " += " << v << ";";
          break;
        case Then::sub:
          out_ << top << " -= " << v << ";";
          break;
        case Then::cmp:
          out_ << top << " = " << compare(top, x.cmp, v) << ";";
          break;
        case Then::and_:
          out_ << "if (" << compare(v, x.cmp, k) << " == 0) { " << t(d) << " = 0; goto L" << x.j
               << "; }";
          break;
        case Then::or_:
          out_ << "if (" << compare(v, x.cmp, k) << " != 0) { " << t(d) << " = 1; goto L" << x.j
               << "; }";
          break;
      }
      out_ << "\n";
      return;
    }
    switch (x.op) {
      case X::konst:
        out_ << t(d) << " = " << k << ";";
        break;
      case X::cmp_k:
        out_ << top << " = " << compare(top, x.cmp, k) << ";";
        break;
      case X::next_player:
        out_ << top << " = (" << top << " + 1) % " << p_.low.players << ";";
        break;
      case X::var_dyn:
      case X::var_slot: {
        int at = d;
        out_ << "{ int64_t index = 0, player = 0; ";
        if (x.c > 0) out_ << "index = " << t(--at) << "; ";
        if (x.b >= 0) out_ << "player = " << t(--at) << "; ";
        out_ << "if (index < 0 || index >= " << std::max(1, x.c) << ") ";
        fail(std::to_string(x.k));
        const int nf = x.d >> 16, field = x.d & 0xffff;
        out_ << " int slot = " << x.a << " + (int)player * " << std::max(0, x.b)
             << " + (int)index * " << nf << " + " << field << "; " << t(at) << " = "
             << (x.op == X::var_slot ? "slot" : "s[slot]") << "; }";
        break;
      }
      case X::zone_dyn:
        out_ << below << " = s[" << x.a << " + " << below << " * " << x.b << " + " << top << "];";
        break;
      case X::zone_range:
      case X::zone_sum: {
        out_ << "{ const int32_t* z = s + " << x.a << " + " << top << " * " << x.b << "; " << top
             << " = 0";
        for (int i = 0; i < x.c; ++i) {
          const int at = x.op == X::zone_range ? i : p_.lists[static_cast<std::size_t>(x.d)][i];
          out_ << " + z[" << at << "]";
        }
        out_ << "; }";
        break;
      }
      case X::not_:
        out_ << top << " = " << top << " == 0;";
        break;
      case X::neg:
        out_ << top << " = -" << top << ";";
        break;
      case X::to_bool:
        out_ << top << " = " << top << " != 0;";
        break;
      case X::abs:
        out_ << top << " = " << top << " < 0 ? -" << top << " : " << top << ";";
        break;
      case X::add:
      case X::sub:
      case X::mul:
      case X::eq:
      case X::ne:
      case X::lt:
      case X::le:
      case X::gt:
      case X::ge: {
        static const char* const ops[] = {"+", "-", "*", "==", "!=", "<", "<=", ">", ">="};
        const X order[] = {X::add, X::sub, X::mul, X::eq, X::ne, X::lt, X::le, X::gt, X::ge};
        const auto i =
            static_cast<std::size_t>(std::find(std::begin(order), std::end(order), x.op) - order);
        out_ << below << " = " << below << " " << ops[i] << " " << top << ";";
        break;
      }
      case X::min:
      case X::max:
        out_ << below << " = " << (x.op == X::min ? "min64" : "max64") << "(" << below << ", "
             << top << ");";
        break;
      case X::div:
      case X::mod:
        out_ << "if (" << top << " == 0) ";
        fail(std::to_string(x.a));
        out_ << " if " << overflows(model::Op::div, below, top) << " ";
        fail(std::to_string(x.b));
        out_ << " " << below << " = " << below << (x.op == X::div ? " / " : " % ") << top << ";";
        break;
      case X::clamp:
        // st: value (d-3), lo (d-2), hi (d-1)
        out_ << t(d - 3) << " = max64(" << below << ", min64(" << t(d - 3) << ", " << top << "));";
        break;
      case X::and_jump:
        out_ << "if (" << top << " == 0) goto L" << x.a << ";";
        break;
      case X::or_jump:
        out_ << "if (" << top << " != 0) { " << top << " = 1; goto L" << x.a << "; }";
        break;
      case X::jump_if0:
        out_ << "if (" << top << " == 0) goto L" << x.a << ";";
        break;
      case X::jump:
        out_ << "goto L" << x.a << ";";
        break;
      case X::quant_begin:
        out_ << t(d) << " = " << (x.c == static_cast<int>(model::Op::forall) ? 1 : 0) << "; "
             << "if (" << domain_size(x.b) << " == 0) goto L" << x.d << "; " << t(d + 1) << " = 0; "
             << t(d + 2) << " = " << domain_size(x.b) << "; b[" << x.a
             << "] = " << domain_value(x.b, "0") << ";";
        break;
      case X::quant_step: {
        // st: acc (d-4), i (d-3), n (d-2), v (d-1)
        const auto op = static_cast<model::Op>(x.c);
        const std::string acc = t(d - 4), i = t(d - 3), n = t(d - 2), v = t(d - 1);
        if (op == model::Op::exists) {
          out_ << "if (" << v << " != 0) { " << acc << " = 1; goto L" << pc + 1 << "; } ";
        } else if (op == model::Op::forall) {
          out_ << "if (" << v << " == 0) { " << acc << " = 0; goto L" << pc + 1 << "; } ";
        } else if (op == model::Op::count) {
          out_ << acc << " += " << v << " != 0; ";
        } else if (x.j < 0) {
          out_ << acc << " += " << v << "; ";
        } else {
          out_ << "if " << overflows(model::Op::add, acc, v) << " ";
          fail(std::to_string(x.j));
          out_ << " " << acc << " += " << v << "; ";
        }
        out_ << "if (" << i << " + 1 < " << n << ") { " << i << " += 1; b[" << x.a
             << "] = " << domain_value(x.b, i) << "; goto L" << x.d << "; }";
        break;
      }
      case X::checked: {
        const auto op = static_cast<model::Op>(x.c);
        const bool one = op == model::Op::neg || op == model::Op::abs;
        out_ << "if " << overflows(op, one ? top : below, one ? "" : top) << " ";
        fail(std::to_string(x.a));
        if (op == model::Op::neg) {
          out_ << " " << top << " = -" << top << ";";
        } else if (op == model::Op::abs) {
          out_ << " " << top << " = " << top << " < 0 ? -" << top << " : " << top << ";";
        } else {
          const char* sign = op == model::Op::add ? " + " : op == model::Op::sub ? " - " : " * ";
          out_ << " " << below << " = " << below << sign << top << ";";
        }
        break;
      }
      case X::ret:
        out_ << "return " << top << ";";
        break;
      default:
        throw NativeError("native: an instruction the translator does not know");
    }
    out_ << "\n";
  }

  // --- statements ------------------------------------------------------------

  // A call of the expression program at `pc`, its value in `into`; a
  // failure ends the run at its gap site.
  void call(int pc, const std::string& into) {
    if (!is_start(pc)) throw NativeError("native: a statement names no expression program");
    out_ << "{ int err = -1; " << into << " = x" << pc
         << "(w, b, self, &err); if (err >= 0) return -2 - err; } ";
  }

  void statements() {
    out_ << "int loophole_run(struct loophole_frame* f, int pc) {\n"
         << "  int32_t* w = f->w; uint64_t* dirty = f->dirty; int64_t* b = f->b; "
            "int64_t* r = f->r; const int self = f->self;\n"
         << "  (void)w; (void)dirty; (void)b; (void)r; (void)self;\n"
         << "  switch (pc) {\n";
    for (std::size_t pc = 0; pc < p_.scode.size(); ++pc) {
      out_ << "    case " << pc << ": goto S" << pc << ";\n";
    }
    out_ << "    default: return pc;\n  }\n";
    for (std::size_t pc = 0; pc < p_.scode.size(); ++pc) {
      statement(static_cast<int>(pc));
    }
    out_ << "  return " << p_.scode.size() << ";\n}\n";
  }

  void statement(int pc) {
    const SIns& i = p_.scode[static_cast<std::size_t>(pc)];
    out_ << " S" << pc << ": ";
    switch (i.op) {
      case S::assign: {
        out_ << "{ int64_t slot, v; ";
        if (i.a >= 0) {
          out_ << "slot = " << i.a << "; ";
        } else {
          call(i.b, "slot");
          out_ << "slot = (int)slot; ";
        }
        const XIns& c = p_.xcode[static_cast<std::size_t>(i.c)];
        if (c.single && c.op == X::konst) {
          out_ << "v = " << k64(c.k) << "; ";
        } else {
          call(i.c, "v");
        }
        const auto op = static_cast<model::Op>(i.d);
        const std::string cur = "(int64_t)w[slot]";
        const std::string nv = op == model::Op::add   ? cur + " + v"
                               : op == model::Op::sub ? cur + " - v"
                                                      : std::string("v");
        // (A result beyond 64 bits leaves every slot's range too.)
        if (op == model::Op::add || op == model::Op::sub) {
          out_ << "if " << overflows(op, cur, "v") << " return " << -2 - i.e << "; ";
        }
        const std::string lo = i.a >= 0 ? std::to_string(p_.slot_lo[static_cast<std::size_t>(i.a)])
                                        : std::string("lo[slot]");
        const std::string hi = i.a >= 0 ? std::to_string(p_.slot_hi[static_cast<std::size_t>(i.a)])
                                        : std::string("hi[slot]");
        out_ << "{ const int64_t nv = " << nv << "; if (nv < " << lo << " || nv > " << hi
             << ") return " << -2 - i.e << "; if (w[slot] != (int32_t)nv) { w[slot] = "
             << "(int32_t)nv; dirty[slot >> 6] |= (uint64_t)1 << (slot & 63); } } }\n";
        return;
      }
      case S::jump_if_not:
        if (i.a >= 0) {
          out_ << "{ int64_t h; ";
          call(i.a, "h");
          out_ << "if (h == 0) goto S" << i.b << "; }";
        }
        break;
      case S::jump:
        out_ << "goto S" << i.b << ";\n";
        return;
      case S::for_begin:
        out_ << "if (" << domain_size(i.a) << " == 0) goto S" << i.b << "; r[" << i.d << "] = 0; b["
             << i.c << "] = " << domain_value(i.a, "0") << ";";
        break;
      case S::for_next:
        out_ << "{ const int64_t next = r[" << i.d << "] + 1; if (next < " << domain_size(i.a)
             << ") { r[" << i.d << "] = next; b[" << i.c << "] = " << domain_value(i.a, "next")
             << "; goto S" << i.b << "; } }";
        break;
      case S::bind:
        out_ << "b[" << i.c << "] = " << i.a << ";";
        break;
      default:  // the interpreter's
        out_ << "return " << pc << ";\n";
        return;
    }
    out_ << "\n";  // and on to the next statement
  }

  // --- Runner::enabled ---------------------------------------------------------

  // Whether action a may be taken by player p now: its use limits, the card
  // it plays, its guard; 1, 0, or -1 with *err set when the guard fails.
  void enabled() {
    const auto& g = p_.game;
    const auto& ctl = p_.low.ctl;
    out_ << "int loophole_enabled(const int32_t* s, int a, int p, int64_t* b, int* err) {\n"
         << "  (void)s; (void)p; (void)b; (void)err;\n  switch (a) {\n";
    for (std::size_t a = 0; a < g.actions.size(); ++a) {
      const auto& act = g.actions[a];
      out_ << "  case " << a << ":\n";
      if (ctl.turn_uses[a] >= 0) {
        out_ << "    if (s[" << ctl.turn_uses[a] << " + p] >= " << act.limit.per_turn
             << ") return 0;\n";
      }
      if (ctl.window_uses[a] >= 0) {
        out_ << "    if (s[" << ctl.window_uses[a] << " + p] >= " << act.limit.per_window
             << ") return 0;\n";
      }
      if (act.play_kind >= 0) {
        if (g.hand_zone < 0) {
          out_ << "    return 0;\n";
          continue;
        }
        const auto& hand = g.zones[static_cast<std::size_t>(g.hand_zone)];
        out_ << "    if (s[" << hand.first_slot + act.play_kind << " + "
             << (hand.per_player ? "p" : "0") << " * " << p_.low.kinds << "] < 1) return 0;\n";
      }
      const int guard = p_.action_guard[a];
      if (guard < 0) {
        out_ << "    return 1;\n";
        continue;
      }
      if (!is_start(guard)) throw NativeError("native: a guard names no expression program");
      out_ << "    { const int64_t h = x" << guard
           << "(s, b, p, err); if (*err >= 0) return -1; return h != 0; }\n";
    }
    out_ << "  }\n  return 0;\n}\n";
  }

  const CompiledSystem::Program& p_;
  std::ostringstream out_;
  std::vector<int> starts_;
};

}  // namespace

std::string native_source(const CompiledSystem::Program& p) { return Translator(p).source(); }

}  // namespace loophole::checker
