// The expression and statement parser: precedence and associativity, every
// construct of docs/language.md (Expressions, Statements) as a canonical
// S-expression, source spans including multi-line TextOrigins, newline rules
// in statement lists, and every syntax error rendered exactly.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/expr.hpp"

namespace loophole::model {
namespace {

// --- helpers -----------------------------------------------------------------

std::string expr(std::string_view text) {
  DiagnosticSink sink;
  const ExprPtr e = parse_expr(text, TextOrigin::at_position("t.yaml", 1, 1), sink);
  EXPECT_EQ(e == nullptr, sink.has_errors());
  if (!e) return "<error: " + (sink.all().empty() ? std::string() : sink.all()[0].message) + ">";
  return to_string(*e);
}

std::string stmts(std::string_view text) {
  DiagnosticSink sink;
  const StmtPtr s = parse_stmts(text, TextOrigin::at_position("t.yaml", 1, 1), sink);
  EXPECT_EQ(s == nullptr, sink.has_errors());
  if (!s) return "<error: " + (sink.all().empty() ? std::string() : sink.all()[0].message) + ">";
  return to_string(*s);
}

// Parses `text` as the value of `when: ` on line 1 of r.yaml and returns the
// rendered diagnostics (exactly one is expected).
std::string expr_error(const std::string& text) {
  SourceManager sources;
  sources.add("r.yaml", "when: " + text + "\n");
  DiagnosticSink sink;
  EXPECT_EQ(parse_expr(text, TextOrigin::at_position("r.yaml", 1, 7), sink), nullptr);
  EXPECT_EQ(sink.all().size(), 1U);
  return sink.render(sources);
}

// The same for a statement list written as `do: ` on line 1.
std::string stmt_error(const std::string& text) {
  SourceManager sources;
  sources.add("r.yaml", "do: " + text + "\n");
  DiagnosticSink sink;
  EXPECT_EQ(parse_stmts(text, TextOrigin::at_position("r.yaml", 1, 5), sink), nullptr);
  EXPECT_EQ(sink.all().size(), 1U);
  return sink.render(sources);
}

// A statement list in a YAML literal block: line 1 is `do: |`, and text line
// i sits on file line i + 2 at column 3.
struct Block {
  std::string text;
  std::string file = "do: |\n";
  TextOrigin origin{"r.yaml", {}};
  explicit Block(const std::vector<std::string>& lines) {
    std::uint32_t line = 2;
    for (const std::string& l : lines) {
      text += l + "\n";
      file += "  " + l + "\n";
      origin.lines.push_back({line++, 3});
    }
  }
};

std::string block_error(const std::vector<std::string>& lines) {
  const Block b(lines);
  SourceManager sources;
  sources.add("r.yaml", b.file);
  DiagnosticSink sink;
  EXPECT_EQ(parse_stmts(b.text, b.origin, sink), nullptr);
  EXPECT_EQ(sink.all().size(), 1U);
  return sink.render(sources);
}

std::string pos(const SourceSpan& s) {
  return std::to_string(s.line) + ":" + std::to_string(s.col) + "+" + std::to_string(s.length);
}

std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// --- expressions: literals and names ------------------------------------------

TEST(ParserExpr, Literals) {
  EXPECT_EQ(expr("3"), "(int 3)");
  EXPECT_EQ(expr("0"), "(int 0)");
  EXPECT_EQ(expr("2147483647"), "(int 2147483647)");
  EXPECT_EQ(expr("true"), "(bool true)");
  EXPECT_EQ(expr("false"), "(bool false)");
}

TEST(ParserExpr, NamesStayUnresolved) {
  EXPECT_EQ(expr("coins"), "(name coins)");
  EXPECT_EQ(expr("active"), "(name active)");
  EXPECT_EQ(expr("P2"), "(name P2)");
  EXPECT_EQ(expr("players"), "(name players)");
}

TEST(ParserExpr, Postfix) {
  EXPECT_EQ(expr("life[p]"), "(index (name life) (name p))");
  EXPECT_EQ(expr("field[p][i].damage"),
            "(field (index (index (name field) (name p)) (name i)) damage)");
  EXPECT_EQ(expr("status.ready"), "(field (name status) ready)");
  EXPECT_EQ(expr("life[next(active)]"), "(index (name life) (call next (name active)))");
  EXPECT_EQ(expr("x[a + 1]"), "(index (name x) (+ (name a) (int 1)))");
}

TEST(ParserExpr, Calls) {
  EXPECT_EQ(expr("f()"), "(call f)");
  EXPECT_EQ(expr("min(a, b)"), "(call min (name a) (name b))");
  EXPECT_EQ(expr("clamp(x, 0, 5)"), "(call clamp (name x) (int 0) (int 5))");
  EXPECT_EQ(expr("abs(-x)"), "(call abs (- (name x)))");
  EXPECT_EQ(expr("max(0, life[p] - 3)"),
            "(call max (int 0) (- (index (name life) (name p)) (int 3)))");
  EXPECT_EQ(expr("next(next(p))"), "(call next (call next (name p)))");
}

TEST(ParserExpr, ZoneCounts) {
  EXPECT_EQ(expr("count(hand[p])"), "(call count (index (name hand) (name p)))");
  EXPECT_EQ(expr("count(hand[p], spark)"),
            "(call count (index (name hand) (name p)) (name spark))");
  EXPECT_EQ(expr("count(world, tag action)"), "(call count (name world) (call tag (name action)))");
  EXPECT_EQ(expr("count(deck[self]) == 0"),
            "(== (call count (index (name deck) (name self))) (int 0))");
}

// --- expressions: precedence and associativity --------------------------------

TEST(ParserExpr, ArithmeticPrecedence) {
  EXPECT_EQ(expr("a + 3 * b"), "(+ (name a) (* (int 3) (name b)))");
  EXPECT_EQ(expr("a * 3 + b"), "(+ (* (name a) (int 3)) (name b))");
  EXPECT_EQ(expr("(a + 3) * b"), "(* (+ (name a) (int 3)) (name b))");
  EXPECT_EQ(expr("a - b / c % d"), "(- (name a) (% (/ (name b) (name c)) (name d)))");
}

TEST(ParserExpr, LeftAssociative) {
  EXPECT_EQ(expr("a - b - c"), "(- (- (name a) (name b)) (name c))");
  EXPECT_EQ(expr("a / b / c"), "(/ (/ (name a) (name b)) (name c))");
  EXPECT_EQ(expr("a - b + c"), "(+ (- (name a) (name b)) (name c))");
  EXPECT_EQ(expr("a and b and c"), "(and (and (name a) (name b)) (name c))");
  EXPECT_EQ(expr("a or b or c"), "(or (or (name a) (name b)) (name c))");
}

TEST(ParserExpr, UnaryMinus) {
  EXPECT_EQ(expr("-a * b"), "(* (- (name a)) (name b))");
  EXPECT_EQ(expr("- -a"), "(- (- (name a)))");
  EXPECT_EQ(expr("a - -1"), "(- (name a) (- (int 1)))");
  EXPECT_EQ(expr("a * -b"), "(* (name a) (- (name b)))");
  EXPECT_EQ(expr("-life[p]"), "(- (index (name life) (name p)))");
  EXPECT_EQ(expr("-2147483647"), "(- (int 2147483647))");
}

TEST(ParserExpr, BooleanPrecedence) {
  EXPECT_EQ(expr("not a and b or c"), "(or (and (not (name a)) (name b)) (name c))");
  EXPECT_EQ(expr("a or b and c"), "(or (name a) (and (name b) (name c)))");
  EXPECT_EQ(expr("not not a"), "(not (not (name a)))");
  EXPECT_EQ(expr("not a == b"), "(not (== (name a) (name b)))");
  EXPECT_EQ(expr("a and not b"), "(and (name a) (not (name b)))");
  EXPECT_EQ(expr("not (a or b)"), "(not (or (name a) (name b)))");
}

TEST(ParserExpr, Comparisons) {
  EXPECT_EQ(expr("a == b"), "(== (name a) (name b))");
  EXPECT_EQ(expr("a != b"), "(!= (name a) (name b))");
  EXPECT_EQ(expr("a < b"), "(< (name a) (name b))");
  EXPECT_EQ(expr("a <= b"), "(<= (name a) (name b))");
  EXPECT_EQ(expr("a > b"), "(> (name a) (name b))");
  EXPECT_EQ(expr("a >= b"), "(>= (name a) (name b))");
  EXPECT_EQ(expr("a + 1 < b * 2"), "(< (+ (name a) (int 1)) (* (name b) (int 2)))");
  EXPECT_EQ(expr("a == b and c != d"), "(and (== (name a) (name b)) (!= (name c) (name d)))");
  EXPECT_EQ(expr("(a < b) == c"), "(== (< (name a) (name b)) (name c))");
}

// --- expressions: conditionals and quantifiers --------------------------------

TEST(ParserExpr, Conditional) {
  EXPECT_EQ(expr("if a then 1 else 2"), "(if (name a) (int 1) (int 2))");
  EXPECT_EQ(expr("if a then 1 elif b then 2 else 3"),
            "(if (name a) (int 1) (if (name b) (int 2) (int 3)))");
  EXPECT_EQ(expr("1 + if a then 2 else 3 + 4"),
            "(+ (int 1) (if (name a) (int 2) (+ (int 3) (int 4))))");
  EXPECT_EQ(expr("(if a then 2 else 3) + 4"), "(+ (if (name a) (int 2) (int 3)) (int 4))");
  EXPECT_EQ(expr("if if a then b else c then 1 else 2"),
            "(if (if (name a) (name b) (name c)) (int 1) (int 2))");
}

TEST(ParserExpr, Quantifiers) {
  EXPECT_EQ(expr("exists p in players: life[p] > 0"),
            "(exists p players (> (index (name life) (name p)) (int 0)))");
  EXPECT_EQ(expr("forall p in others: not locked[p]"),
            "(forall p others (not (index (name locked) (name p))))");
  EXPECT_EQ(expr("count x in 1..3: x > 1"),
            "(count x (range (int 1) (int 3)) (> (name x) (int 1)))");
  EXPECT_EQ(expr("sum k in kinds: count(hand[p], k)"),
            "(sum k kinds (call count (index (name hand) (name p)) (name k)))");
}

TEST(ParserExpr, Domains) {
  EXPECT_EQ(expr("exists k in kinds tag unit: true"), "(exists k (kinds tag unit) (bool true))");
  EXPECT_EQ(expr("forall s in status: s != out"),
            "(forall s (enum status) (!= (name s) (name out)))");
  EXPECT_EQ(expr("exists i in 0..count(hand[p]) - 1: i == n"),
            "(exists i (range (int 0) (- (call count (index (name hand) (name p))) (int 1))) (== "
            "(name i) "
            "(name n)))");
  EXPECT_EQ(expr("exists i in -1..deck: true"),
            "(exists i (range (- (int 1)) (name deck)) (bool true))");
  EXPECT_EQ(expr("exists i in (a)..(b + 1): true"),
            "(exists i (range (name a) (+ (name b) (int 1))) (bool true))");
}

TEST(ParserExpr, QuantifierBodyExtendsRight) {
  EXPECT_EQ(expr("exists p in players: a and b"), "(exists p players (and (name a) (name b)))");
  EXPECT_EQ(expr("a or exists p in players: b or c"),
            "(or (name a) (exists p players (or (name b) (name c))))");
  EXPECT_EQ(expr("(count x in 1..3: x > 1) >= 2"),
            "(>= (count x (range (int 1) (int 3)) (> (name x) (int 1))) (int 2))");
  EXPECT_EQ(expr("forall p in players: exists q in others: x[p] < x[q]"),
            "(forall p players (exists q others (< (index (name x) (name p)) (index (name x) (name "
            "q)))))");
}

TEST(ParserExpr, CountCallVersusCountQuantifier) {
  EXPECT_EQ(expr("count(x)"), "(call count (name x))");
  EXPECT_EQ(expr("count x in players: true"), "(count x players (bool true))");
  EXPECT_EQ(expr("count (x)"), "(call count (name x))");
}

TEST(ParserExpr, DomainFields) {
  DiagnosticSink sink;
  const ExprPtr e =
      parse_expr("count x in 1 .. n: x", TextOrigin::at_position("r.yaml", 2, 10), sink);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->kind, ExprKind::quant);
  EXPECT_EQ(e->op, Op::count);
  EXPECT_EQ(e->text, "x");
  EXPECT_EQ(e->domain.kind, Domain::Kind::range);
  EXPECT_EQ(e->domain.text, "1 .. n");
  EXPECT_EQ(pos(e->domain.where), "2:21+6");
  ASSERT_EQ(e->domain_bounds.size(), 2U);
  EXPECT_EQ(e->domain.lo_expr, e->domain_bounds[0].get());
  EXPECT_EQ(e->domain.hi_expr, e->domain_bounds[1].get());
  EXPECT_EQ(e->domain_bounds[1]->text, "n");

