// Canonical S-expressions of expression and statement trees, for tests and
// debugging. The format is one line, one node per parenthesised list, and
// covers both parser output (names unresolved) and checked trees, so parser
// and checker tests can compare whole trees with one EXPECT_EQ.
//
// Expressions
//   (name a)  (int 3)  (bool true)  (index A I)  (field A f)  (call f A...)
//   unary: (- A)  (not A)          binary: (+ A B) with + - * / % == != < <= > >= and or
//   (if C A B)                     conditional expression
//   (exists x D E)                 also forall, count, sum; with a binder slot: (exists #0 x D E)
//   (min A B)  (max A B)  (abs A)  (clamp A B C)
//   (enum #E V text)  (player P1)  (kind #K text)  (action #A text)
//   (active) (opponent) (self) (turn_number) (stack_size) (top_action) (top_controller) (next A)
//   (stack_action I) (stack_controller I) (speed A)
//   (prev A) (turn_order) (forward) (reversed)
//   (var #V text .F A...)          .F only for a record field other than 0; A = player/array
//   indexes (zone_count #Z text A... all)  last item: all | kind #K | tag #T (bound #S text)
// Ids of resolved declarations print as #N; a trailing `text` appears only
// when the node carries the name as written (non-empty).
// Domains
//   players  others  kinds  (kinds tag t)  (enum status)  (range LO HI)
//   LO/HI are the bound expressions while present, else the folded integers;
//   a resolved tag or enum shows its id: (kinds tag #T t), (enum #E status).
// Statements
//   (block S...)  (assign := T V)  (assign += T V)  (assign -= T V)
//   (if C1 B1 C2 B2 ... [BELSE])   pairs of condition and block, optional else block
//   (for x D B)  (choose x D [(where C)] B)  (pick x D [(where C)] B)   (#S before x once resolved)
//   (call f A...)  (skip)  and, once classified: (draw A...) (move_kind A...)
//   (move_any A...) (fire #EV A...) (win A) (lose A) (negate) (shuffle A)
//   (reverse_turn_order) (skip_next)
#include <string>

#include "loophole/model/expr.hpp"

namespace loophole::model {

namespace {

class Printer {
 public:
  std::string take() { return std::move(out_); }

  void expr(const Expr& e) {
    switch (e.kind) {
      case ExprKind::name:
        open("name");
        word(e.text);
        break;
      case ExprKind::index:
        open("index");
        args(e);
        break;
      case ExprKind::field:
        open("field");
        args(e);
        word(e.text);
        break;
      case ExprKind::call:
        open("call");
        word(e.text);
        args(e);
        break;
      case ExprKind::int_lit:
        open("int");
        word(std::to_string(e.value));
        break;
      case ExprKind::bool_lit:
        open("bool");
        word(e.value != 0 ? "true" : "false");
        break;
      case ExprKind::enum_lit:
        if (e.type.enum_id == Type::turn_order_enum) {
          open(e.value != 0 ? "reversed" : "forward");
          break;
        }
        open("enum");
        id(e.type.enum_id);
        word(std::to_string(e.value));
        text(e.text);
        break;
      case ExprKind::player_lit:
        open("player");
        word("P" + std::to_string(e.value + 1));
        break;
      case ExprKind::kind_lit:
        open("kind");
        id(e.value);
        text(e.text);
        break;
      case ExprKind::action_lit:
        open("action");
        id(e.value);
        text(e.text);
        break;
      case ExprKind::active:
        open("active");
        break;
      case ExprKind::opponent:
        open("opponent");
        break;
      case ExprKind::self:
        open("self");
        break;
      case ExprKind::turn_number:
        open("turn_number");
        break;
      case ExprKind::stack_size:
        open("stack_size");
        break;
      case ExprKind::top_action:
        open("top_action");
        break;
      case ExprKind::top_controller:
        open("top_controller");
        break;
      case ExprKind::next_player:
        open("next");
        args(e);
        break;
      case ExprKind::stack_entry:
        open(e.value == 0 ? "stack_action" : "stack_controller");
        args(e);
        break;
      case ExprKind::action_speed:
        open("speed");
        args(e);
        break;
      case ExprKind::prev_player:
        open("prev");
        args(e);
        break;
      case ExprKind::turn_order:
        open("turn_order");
        break;
      case ExprKind::var:
        open("var");
        id(e.ref);
        text(e.text);
        if (e.field != 0) word("." + std::to_string(e.field));
        args(e);
        break;
      case ExprKind::zone_count:
        open("zone_count");
        id(e.ref);
        text(e.text);
        args(e);
        if (e.value == -1) {
          word("all");
        } else if (e.value == -2) {
          word("tag");
          id(e.tag);
        } else {
          word("kind");
          id(e.value);
        }
        break;
      case ExprKind::bound:
        open("bound");
        id(e.ref);
        text(e.text);
        break;
      case ExprKind::unary:
      case ExprKind::binary:
      case ExprKind::builtin:
        open(to_string(e.op));
        args(e);
        break;
      case ExprKind::cond:
        open("if");
        args(e);
        break;
      case ExprKind::quant:
        open(to_string(e.op));
        id(e.ref);
        word(e.text);
        domain(e.domain);
        args(e);
        break;
    }
    out_ += ')';
  }

