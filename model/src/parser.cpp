// Recursive-descent parser for expressions and statement lists. It builds the
// trees of expr.hpp with every name unresolved; the checker resolves them.
// One precedence function per level (or, and, not, comparison, additive,
// multiplicative, unary, postfix, primary) keeps the grammar readable next to
// docs/language.md. The first syntax error is reported and the parse unwinds
// with nullptr, so one mistake never cascades into noise. Newlines end a
// statement only where it is already complete: the binary and postfix loops
// stop at a newline, while every required token skips over newlines.
#include <optional>
#include <string>
#include <utility>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/expr.hpp"

#include "lexer.hpp"

namespace loophole::model {

namespace {

constexpr int k_max_depth = 256;

class Parser {
 public:
  Parser(std::string_view text, const TextOrigin& origin, DiagnosticSink& sink,
         std::vector<Token> tokens)
      : text_(text), origin_(origin), sink_(sink), tokens_(std::move(tokens)) {}

  ExprPtr whole_expression() {
    ExprPtr e = expression();
    if (!e) return nullptr;
    if (peek().kind != Tok::end) {
      fail(token_span(peek()), "expected end of expression, found " + describe(peek()));
      return nullptr;
    }
    return e;
  }

  StmtPtr whole_statements() {
    StmtPtr block = statement_list();
    if (!block) return nullptr;
    if (peek().kind != Tok::end) {
      fail(token_span(peek()), "expected statement, found " + describe(peek()));
      return nullptr;
    }
    return block;
  }

 private:
  // ---- tokens --------------------------------------------------------------

  // The current token, skipping newlines: for places where the construct is
  // incomplete, so a line break cannot end it.
  const Token& peek() {
    while (tokens_[pos_].kind == Tok::newline) ++pos_;
    return tokens_[pos_];
  }
  // The current token without skipping newlines.
  [[nodiscard]] const Token& raw() const { return tokens_[pos_]; }
  [[nodiscard]] bool at_newline() const { return tokens_[pos_].kind == Tok::newline; }

  Token advance() {
    const Token t = peek();
    if (t.kind != Tok::end) ++pos_;
    prev_end_ = t.offset + t.length;
    return t;
  }

  bool accept(Tok kind) {
    if (peek().kind != kind) return false;
    advance();
    return true;
  }

  // ---- positions and errors ------------------------------------------------

  [[nodiscard]] SourceSpan span(std::uint32_t begin, std::uint32_t end) const {
    return origin_.at(text_, begin, end > begin ? end - begin : 0);
  }
  [[nodiscard]] SourceSpan token_span(const Token& t) const {
    return origin_.at(text_, t.offset, t.length);
  }
  [[nodiscard]] SourceSpan since(std::uint32_t begin) const { return span(begin, prev_end_); }

  // Reports the first error only; returns it for notes (nullptr afterwards).
  Diagnostic* fail(SourceSpan where, std::string message) {
    if (failed_) return nullptr;
    failed_ = true;
    return &sink_.error(std::move(where), std::move(message));
  }

  void fail_expected(const std::string& what, const Token& found) {
    fail(token_span(found), "expected " + what + ", found " + describe(found));
  }

  // Expects a closing bracket; on failure notes where the opening one was.
  bool close(Tok kind, const Token& opener, const std::string& expected) {
    if (accept(kind)) return true;
    const Token& found = peek();
    if (Diagnostic* d =
            fail(token_span(found), "expected " + expected + ", found " + describe(found))) {
      DiagnosticSink::note(*d, token_span(opener), "to match this " + describe(opener));
    }
    return false;
  }

  // Bounds the nesting of the tree being built (and of this parser's own
  // recursion): every parenthesis, prefix operator, block and every link of an
  // operator or postfix chain makes the tree one level deeper, and consumers
  // (checker, printer, destructors) recurse over that depth.
  class DepthGuard {
   public:
    explicit DepthGuard(Parser& p) : p_(p) {}
    ~DepthGuard() { p_.depth_ -= levels_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    // One level deeper; false (after reporting) past the limit.
    bool deeper() {
      ++levels_;
      if (++p_.depth_ <= k_max_depth) return true;
      p_.fail(p_.token_span(p_.peek()), "expression nested too deeply");
      return false;
    }

   private:
    Parser& p_;
    int levels_ = 0;
  };