  const ExprPtr tagged =
      parse_expr("exists k in kinds tag unit: true", TextOrigin::at_position("r", 1, 1), sink);
  ASSERT_NE(tagged, nullptr);
  EXPECT_EQ(tagged->domain.kind, Domain::Kind::kinds_tagged);
  EXPECT_EQ(tagged->domain.text, "unit");
  EXPECT_EQ(pos(tagged->domain.where), "1:13+14");
  EXPECT_EQ(tagged->domain.lo_expr, nullptr);
  EXPECT_TRUE(tagged->domain_bounds.empty());

  const ExprPtr enums =
      parse_expr("exists s in status: true", TextOrigin::at_position("r", 1, 1), sink);
  ASSERT_NE(enums, nullptr);
  EXPECT_EQ(enums->domain.kind, Domain::Kind::enum_values);
  EXPECT_EQ(enums->domain.text, "status");
  EXPECT_FALSE(sink.has_errors());
}

TEST(ParserExpr, NewlinesAndCommentsAreWhitespace) {
  EXPECT_EQ(expr("a +\n b"), "(+ (name a) (name b))");
  EXPECT_EQ(expr("a\n + b"), "(+ (name a) (name b))");
  EXPECT_EQ(expr("a # first\n and b # second"), "(and (name a) (name b))");
}

// --- expressions: spans --------------------------------------------------------

TEST(ParserSpans, WholeExtentOfEachNode) {
  DiagnosticSink sink;
  const ExprPtr e = parse_expr("a + bb * 3", TextOrigin::at_position("r.yaml", 3, 10), sink);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->where.file, "r.yaml");
  EXPECT_EQ(pos(e->where), "3:10+10");
  EXPECT_EQ(pos(e->args[0]->where), "3:10+1");
  EXPECT_EQ(pos(e->args[1]->where), "3:14+6");
  EXPECT_EQ(pos(e->args[1]->args[0]->where), "3:14+2");
  EXPECT_EQ(pos(e->args[1]->args[1]->where), "3:19+1");
}