  void stmt(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::block:
        open("block");
        bodies(s);
        break;
      case StmtKind::assign:
        open("assign");
        word(s.op == Op::add ? "+=" : s.op == Op::sub ? "-=" : ":=");
        child(s.target.get());
        child(s.value.get());
        break;
      case StmtKind::if_:
        open("if");
        for (std::size_t i = 0; i < s.bodies.size(); ++i) {
          if (i < s.conds.size()) child(s.conds[i].get());
          child(s.bodies[i].get());
        }
        break;
      case StmtKind::for_:
        binder_stmt("for", s);
        break;
      case StmtKind::choose:
        binder_stmt("choose", s);
        break;
      case StmtKind::pick:
        binder_stmt("pick", s);
        break;
      case StmtKind::draw:
        classified("draw", s);
        break;
      case StmtKind::move_kind:
        classified("move_kind", s);
        break;
      case StmtKind::move_any:
        classified("move_any", s);
        break;
      case StmtKind::fire:
        open("fire");
        id(s.ref);
        args(s);
        break;
      case StmtKind::win:
        classified("win", s);
        break;
      case StmtKind::lose:
        classified("lose", s);
        break;
      case StmtKind::negate:
        classified("negate", s);
        break;
      case StmtKind::reverse_order:
        classified("reverse_turn_order", s);
        break;
      case StmtKind::skip_next:
        classified("skip_next", s);
        break;
      case StmtKind::shuffle:
        classified("shuffle", s);
        break;
      case StmtKind::skip:
        open("skip");
        break;
      case StmtKind::call:
        open("call");
        word(s.text);
        args(s);
        break;
    }
    out_ += ')';
  }

 private:
  void open(std::string_view head) {
    out_ += '(';
    out_ += head;
  }
  void space() { out_ += ' '; }
  void word(std::string_view w) {
    out_ += ' ';
    out_ += w;
  }
  void text(const std::string& t) {
    if (!t.empty()) word(t);
  }
  void id(std::int64_t n) {
    if (n >= 0) word("#" + std::to_string(n));
  }
  void child(const Expr* e) {
    space();
    if (e != nullptr) {
      expr(*e);
    } else {
      out_ += "(null)";
    }
  }
  void child(const Stmt* s) {
    space();
    if (s != nullptr) {
      stmt(*s);
    } else {
      out_ += "(null)";
    }
  }
  template <class Node>
  void args(const Node& n) {
    for (const ExprPtr& a : n.args) child(a.get());
  }
  void bodies(const Stmt& s) {
    for (const StmtPtr& b : s.bodies) child(b.get());
  }
  void classified(std::string_view head, const Stmt& s) {
    open(head);
    args(s);
  }

  void domain(const Domain& d) {
    switch (d.kind) {
      case Domain::Kind::players:
        word("players");
        return;
      case Domain::Kind::others:
        word("others");
        return;
      case Domain::Kind::kinds:
        word("kinds");
        return;
      case Domain::Kind::kinds_tagged:
        out_ += " (kinds tag";
        id(d.ref);
        word(d.text);
        out_ += ')';
        return;
      case Domain::Kind::enum_values:
        out_ += " (enum";
        id(d.ref);
        word(d.text);
        out_ += ')';
        return;
      case Domain::Kind::range:
        out_ += " (range";
        if (d.lo_expr != nullptr && d.hi_expr != nullptr) {
          child(d.lo_expr);
          child(d.hi_expr);
        } else {
          word(std::to_string(d.lo));
          word(std::to_string(d.hi));
        }
        out_ += ')';
        return;
    }
  }

  void binder_stmt(std::string_view head, const Stmt& s) {
    open(head);
    id(s.ref);
    word(s.text);
    domain(s.domain);
    if (!s.conds.empty() && s.conds[0]) {
      out_ += " (where";
      child(s.conds[0].get());
      out_ += ')';
    }
    if (!s.args.empty() && s.args[0]) {
      out_ += " (by";
      child(s.args[0].get());
      out_ += ')';
    }
    bodies(s);
  }

  std::string out_;
};

}  // namespace

std::string to_string(const Expr& e) {
  Printer p;
  p.expr(e);
  return p.take();
}

std::string to_string(const Stmt& s) {
  Printer p;
  p.stmt(s);
  return p.take();
}

std::string_view to_string(Op op) {
  switch (op) {
    case Op::none:
      return "none";
    case Op::neg:
      return "-";
    case Op::not_:
      return "not";
    case Op::add:
      return "+";
    case Op::sub:
      return "-";
    case Op::mul:
      return "*";
    case Op::div:
      return "/";
    case Op::mod:
      return "%";
    case Op::eq:
      return "==";
    case Op::ne:
      return "!=";
    case Op::lt:
      return "<";
    case Op::le:
      return "<=";
    case Op::gt:
      return ">";
    case Op::ge:
      return ">=";
    case Op::and_:
      return "and";
    case Op::or_:
      return "or";
    case Op::exists:
      return "exists";
    case Op::forall:
      return "forall";
    case Op::count:
      return "count";
    case Op::sum:
      return "sum";
    case Op::min:
      return "min";
    case Op::max:
      return "max";
    case Op::abs:
      return "abs";
    case Op::clamp:
      return "clamp";
  }
  return "?";
}

}  // namespace loophole::model