  // ---- node construction ---------------------------------------------------

  static ExprPtr make(ExprKind kind, SourceSpan where) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->where = std::move(where);
    return e;
  }

  ExprPtr binary(Op op, ExprPtr lhs, ExprPtr rhs, std::uint32_t begin) {
    ExprPtr e = make(ExprKind::binary, since(begin));
    e->op = op;
    e->args.push_back(std::move(lhs));
    e->args.push_back(std::move(rhs));
    return e;
  }

  // ---- expressions ---------------------------------------------------------

  ExprPtr expression() {
    DepthGuard guard(*this);
    if (!guard.deeper()) return nullptr;
    return parse_or();
  }

  ExprPtr parse_or() {
    const std::uint32_t begin = peek().offset;
    ExprPtr lhs = parse_and();
    DepthGuard chain(*this);
    while (lhs && !at_newline() && peek().kind == Tok::kw_or) {
      if (!chain.deeper()) return nullptr;
      advance();
      ExprPtr rhs = parse_and();
      if (!rhs) return nullptr;
      lhs = binary(Op::or_, std::move(lhs), std::move(rhs), begin);
    }
    return lhs;
  }

  ExprPtr parse_and() {
    const std::uint32_t begin = peek().offset;
    ExprPtr lhs = parse_not();
    DepthGuard chain(*this);
    while (lhs && !at_newline() && peek().kind == Tok::kw_and) {
      if (!chain.deeper()) return nullptr;
      advance();
      ExprPtr rhs = parse_not();
      if (!rhs) return nullptr;
      lhs = binary(Op::and_, std::move(lhs), std::move(rhs), begin);
    }
    return lhs;
  }

  ExprPtr parse_not() {
    if (peek().kind != Tok::kw_not) return parse_comparison();
    DepthGuard guard(*this);
    if (!guard.deeper()) return nullptr;
    const Token op = advance();
    ExprPtr operand = parse_not();
    if (!operand) return nullptr;
    ExprPtr e = make(ExprKind::unary, since(op.offset));
    e->op = Op::not_;
    e->args.push_back(std::move(operand));
    return e;
  }

  static Op comparison_op(Tok kind) {
    switch (kind) {
      case Tok::eq:
        return Op::eq;
      case Tok::ne:
        return Op::ne;
      case Tok::lt:
        return Op::lt;
      case Tok::le:
        return Op::le;
      case Tok::gt:
        return Op::gt;
      case Tok::ge:
        return Op::ge;
      default:
        return Op::none;
    }
  }

  ExprPtr parse_comparison() {
    const std::uint32_t begin = peek().offset;
    ExprPtr lhs = parse_additive();
    if (!lhs || at_newline()) return lhs;
    const Op op = comparison_op(peek().kind);
    if (op == Op::none) return lhs;
    advance();
    ExprPtr rhs = parse_additive();
    if (!rhs) return nullptr;
    ExprPtr e = binary(op, std::move(lhs), std::move(rhs), begin);
    if (!at_newline() && comparison_op(peek().kind) != Op::none) {
      fail(token_span(peek()), "comparisons cannot be chained; use 'and' to combine them");
      return nullptr;
    }
    return e;
  }

  ExprPtr parse_additive() {
    const std::uint32_t begin = peek().offset;
    ExprPtr lhs = parse_multiplicative();
    DepthGuard chain(*this);
    while (lhs && !at_newline() && (peek().kind == Tok::plus || peek().kind == Tok::minus)) {
      if (!chain.deeper()) return nullptr;
      const Op op = advance().kind == Tok::plus ? Op::add : Op::sub;
      ExprPtr rhs = parse_multiplicative();
      if (!rhs) return nullptr;
      lhs = binary(op, std::move(lhs), std::move(rhs), begin);
    }
    return lhs;
  }

  ExprPtr parse_multiplicative() {
    const std::uint32_t begin = peek().offset;
    ExprPtr lhs = parse_unary();
    DepthGuard chain(*this);
    while (lhs && !at_newline()) {
      Op op = Op::none;
      switch (peek().kind) {
        case Tok::star:
          op = Op::mul;
          break;
        case Tok::slash:
          op = Op::div;
          break;
        case Tok::percent:
          op = Op::mod;
          break;
        default:
          break;
      }
      if (op == Op::none) break;
      if (!chain.deeper()) return nullptr;
      advance();
      ExprPtr rhs = parse_unary();
      if (!rhs) return nullptr;
      lhs = binary(op, std::move(lhs), std::move(rhs), begin);
    }
    return lhs;
  }