TEST(ParserSpans, ParenthesesBelongToTheEnclosingOperator) {
  DiagnosticSink sink;
  const ExprPtr e = parse_expr("(a + b) * c", TextOrigin::at_position("r", 1, 1), sink);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(pos(e->where), "1:1+11");
  EXPECT_EQ(pos(e->args[0]->where), "1:2+5");
}

TEST(ParserSpans, PostfixCallsAndPrefix) {
  DiagnosticSink sink;
  const ExprPtr e =
      parse_expr("not count(hand[p], tag x) > -1", TextOrigin::at_position("r", 1, 1), sink);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(pos(e->where), "1:1+30");  // not ...
  const Expr& cmp = *e->args[0];
  EXPECT_EQ(pos(cmp.where), "1:5+26");                    // count(...) > -1
  EXPECT_EQ(pos(cmp.args[0]->where), "1:5+21");           // count(...)
  EXPECT_EQ(pos(cmp.args[0]->args[0]->where), "1:11+7");  // hand[p]
  EXPECT_EQ(pos(cmp.args[0]->args[1]->where), "1:20+5");  // tag x
  EXPECT_EQ(pos(cmp.args[1]->where), "1:29+2");           // -1
}

TEST(ParserSpans, QuantifierAndConditional) {
  DiagnosticSink sink;
  const ExprPtr q = parse_expr("exists p in players: x", TextOrigin::at_position("r", 1, 1), sink);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(pos(q->where), "1:1+22");
  const ExprPtr c = parse_expr("if a then b else c", TextOrigin::at_position("r", 1, 1), sink);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(pos(c->where), "1:1+18");
}

TEST(ParserSpans, MultiLineOrigin) {
  // A folded or literal scalar: each line has its own start in the file.
  const TextOrigin origin{"r.yaml", {{4, 7}, {5, 9}}};
  DiagnosticSink sink;
  const ExprPtr e = parse_expr("a +\n  bb", origin, sink);
  ASSERT_NE(e, nullptr);
  // The span starts at the left operand and is clipped at the end of its line.
  EXPECT_EQ(pos(e->where), "4:7+3");
  EXPECT_EQ(pos(e->args[1]->where), "5:11+2");
}

// --- statements ----------------------------------------------------------------

TEST(ParserStmt, Assignments) {
  EXPECT_EQ(stmts("x := 1"), "(block (assign := (name x) (int 1)))");
  EXPECT_EQ(stmts("coins += 2"), "(block (assign += (name coins) (int 2)))");
  EXPECT_EQ(stmts("life[p] -= 3"), "(block (assign -= (index (name life) (name p)) (int 3)))");
  EXPECT_EQ(stmts("field[p][0].damage := min(3, field[p][0].damage + 1)"),
            "(block (assign := (field (index (index (name field) (name p)) (int 0)) damage) (call "
            "min (int 3) "
            "(+ (field (index (index (name field) (name p)) (int 0)) damage) (int 1)))))");
  EXPECT_EQ(stmts("x := if a then 1 else 2"),
            "(block (assign := (name x) (if (name a) (int 1) (int 2))))");
  EXPECT_EQ(stmts("b := x > 1 and y"),
            "(block (assign := (name b) (and (> (name x) (int 1)) (name y))))");
}