  ExprPtr parse_unary() {
    if (peek().kind != Tok::minus) return parse_postfix();
    DepthGuard guard(*this);
    if (!guard.deeper()) return nullptr;
    const Token op = advance();
    ExprPtr operand = parse_unary();
    if (!operand) return nullptr;
    ExprPtr e = make(ExprKind::unary, since(op.offset));
    e->op = Op::neg;
    e->args.push_back(std::move(operand));
    return e;
  }

  ExprPtr parse_postfix() {
    const std::uint32_t begin = peek().offset;
    ExprPtr e = parse_primary();
    DepthGuard chain(*this);
    while (e && !at_newline()) {
      const Tok kind = peek().kind;
      if ((kind == Tok::lbracket || kind == Tok::dot) && !chain.deeper()) return nullptr;
      if (kind == Tok::lbracket) {
        const Token open = advance();
        ExprPtr index = expression();
        if (!index || !close(Tok::rbracket, open, "']'")) return nullptr;
        ExprPtr node = make(ExprKind::index, since(begin));
        node->args.push_back(std::move(e));
        node->args.push_back(std::move(index));
        e = std::move(node);
      } else if (kind == Tok::dot) {
        advance();
        if (peek().kind != Tok::identifier) {
          fail_expected("field name after '.'", peek());
          return nullptr;
        }
        const Token name = advance();
        ExprPtr node = make(ExprKind::field, since(begin));
        node->text = std::string(name.text);
        node->args.push_back(std::move(e));
        e = std::move(node);
      } else if (kind == Tok::lparen && e->kind == ExprKind::name) {
        const Token open = advance();
        ExprPtr node = make(ExprKind::call, {});
        node->text = std::move(e->text);
        if (!call_arguments(open, node->args)) return nullptr;
        node->where = since(begin);
        e = std::move(node);
      } else {
        break;
      }
    }
    return e;
  }

  // Arguments after `(`, through the closing `)`. `tag t` is allowed as an
  // argument (zone counts by tag) and becomes the call `(call tag (name t))`.
  bool call_arguments(const Token& open, std::vector<ExprPtr>& args) {
    if (accept(Tok::rparen)) return true;
    for (;;) {
      ExprPtr arg;
      if (peek().kind == Tok::kw_tag) {
        const Token tag = advance();
        if (peek().kind != Tok::identifier) {
          fail_expected("tag name after 'tag'", peek());
          return false;
        }
        const Token name = advance();
        arg = make(ExprKind::call, since(tag.offset));
        arg->text = "tag";
        ExprPtr tag_name = make(ExprKind::name, token_span(name));
        tag_name->text = std::string(name.text);
        arg->args.push_back(std::move(tag_name));
      } else {
        arg = expression();
      }
      if (!arg) return false;
      args.push_back(std::move(arg));
      if (accept(Tok::comma)) continue;
      if (accept(Tok::rparen)) return true;
      const Token& found = peek();
      if (Diagnostic* d = fail(token_span(found),
                               "expected ',' or ')' after argument, found " + describe(found))) {
        DiagnosticSink::note(*d, token_span(open), "to match this '('");
      }
      return false;
    }
  }

  ExprPtr parse_primary() {
    const Token& t = peek();
    switch (t.kind) {
      case Tok::integer: {
        const Token tok = advance();
        ExprPtr e = make(ExprKind::int_lit, token_span(tok));
        e->value = tok.value;
        return e;
      }
      case Tok::kw_true:
      case Tok::kw_false: {
        const Token tok = advance();
        ExprPtr e = make(ExprKind::bool_lit, token_span(tok));
        e->value = tok.kind == Tok::kw_true ? 1 : 0;
        return e;
      }
      case Tok::identifier: {
        const Token tok = advance();
        ExprPtr e = make(ExprKind::name, token_span(tok));
        e->text = std::string(tok.text);
        return e;
      }
      case Tok::kw_count:
        // `count(zone)` is a call; `count x in D: e` a quantifier.
        if (tokens_[pos_ + 1].kind == Tok::lparen) {
          const Token tok = advance();
          ExprPtr e = make(ExprKind::name, token_span(tok));
          e->text = "count";
          return e;
        }
        return quantifier(Op::count);
      case Tok::kw_exists:
        return quantifier(Op::exists);
      case Tok::kw_forall:
        return quantifier(Op::forall);
      case Tok::kw_sum:
        return quantifier(Op::sum);
      case Tok::kw_if:
        return conditional();
      case Tok::lparen: {
        const Token open = advance();
        ExprPtr inner = expression();
        if (!inner || !close(Tok::rparen, open, "')'")) return nullptr;
        return inner;
      }
      case Tok::end:
        fail(token_span(t), "unexpected end of expression");
        return nullptr;
      default:
        fail_expected("expression", t);
        return nullptr;
    }
  }

  // `if c then a [elif c then b]... else d` as an expression.
  ExprPtr conditional() {
    DepthGuard guard(*this);  // an `elif` chain recurses here
    if (!guard.deeper()) return nullptr;
    const Token keyword = advance();
    ExprPtr cond = expression();
    if (!cond) return nullptr;
    if (!accept(Tok::kw_then)) {
      fail_expected("'then' after condition", peek());
      return nullptr;
    }
    ExprPtr then_value = expression();
    if (!then_value) return nullptr;
    ExprPtr else_value;
    if (peek().kind == Tok::kw_elif) {
      else_value = conditional();  // `elif` reads like a nested `if`
    } else if (accept(Tok::kw_else)) {
      else_value = expression();
    } else {
      fail_expected("'else' in conditional expression", peek());
      return nullptr;
    }
    if (!else_value) return nullptr;
    ExprPtr e = make(ExprKind::cond, since(keyword.offset));
    e->args.push_back(std::move(cond));
    e->args.push_back(std::move(then_value));
    e->args.push_back(std::move(else_value));
    return e;
  }

  // `exists x in D: e` and friends; the body extends as far right as it can.
  ExprPtr quantifier(Op op) {
    const Token keyword = advance();
    ExprPtr e = make(ExprKind::quant, {});
    e->op = op;
    if (!binder_and_domain(keyword, e->text, e->domain, e->domain_bounds)) return nullptr;
    if (!accept(Tok::colon)) {
      fail_expected("':' after domain", peek());
      return nullptr;
    }
    ExprPtr body = expression();
    if (!body) return nullptr;
    e->args.push_back(std::move(body));
    e->where = since(keyword.offset);
    return e;
  }

  // `x in D` after a binder keyword (exists, for, choose, ...).
  bool binder_and_domain(const Token& keyword, std::string& binder, Domain& domain,
                         std::vector<ExprPtr>& bounds) {
    if (peek().kind != Tok::identifier) {
      fail_expected("variable name after " + describe(keyword), peek());
      return false;
    }
    binder = std::string(advance().text);
    if (!accept(Tok::kw_in)) {
      fail_expected("'in' after variable name", peek());
      return false;
    }
    return parse_domain(domain, bounds);
  }

  bool parse_domain(Domain& domain, std::vector<ExprPtr>& bounds) {
    const Token& first = peek();
    if (first.kind != Tok::identifier && first.kind != Tok::integer && first.kind != Tok::lparen &&
        first.kind != Tok::minus) {
      fail_expected("domain after 'in'", first);
      return false;
    }
    const std::uint32_t begin = first.offset;
    ExprPtr lo = parse_additive();
    if (!lo) return false;
    if (accept(Tok::dotdot)) {
      ExprPtr hi = parse_additive();
      if (!hi) return false;
      domain.kind = Domain::Kind::range;
      bounds.clear();
      bounds.push_back(std::move(lo));
      bounds.push_back(std::move(hi));
      domain.lo_expr = bounds[0].get();
      domain.hi_expr = bounds[1].get();
      domain.text = std::string(text_.substr(begin, prev_end_ - begin));
      domain.where = since(begin);
      return true;
    }
    if (lo->kind != ExprKind::name) {
      fail(since(begin),
           "invalid domain '" + std::string(text_.substr(begin, prev_end_ - begin)) +
               "': expected 'players', 'others', 'kinds', 'kinds tag t', an enum name or 'lo..hi'");
      return false;
    }
    domain.text = lo->text;
    if (lo->text == "players") {
      domain.kind = Domain::Kind::players;
    } else if (lo->text == "others") {
      domain.kind = Domain::Kind::others;
    } else if (lo->text == "kinds") {
      domain.kind = Domain::Kind::kinds;
      if (accept(Tok::kw_tag)) {
        if (peek().kind != Tok::identifier) {
          fail_expected("tag name after 'tag'", peek());
          return false;
        }
        domain.kind = Domain::Kind::kinds_tagged;
        domain.text = std::string(advance().text);
      }
    } else {
      domain.kind = Domain::Kind::enum_values;
    }
    domain.where = since(begin);
    return true;
  }