TEST(ParserStmt, AssignOps) {
  DiagnosticSink sink;
  const StmtPtr s = parse_stmts("a := 1; b += 2; c -= 3", TextOrigin::at_position("r", 1, 1), sink);
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->bodies.size(), 3U);
  EXPECT_EQ(s->bodies[0]->kind, StmtKind::assign);
  EXPECT_EQ(s->bodies[0]->op, Op::none);
  EXPECT_EQ(s->bodies[1]->op, Op::add);
  EXPECT_EQ(s->bodies[2]->op, Op::sub);
  EXPECT_EQ(s->bodies[2]->target->text, "c");
  EXPECT_EQ(s->bodies[2]->value->value, 3);
}

TEST(ParserStmt, Calls) {
  EXPECT_EQ(
      stmts("draw(active, max(0, 6 - count(hand[active])))"),
      "(block (call draw (name active) (call max (int 0) (- (int 6) (call count (index (name hand) "
      "(name active)))))))");
  EXPECT_EQ(stmts("move(hand[p], discard[p], spark, 1)"),
            "(block (call move (index (name hand) (name p)) (index (name discard) (name p)) (name "
            "spark) (int 1)))");
  EXPECT_EQ(stmts("fire(discovered)"), "(block (call fire (name discovered)))");
  EXPECT_EQ(stmts("win(self); lose(opponent)"),
            "(block (call win (name self)) (call lose (name opponent)))");
  EXPECT_EQ(stmts("negate()"), "(block (call negate))");
  EXPECT_EQ(stmts("shuffle(deck[p])"), "(block (call shuffle (index (name deck) (name p))))");
}

TEST(ParserStmt, CallStatementFields) {
  DiagnosticSink sink;
  const StmtPtr s = parse_stmts("draw(p, 2)", TextOrigin::at_position("r", 1, 1), sink);
  ASSERT_NE(s, nullptr);
  const Stmt& call = *s->bodies.at(0);
  EXPECT_EQ(call.kind, StmtKind::call);
  EXPECT_EQ(call.text, "draw");
  ASSERT_EQ(call.args.size(), 2U);
  EXPECT_EQ(call.args[1]->value, 2);
  EXPECT_EQ(pos(call.where), "1:1+10");
}

TEST(ParserStmt, Skip) {
  EXPECT_EQ(stmts("skip"), "(block (skip))");
  EXPECT_EQ(stmts("skip; skip\nskip"), "(block (skip) (skip) (skip))");
  EXPECT_EQ(stmts("if a then skip else skip end"),
            "(block (if (name a) (block (skip)) (block (skip))))");
  // `skip` is no keyword: it can still be a variable.
  EXPECT_EQ(stmts("skip := 1"), "(block (assign := (name skip) (int 1)))");
}

TEST(ParserStmt, EmptyLists) {
  EXPECT_EQ(stmts(""), "(block)");
  EXPECT_EQ(stmts("  \n\n "), "(block)");
  EXPECT_EQ(stmts("# nothing to do"), "(block)");
  EXPECT_EQ(stmts(";;"), "(block)");
  EXPECT_EQ(stmts("if a then end"), "(block (if (name a) (block)))");
}

TEST(ParserStmt, Separators) {
  const std::string two = "(block (assign := (name x) (int 1)) (assign := (name y) (int 2)))";
  EXPECT_EQ(stmts("x := 1; y := 2"), two);
  EXPECT_EQ(stmts("x := 1\ny := 2"), two);
  EXPECT_EQ(stmts("x := 1;\n\n y := 2;"), two);
  EXPECT_EQ(stmts("\n  x := 1   # one\n  y := 2   # two\n"), two);
}

TEST(ParserStmt, NewlineEndsOnlyCompleteStatements) {
  EXPECT_EQ(stmts("x := a +\n b"), "(block (assign := (name x) (+ (name a) (name b))))");
  EXPECT_EQ(stmts("x := a and\n b"), "(block (assign := (name x) (and (name a) (name b))))");
  EXPECT_EQ(stmts("x := f(a,\n b)"), "(block (assign := (name x) (call f (name a) (name b))))");
  EXPECT_EQ(stmts("x :=\n 1"), "(block (assign := (name x) (int 1)))");
  EXPECT_EQ(stmts("x\n := 1"), "(block (assign := (name x) (int 1)))");
  EXPECT_EQ(stmts("draw(p, 1)\nx := 1"),
            "(block (call draw (name p) (int 1)) (assign := (name x) (int 1)))");
  EXPECT_EQ(stmts("x := a\ny[1] := 2"),
            "(block (assign := (name x) (name a)) (assign := (index (name y) (int 1)) (int 2)))");
  EXPECT_EQ(stmts("if a\n then\n x := 1\n end"),
            "(block (if (name a) (block (assign := (name x) (int 1)))))");
}

TEST(ParserStmt, If) {
  EXPECT_EQ(stmts("if a then x := 1 end"),
            "(block (if (name a) (block (assign := (name x) (int 1)))))");
  EXPECT_EQ(stmts("if a then x := 1 else x := 2 end"),
            "(block (if (name a) (block (assign := (name x) (int 1))) (block (assign := (name x) "
            "(int 2)))))");
  EXPECT_EQ(stmts("if a then skip elif b then x := 1 elif c then x := 2 else x := 3 end"),
            "(block (if (name a) (block (skip)) (name b) (block (assign := (name x) (int 1))) "
            "(name c) (block "
            "(assign := (name x) (int 2))) (block (assign := (name x) (int 3)))))");
  EXPECT_EQ(stmts("if a then if b then skip end end"),
            "(block (if (name a) (block (if (name b) (block (skip))))))");
}

TEST(ParserStmt, IfShape) {
  DiagnosticSink sink;
  const StmtPtr s = parse_stmts("if a then skip elif b then skip else skip end",
                                TextOrigin::at_position("r", 1, 1), sink);
  ASSERT_NE(s, nullptr);
  const Stmt& i = *s->bodies.at(0);
  EXPECT_EQ(i.kind, StmtKind::if_);
  EXPECT_EQ(i.conds.size(), 2U);
  EXPECT_EQ(i.bodies.size(), 3U);  // conds + else
  EXPECT_EQ(i.bodies[2]->kind, StmtKind::block);
  EXPECT_EQ(pos(i.where), "1:1+45");
}