  // ---- statements ----------------------------------------------------------

  [[nodiscard]] static bool ends_block(Tok kind) {
    return kind == Tok::end || kind == Tok::kw_end || kind == Tok::kw_elif || kind == Tok::kw_else;
  }

  // Statements up to (not including) `end`, `elif`, `else` or the end of the
  // text; the caller checks which one it needs.
  StmtPtr statement_list() {
    DepthGuard guard(*this);
    if (!guard.deeper()) return nullptr;
    auto block = std::make_unique<Stmt>();
    block->kind = StmtKind::block;
    std::uint32_t begin = 0;
    for (;;) {
      while (raw().kind == Tok::newline || raw().kind == Tok::semicolon) ++pos_;
      if (ends_block(raw().kind)) break;
      if (block->bodies.empty()) begin = raw().offset;
      StmtPtr s = statement();
      if (!s) return nullptr;
      block->bodies.push_back(std::move(s));
      const Token& next = raw();
      if (next.kind != Tok::newline && next.kind != Tok::semicolon && !ends_block(next.kind)) {
        fail(token_span(next), "expected ';' or newline after statement, found " + describe(next));
        return nullptr;
      }
    }
    block->where = block->bodies.empty() ? span(raw().offset, raw().offset) : since(begin);
    return block;
  }

  // The `end` closing a construct opened by `opener` (if, for, choose, pick).
  bool close_block(const Token& opener) {
    if (accept(Tok::kw_end)) return true;
    const Token& found = peek();
    if (found.kind == Tok::end) {
      fail(token_span(opener), "unterminated " + describe(opener) + ": expected 'end'");
    } else {
      fail_expected("'end' to close " + describe(opener), found);
    }
    return false;
  }

  static bool is_assign(Tok kind) {
    return kind == Tok::assign || kind == Tok::plus_assign || kind == Tok::minus_assign;
  }

  StmtPtr statement() {
    const Token& first = peek();
    switch (first.kind) {
      case Tok::kw_if:
        return if_statement();
      case Tok::kw_for:
        return binder_statement(StmtKind::for_);
      case Tok::kw_choose:
        return binder_statement(StmtKind::choose);
      case Tok::kw_pick:
        return binder_statement(StmtKind::pick);
      case Tok::identifier:
        break;
      default:
        fail_expected("statement", first);
        return nullptr;
    }
    if (first.text == "skip") {
      const Tok after = tokens_[pos_ + 1].kind;
      if (after == Tok::newline || after == Tok::semicolon || ends_block(after)) {
        auto s = std::make_unique<Stmt>();
        s->kind = StmtKind::skip;
        s->where = token_span(advance());
        return s;
      }
    }
    const std::uint32_t begin = first.offset;
    ExprPtr target = parse_postfix();
    if (!target) return nullptr;
    // A complete call followed by a line break is a call statement; anything
    // else still needs its assignment operator, possibly on the next line.
    const bool assignment = (!at_newline() && is_assign(peek().kind)) ||
                            (target->kind != ExprKind::call && is_assign(peek().kind));
    if (!assignment) {
      if (target->kind == ExprKind::call) {
        auto s = std::make_unique<Stmt>();
        s->kind = StmtKind::call;
        s->where = target->where;
        s->text = std::move(target->text);
        s->args = std::move(target->args);
        return s;
      }
      fail(token_span(peek()), "expected ':=', '+=' or '-=' after '" +
                                   std::string(text_.substr(begin, prev_end_ - begin)) +
                                   "', found " + describe(peek()));
      return nullptr;
    }
    const Token op = advance();
    ExprPtr value = expression();
    if (!value) return nullptr;
    auto s = std::make_unique<Stmt>();
    s->kind = StmtKind::assign;
    s->op = op.kind == Tok::assign ? Op::none : op.kind == Tok::plus_assign ? Op::add : Op::sub;
    s->target = std::move(target);
    s->value = std::move(value);
    s->where = since(begin);
    return s;
  }