TEST(ParserStmt, MultiLineIf) {
  EXPECT_EQ(stmts("if count(hand[active]) > 7 then\n"
                  "  move(hand[active], discard[active], 1)\n"
                  "elif coins == 0 then\n"
                  "  coins := 1\n"
                  "  fire(broke)\n"
                  "else\n"
                  "  skip\n"
                  "end\n"),
            "(block (if (> (call count (index (name hand) (name active))) (int 7)) (block (call "
            "move (index (name "
            "hand) (name active)) (index (name discard) (name active)) (int 1))) (== (name coins) "
            "(int 0)) (block "
            "(assign := (name coins) (int 1)) (call fire (name broke))) (block (skip))))");
}

TEST(ParserStmt, For) {
  EXPECT_EQ(stmts("for p in players do life[p] -= 1 end"),
            "(block (for p players (block (assign -= (index (name life) (name p)) (int 1)))))");
  EXPECT_EQ(stmts("for i in 0..2 do field[self][i].status := ready end"),
            "(block (for i (range (int 0) (int 2)) (block (assign := (field (index (index (name "
            "field) (name "
            "self)) (name i)) status) (name ready)))))");
  EXPECT_EQ(stmts("for k in kinds tag unit do skip end"),
            "(block (for k (kinds tag unit) (block (skip))))");
}

TEST(ParserStmt, ChooseAndPick) {
  EXPECT_EQ(stmts("choose c in 0..1 do coins += c end"),
            "(block (choose c (range (int 0) (int 1)) (block (assign += (name coins) (name c)))))");
  EXPECT_EQ(stmts("choose p in players where life[p] > 0 do lose(p) end"),
            "(block (choose p players (where (> (index (name life) (name p)) (int 0))) (block "
            "(call lose (name "
            "p)))))");
  EXPECT_EQ(stmts("pick k in kinds where count(hand[self], k) > 0 do move(hand[self], "
                  "discard[self], k, 1) end"),
            "(block (pick k kinds (where (> (call count (index (name hand) (name self)) (name k)) "
            "(int 0))) "
            "(block (call move (index (name hand) (name self)) (index (name discard) (name self)) "
            "(name k) (int "
            "1)))))");
  EXPECT_EQ(stmts("pick s in status do mode := s end"),
            "(block (pick s (enum status) (block (assign := (name mode) (name s)))))");
}

TEST(ParserStmt, BinderStatementFields) {
  DiagnosticSink sink;
  const StmtPtr s = parse_stmts("choose p in others where x do skip end; for i in 1..n do skip end",
                                TextOrigin::at_position("r", 1, 1), sink);
  ASSERT_NE(s, nullptr);
  const Stmt& choose = *s->bodies.at(0);
  EXPECT_EQ(choose.kind, StmtKind::choose);
  EXPECT_EQ(choose.text, "p");
  EXPECT_EQ(choose.domain.kind, Domain::Kind::others);
  ASSERT_EQ(choose.conds.size(), 1U);
  ASSERT_EQ(choose.bodies.size(), 1U);
  EXPECT_EQ(pos(choose.where), "1:1+38");
  const Stmt& loop = *s->bodies.at(1);
  EXPECT_EQ(loop.kind, StmtKind::for_);
  EXPECT_TRUE(loop.conds.empty());
  ASSERT_EQ(loop.domain_bounds.size(), 2U);
  EXPECT_EQ(loop.domain.hi_expr, loop.domain_bounds[1].get());
  EXPECT_EQ(loop.domain.text, "1..n");
}

TEST(ParserStmt, SpansInLiteralBlock) {
  const Block b({"x := 1", "if a then", "  y := x +", "       2", "end"});
  DiagnosticSink sink;
  const StmtPtr s = parse_stmts(b.text, b.origin, sink);
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->bodies.size(), 2U);
  EXPECT_EQ(pos(s->where), "2:3+6");             // clipped to its first line
  EXPECT_EQ(pos(s->bodies[0]->where), "2:3+6");  // x := 1
  EXPECT_EQ(pos(s->bodies[1]->where), "3:3+9");  // if a then ... (first line)
  const Stmt& assign = *s->bodies[1]->bodies[0]->bodies[0];
  EXPECT_EQ(pos(assign.where), "4:5+8");                   // y := x + ...
  EXPECT_EQ(pos(assign.value->args[1]->where), "5:10+1");  // 2
}

// --- errors --------------------------------------------------------------------

TEST(ParserErrors, ExpectedThen) {
  EXPECT_EQ(stmt_error("if a do x := 1 end"),
            "r.yaml:1:10: error: expected 'then' after condition, found 'do'\n"
            "    1 | do: if a do x := 1 end\n"
            "      |          ^~\n");
  EXPECT_EQ(expr_error("if a else b"),
            "r.yaml:1:12: error: expected 'then' after condition, found 'else'\n"
            "    1 | when: if a else b\n"
            "      |            ^~~~\n");
}

TEST(ParserErrors, UnexpectedEnd) {
  EXPECT_EQ(expr_error("a +"),
            "r.yaml:1:10: error: unexpected end of expression\n"
            "    1 | when: a +\n"
            "      |          ^\n");
  EXPECT_EQ(expr_error(""),
            "r.yaml:1:7: error: unexpected end of expression\n"
            "    1 | when: \n"
            "      |       ^\n");
  EXPECT_EQ(stmt_error("x := "),
            "r.yaml:1:9: error: unexpected end of expression\n"
            "    1 | do: x := \n"
            "      |         ^\n");
}

TEST(ParserErrors, UnexpectedEndPointsAfterLastTokenNotPastComments) {
  SourceManager sources;
  sources.add("r.yaml", "when: >\n  a and  # more\n\n");
  DiagnosticSink sink;
  EXPECT_EQ(parse_expr("a and  # more\n", TextOrigin{"r.yaml", {{2, 3}, {3, 1}}}, sink), nullptr);
  EXPECT_EQ(sink.render(sources),
            "r.yaml:2:8: error: unexpected end of expression\n"
            "    2 |   a and  # more\n"
            "      |        ^\n");
}

TEST(ParserErrors, UnterminatedIfPointsAtTheIf) {
  EXPECT_EQ(block_error({"x := 1", "if a then", "  y := 2", "z := 3"}),
            "r.yaml:3:3: error: unterminated 'if': expected 'end'\n"
            "    3 |   if a then\n"
            "      |   ^~\n");
  EXPECT_EQ(stmt_error("if a then x := 1 else x := 2"),
            "r.yaml:1:5: error: unterminated 'if': expected 'end'\n"
            "    1 | do: if a then x := 1 else x := 2\n"
            "      |     ^~\n");
}

TEST(ParserErrors, UnterminatedLoops) {
  EXPECT_EQ(stmt_error("for p in players do skip"),
            "r.yaml:1:5: error: unterminated 'for': expected 'end'\n"
            "    1 | do: for p in players do skip\n"
            "      |     ^~~\n");
  EXPECT_EQ(stmt_error("choose c in 0..1 do skip"),
            "r.yaml:1:5: error: unterminated 'choose': expected 'end'\n"
            "    1 | do: choose c in 0..1 do skip\n"
            "      |     ^~~~~~\n");
  EXPECT_EQ(stmt_error("x := 1; pick k in kinds do"),
            "r.yaml:1:13: error: unterminated 'pick': expected 'end'\n"
            "    1 | do: x := 1; pick k in kinds do\n"
            "      |             ^~~~\n");
  // The innermost unterminated construct is the one reported.
  EXPECT_EQ(stmt_error("if a then for p in players do skip end"),
            "r.yaml:1:5: error: unterminated 'if': expected 'end'\n"
            "    1 | do: if a then for p in players do skip end\n"
            "      |     ^~\n");
}

TEST(ParserErrors, WrongCloser) {
  EXPECT_EQ(stmt_error("for p in players do skip else skip end"),
            "r.yaml:1:30: error: expected 'end' to close 'for', found 'else'\n"
            "    1 | do: for p in players do skip else skip end\n"
            "      |                              ^~~~\n");
  EXPECT_EQ(stmt_error("if a then skip else skip elif b then skip end"),
            "r.yaml:1:30: error: expected 'end' to close 'if', found 'elif'\n"
            "    1 | do: if a then skip else skip elif b then skip end\n"
            "      |                              ^~~~\n");
}

TEST(ParserErrors, UnexpectedCharacter) {
  EXPECT_EQ(expr_error("coins $ 2"),
            "r.yaml:1:13: error: unexpected character '$'\n"
            "    1 | when: coins $ 2\n"
            "      |             ^\n");
  EXPECT_EQ(stmt_error("x = 1"),
            "r.yaml:1:7: error: unexpected character '='\n"
            "    1 | do: x = 1\n"
            "      |       ^\n"
            "note: use ':=' to assign or '==' to compare\n");
}

TEST(ParserErrors, ChainedComparison) {
  EXPECT_EQ(expr_error("a < b < c"),
            "r.yaml:1:13: error: comparisons cannot be chained; use 'and' to combine them\n"
            "    1 | when: a < b < c\n"
            "      |             ^\n");
  EXPECT_EQ(expr_error("a == b != c"),
            "r.yaml:1:14: error: comparisons cannot be chained; use 'and' to combine them\n"
            "    1 | when: a == b != c\n"
            "      |              ^~\n");
}

TEST(ParserErrors, UnclosedBrackets) {
  EXPECT_EQ(expr_error("(a + b"),
            "r.yaml:1:13: error: expected ')', found end of expression\n"
            "    1 | when: (a + b\n"
            "      |             ^\n"
            "r.yaml:1:7: note: to match this '('\n"
            "    1 | when: (a + b\n"
            "      |       ^\n");
  EXPECT_EQ(expr_error("life[p > 0"),
            "r.yaml:1:17: error: expected ']', found end of expression\n"
            "    1 | when: life[p > 0\n"
            "      |                 ^\n"
            "r.yaml:1:11: note: to match this '['\n"
            "    1 | when: life[p > 0\n"
            "      |           ^\n");
  EXPECT_EQ(expr_error("min(a b)"),
            "r.yaml:1:13: error: expected ',' or ')' after argument, found 'b'\n"
            "    1 | when: min(a b)\n"
            "      |             ^\n"
            "r.yaml:1:10: note: to match this '('\n"
            "    1 | when: min(a b)\n"
            "      |          ^\n");
}

TEST(ParserErrors, MissingPieces) {
  EXPECT_EQ(expr_error("status."),
            "r.yaml:1:14: error: expected field name after '.', found end of expression\n"
            "    1 | when: status.\n"
            "      |              ^\n");
  EXPECT_EQ(expr_error("count(hand, tag 3)"),
            "r.yaml:1:23: error: expected tag name after 'tag', found '3'\n"
            "    1 | when: count(hand, tag 3)\n"
            "      |                       ^\n");
  EXPECT_EQ(expr_error("a * )"),
            "r.yaml:1:11: error: expected expression, found ')'\n"
            "    1 | when: a * )\n"
            "      |           ^\n");
  EXPECT_EQ(expr_error("a b"),
            "r.yaml:1:9: error: expected end of expression, found 'b'\n"
            "    1 | when: a b\n"
            "      |         ^\n");
  EXPECT_EQ(
      expr_error("if a then 1"),
      "r.yaml:1:18: error: expected 'else' in conditional expression, found end of expression\n"
      "    1 | when: if a then 1\n"
      "      |                  ^\n");
  EXPECT_EQ(expr_error("tag unit"),
            "r.yaml:1:7: error: expected expression, found 'tag'\n"
            "    1 | when: tag unit\n"
            "      |       ^~~\n");
  EXPECT_EQ(expr_error("a == not b"),
            "r.yaml:1:12: error: expected expression, found 'not'\n"
            "    1 | when: a == not b\n"
            "      |            ^~~\n");
}