  StmtPtr if_statement() {
    const Token keyword = advance();
    auto s = std::make_unique<Stmt>();
    s->kind = StmtKind::if_;
    bool has_condition = true;  // false once inside `else`
    for (;;) {
      if (has_condition) {
        ExprPtr cond = expression();
        if (!cond) return nullptr;
        if (!accept(Tok::kw_then)) {
          fail_expected("'then' after condition", peek());
          return nullptr;
        }
        s->conds.push_back(std::move(cond));
      }
      StmtPtr body = statement_list();
      if (!body) return nullptr;
      s->bodies.push_back(std::move(body));
      const Tok next = peek().kind;
      if (has_condition && next == Tok::kw_elif) {
        advance();
        continue;
      }
      if (has_condition && next == Tok::kw_else) {
        advance();
        has_condition = false;
        continue;
      }
      if (!close_block(keyword)) return nullptr;
      break;
    }
    s->where = since(keyword.offset);
    return s;
  }

  // for / choose / pick: `x in D [where c] do S end` (`where` not for `for`);
  // a pick may name its chooser, `pick x in D [where c] by P do S end` (`by`
  // is a word only there, so it stays free as a name elsewhere).
  StmtPtr binder_statement(StmtKind kind) {
    const Token keyword = advance();
    auto s = std::make_unique<Stmt>();
    s->kind = kind;
    if (!binder_and_domain(keyword, s->text, s->domain, s->domain_bounds)) return nullptr;
    bool conditioned = false;
    if (kind != StmtKind::for_ && accept(Tok::kw_where)) {
      ExprPtr cond = expression();
      if (!cond) return nullptr;
      s->conds.push_back(std::move(cond));
      conditioned = true;
    }
    bool chooser = false;
    if (kind == StmtKind::choose && peek().kind == Tok::identifier && peek().text == "by") {
      fail(token_span(peek()),
           "'by' names who picks, and only a pick has a chooser: a choose is nature's; write "
           "'pick ... by P'");
      return nullptr;
    }
    if (kind == StmtKind::pick && peek().kind == Tok::identifier && peek().text == "by") {
      advance();
      ExprPtr who = expression();
      if (!who) return nullptr;
      s->args.push_back(std::move(who));
      chooser = true;
    }
    if (!accept(Tok::kw_do)) {
      fail_expected(chooser       ? "'do' after the chooser"
                    : conditioned ? "'do' after condition"
                                  : "'do' after domain",
                    peek());
      return nullptr;
    }
    StmtPtr body = statement_list();
    if (!body) return nullptr;
    s->bodies.push_back(std::move(body));
    if (!close_block(keyword)) return nullptr;
    s->where = since(keyword.offset);
    return s;
  }

  std::string_view text_;
  const TextOrigin& origin_;
  DiagnosticSink& sink_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  std::uint32_t prev_end_ = 0;
  int depth_ = 0;
  bool failed_ = false;
};

}  // namespace

ExprPtr parse_expr(std::string_view text, const TextOrigin& origin, DiagnosticSink& sink) {
  std::optional<std::vector<Token>> tokens = lex(text, origin, sink, /*keep_newlines=*/false);
  if (!tokens) return nullptr;
  Parser parser(text, origin, sink, std::move(*tokens));
  return parser.whole_expression();
}

StmtPtr parse_stmts(std::string_view text, const TextOrigin& origin, DiagnosticSink& sink) {
  std::optional<std::vector<Token>> tokens = lex(text, origin, sink, /*keep_newlines=*/true);
  if (!tokens) return nullptr;
  Parser parser(text, origin, sink, std::move(*tokens));
  return parser.whole_statements();
}

}  // namespace loophole::model