TEST(ParserErrors, Quantifiers) {
  EXPECT_EQ(expr_error("exists (p) in players: true"),
            "r.yaml:1:14: error: expected variable name after 'exists', found '('\n"
            "    1 | when: exists (p) in players: true\n"
            "      |              ^\n");
  EXPECT_EQ(expr_error("forall p of players: true"),
            "r.yaml:1:16: error: expected 'in' after variable name, found 'of'\n"
            "    1 | when: forall p of players: true\n"
            "      |                ^~\n");
  EXPECT_EQ(expr_error("sum p in : 1"),
            "r.yaml:1:16: error: expected domain after 'in', found ':'\n"
            "    1 | when: sum p in : 1\n"
            "      |                ^\n");
  EXPECT_EQ(expr_error("exists c in hand[p]: c > 0"),
            "r.yaml:1:19: error: invalid domain 'hand[p]': expected 'players', 'others', 'kinds', "
            "'kinds tag t', "
            "an enum name or 'lo..hi'\n"
            "    1 | when: exists c in hand[p]: c > 0\n"
            "      |                   ^~~~~~~\n");
  EXPECT_EQ(expr_error("exists p in players true"),
            "r.yaml:1:27: error: expected ':' after domain, found 'true'\n"
            "    1 | when: exists p in players true\n"
            "      |                           ^~~~\n");
  EXPECT_EQ(expr_error("count k in kinds tag: 1"),
            "r.yaml:1:27: error: expected tag name after 'tag', found ':'\n"
            "    1 | when: count k in kinds tag: 1\n"
            "      |                           ^\n");
}

TEST(ParserErrors, BinderStatements) {
  EXPECT_EQ(stmt_error("for p in players x := 1 end"),
            "r.yaml:1:22: error: expected 'do' after domain, found 'x'\n"
            "    1 | do: for p in players x := 1 end\n"
            "      |                      ^\n");
  EXPECT_EQ(stmt_error("choose p in players where x > 0 then skip end"),
            "r.yaml:1:37: error: expected 'do' after condition, found 'then'\n"
            "    1 | do: choose p in players where x > 0 then skip end\n"
            "      |                                     ^~~~\n");
  // `for` has no `where`.
  EXPECT_EQ(stmt_error("for p in players where x do skip end"),
            "r.yaml:1:22: error: expected 'do' after domain, found 'where'\n"
            "    1 | do: for p in players where x do skip end\n"
            "      |                      ^~~~~\n");
  EXPECT_EQ(stmt_error("pick 3 in players do skip end"),
            "r.yaml:1:10: error: expected variable name after 'pick', found '3'\n"
            "    1 | do: pick 3 in players do skip end\n"
            "      |          ^\n");
}

TEST(ParserErrors, Statements) {
  EXPECT_EQ(stmt_error("3 := x"),
            "r.yaml:1:5: error: expected statement, found '3'\n"
            "    1 | do: 3 := x\n"
            "      |     ^\n");
  EXPECT_EQ(stmt_error("x := 1 end"),
            "r.yaml:1:12: error: expected statement, found 'end'\n"
            "    1 | do: x := 1 end\n"
            "      |            ^~~\n");
  EXPECT_EQ(stmt_error("coins == 1"),
            "r.yaml:1:11: error: expected ':=', '+=' or '-=' after 'coins', found '=='\n"
            "    1 | do: coins == 1\n"
            "      |           ^~\n");
  EXPECT_EQ(
      stmt_error("life[p]"),
      "r.yaml:1:12: error: expected ':=', '+=' or '-=' after 'life[p]', found end of expression\n"
      "    1 | do: life[p]\n"
      "      |            ^\n");
  EXPECT_EQ(stmt_error("x := 1 y := 2"),
            "r.yaml:1:12: error: expected ';' or newline after statement, found 'y'\n"
            "    1 | do: x := 1 y := 2\n"
            "      |            ^\n");
  EXPECT_EQ(stmt_error("draw(p, 1) draw(p, 1)"),
            "r.yaml:1:16: error: expected ';' or newline after statement, found 'draw'\n"
            "    1 | do: draw(p, 1) draw(p, 1)\n"
            "      |                ^~~~\n");
}

TEST(ParserErrors, NewlineEndsACompleteStatement) {
  EXPECT_EQ(block_error({"x := a", "+ b"}),
            "r.yaml:3:3: error: expected statement, found '+'\n"
            "    3 |   + b\n"
            "      |   ^\n");
  EXPECT_EQ(block_error({"if a then", "  x := 1", "else", "  y := 2", "elif b then", "end"}),
            "r.yaml:6:3: error: expected 'end' to close 'if', found 'elif'\n"
            "    6 |   elif b then\n"
            "      |   ^~~~\n");
}

TEST(ParserErrors, ErrorsOnContinuationLines) {
  EXPECT_EQ(block_error({"coins := coins +", "   (1 * )"}),
            "r.yaml:3:11: error: expected expression, found ')'\n"
            "    3 |      (1 * )\n"
            "      |           ^\n");
}

TEST(ParserErrors, OneDiagnosticPerParse) {
  DiagnosticSink sink;
  EXPECT_EQ(parse_expr("a + + ) ( ] if then", TextOrigin::at_position("r", 1, 1), sink), nullptr);
  EXPECT_EQ(sink.all().size(), 1U);
  EXPECT_EQ(parse_stmts("if for choose := ) end end", TextOrigin::at_position("r", 1, 1), sink),
            nullptr);
  EXPECT_EQ(sink.all().size(), 2U);
}

TEST(ParserErrors, NestingLimit) {
  EXPECT_EQ(expr(repeat("(", 100) + "1" + repeat(")", 100)), "(int 1)");
  EXPECT_EQ(expr(repeat("(", 300) + "1" + repeat(")", 300)),
            "<error: expression nested too deeply>");
  EXPECT_EQ(expr(repeat("-", 100000) + "1"), "<error: expression nested too deeply>");
  EXPECT_EQ(expr(repeat("not ", 100000) + "a"), "<error: expression nested too deeply>");
  EXPECT_EQ(expr("a" + repeat("[1]", 100000)), "<error: expression nested too deeply>");
  EXPECT_EQ(expr("1" + repeat(" + 1", 100000)), "<error: expression nested too deeply>");
  EXPECT_EQ(expr("if a then 1 " + repeat("elif a then 1 ", 100000) + "else 2"),
            "<error: expression nested too deeply>");
  EXPECT_EQ(stmts(repeat("if a then ", 100000)), "<error: expression nested too deeply>");
  EXPECT_EQ(expr(repeat("exists x in players: ", 100000) + "true"),
            "<error: expression nested too deeply>");
}

TEST(ParserErrors, NestingLimitIsReportedAtTheDeepToken) {
  SourceManager sources;
  const std::string text = repeat("(", 300) + "1";
  sources.add("r.yaml", text + "\n");
  DiagnosticSink sink;
  EXPECT_EQ(parse_expr(text, TextOrigin::at_position("r.yaml", 1, 1), sink), nullptr);
  ASSERT_EQ(sink.all().size(), 1U);
  EXPECT_EQ(sink.all()[0].message, "expression nested too deeply");
  EXPECT_EQ(pos(sink.all()[0].where), "1:257+1");
}

// --- printer on resolved trees -------------------------------------------------

ExprPtr node(ExprKind kind, std::int64_t value = 0, int ref = -1, std::string text = "") {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->value = value;
  e->ref = ref;
  e->text = std::move(text);
  return e;
}

TEST(Printer, ResolvedExpressions) {
  EXPECT_EQ(to_string(*node(ExprKind::player_lit, 1)), "(player P2)");
  EXPECT_EQ(to_string(*node(ExprKind::kind_lit, 2, -1, "spark")), "(kind #2 spark)");
  EXPECT_EQ(to_string(*node(ExprKind::action_lit, 0)), "(action #0)");
  EXPECT_EQ(to_string(*node(ExprKind::active)), "(active)");
  EXPECT_EQ(to_string(*node(ExprKind::turn_number)), "(turn_number)");
  EXPECT_EQ(to_string(*node(ExprKind::top_controller)), "(top_controller)");

  ExprPtr lit = node(ExprKind::enum_lit, 1, -1, "exhausted");
  lit->type = Type::enum_of(0);
  EXPECT_EQ(to_string(*lit), "(enum #0 1 exhausted)");

  ExprPtr var = node(ExprKind::var, 0, 4, "field");
  var->field = 1;
  var->args.push_back(node(ExprKind::self));
  var->args.push_back(node(ExprKind::int_lit, 2));
  EXPECT_EQ(to_string(*var), "(var #4 field .1 (self) (int 2))");
  EXPECT_EQ(to_string(*node(ExprKind::var, 0, 0)), "(var #0)");

  ExprPtr all = node(ExprKind::zone_count, -1, 1, "hand");
  all->args.push_back(node(ExprKind::active));
  EXPECT_EQ(to_string(*all), "(zone_count #1 hand (active) all)");
  ExprPtr kind = node(ExprKind::zone_count, 3, 2);
  EXPECT_EQ(to_string(*kind), "(zone_count #2 kind #3)");
  ExprPtr tag = node(ExprKind::zone_count, -2, 2);
  tag->tag = 5;
  EXPECT_EQ(to_string(*tag), "(zone_count #2 tag #5)");

  EXPECT_EQ(to_string(*node(ExprKind::bound, 0, 3, "p")), "(bound #3 p)");

  ExprPtr next = node(ExprKind::next_player);
  next->args.push_back(node(ExprKind::opponent));
  EXPECT_EQ(to_string(*next), "(next (opponent))");

  ExprPtr clamp = node(ExprKind::builtin);
  clamp->op = Op::clamp;
  clamp->args.push_back(node(ExprKind::stack_size));
  clamp->args.push_back(node(ExprKind::int_lit, 0));
  clamp->args.push_back(node(ExprKind::int_lit, 3));
  EXPECT_EQ(to_string(*clamp), "(clamp (stack_size) (int 0) (int 3))");
}

TEST(Printer, ResolvedQuantifierAndFoldedRange) {
  ExprPtr q = node(ExprKind::quant, 0, 0, "i");
  q->op = Op::sum;
  q->domain.kind = Domain::Kind::range;
  q->domain.lo = 1;
  q->domain.hi = 4;
  q->args.push_back(node(ExprKind::bound, 0, 0, "i"));
  EXPECT_EQ(to_string(*q), "(sum #0 i (range 1 4) (bound #0 i))");
  q->domain.kind = Domain::Kind::enum_values;
  q->domain.ref = 2;
  q->domain.text = "status";
  EXPECT_EQ(to_string(*q), "(sum #0 i (enum #2 status) (bound #0 i))");
  q->domain.kind = Domain::Kind::kinds_tagged;
  q->domain.ref = 1;
  q->domain.text = "unit";
  EXPECT_EQ(to_string(*q), "(sum #0 i (kinds tag #1 unit) (bound #0 i))");
}

TEST(Printer, ClassifiedStatements) {
  auto stmt = [](StmtKind kind) {
    auto s = std::make_unique<Stmt>();
    s->kind = kind;
    return s;
  };
  StmtPtr block = stmt(StmtKind::block);
  StmtPtr draw = stmt(StmtKind::draw);
  draw->args.push_back(node(ExprKind::active));
  draw->args.push_back(node(ExprKind::int_lit, 2));
  block->bodies.push_back(std::move(draw));
  StmtPtr fire = stmt(StmtKind::fire);
  fire->ref = 7;
  block->bodies.push_back(std::move(fire));
  block->bodies.push_back(stmt(StmtKind::negate));
  StmtPtr win = stmt(StmtKind::win);
  win->args.push_back(node(ExprKind::self));
  block->bodies.push_back(std::move(win));
  StmtPtr loop = stmt(StmtKind::for_);
  loop->ref = 0;
  loop->text = "p";
  loop->domain.kind = Domain::Kind::players;
  loop->bodies.push_back(stmt(StmtKind::block));
  block->bodies.push_back(std::move(loop));
  StmtPtr move = stmt(StmtKind::move_any);
  move->args.push_back(node(ExprKind::zone_count, -1, 0));
  move->args.push_back(node(ExprKind::zone_count, -1, 1));
  move->args.push_back(node(ExprKind::int_lit, 1));
  block->bodies.push_back(std::move(move));
  EXPECT_EQ(
      to_string(*block),
      "(block (draw (active) (int 2)) (fire #7) (negate) (win (self)) (for #0 p players (block)) "
      "(move_any (zone_count #0 all) (zone_count #1 all) (int 1)))");
}

}  // namespace
}  // namespace loophole::model
