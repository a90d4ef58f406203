// What the tests ask of the compiled programs (see compiled.hpp): the census
// of instruction forms (every form the compiler can emit, and those a
// ruleset's programs use), and counts of the code compiled per value of a
// binder.
#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "compiled_program.hpp"

namespace loophole::checker {

namespace {

constexpr const char* op_names[] = {
    "konst",    "load",        "self",       "top",     "next_player", "var_dyn", "var_slot",
    "zone_dyn", "zone_sum",    "zone_range", "bound",   "not",         "neg",     "add",
    "sub",      "mul",         "div",        "mod",     "eq",          "ne",      "lt",
    "le",       "gt",          "ge",         "to_bool", "and_jump",    "or_jump", "jump_if0",
    "jump",     "quant_begin", "quant_step", "abs",     "min",         "max",     "clamp",
    "rel",      "rel_slot",    "cmp_k",      "checked", "ret"};
static_assert(std::size(op_names) == static_cast<std::size_t>(X::ret) + 1);

const char* cmp_name(Cmp c) {
  switch (c) {
    case Cmp::none:
      return "";
    case Cmp::lt:
      return "lt";
    case Cmp::eq:
      return "eq";
    case Cmp::le:
      return "le";
    case Cmp::gt:
      return "gt";
    case Cmp::ne:
      return "ne";
    case Cmp::ge:
      return "ge";
  }
  return "?";
}

const char* then_name(Then t) {
  switch (t) {
    case Then::push:
      return "push";
    case Then::add:
      return "add";
    case Then::sub:
      return "sub";
    case Then::cmp:
      return "cmp";
    case Then::and_:
      return "and";
    case Then::or_:
      return "or";
  }
  return "?";
}

// What an instruction exercises: its op; for rel and rel_slot where the
// player comes from and whether it is a next one; a leaf's fusion with a
// constant comparison or with what follows; the one-leaf path; cmp_k's
// comparison.
void features(const XIns& x, std::vector<std::string>& out) {
  const std::string op = op_names[static_cast<std::size_t>(x.op)];
  out.push_back(op);
  if (x.op == X::rel || x.op == X::rel_slot) {
    out.push_back(op + (x.d >= 0 ? " slot" : x.d == -1 ? " self" : " binder"));
    if (x.c > 0) out.push_back(op + " next");
  }
  if (x.op == X::cmp_k) out.push_back(op + " " + cmp_name(x.cmp));
  if (x.single) out.push_back("single " + op);
  if (x.then == Then::push && x.cmp != Cmp::none && x.op != X::cmp_k) out.push_back(op + " cmp");
  if (x.then != Then::push) out.push_back(op + " then " + then_name(x.then));
}

}  // namespace

int CompiledSystem::choices_per_value() const {
  return static_cast<int>(
      std::count_if(prog_->scode.begin(), prog_->scode.end(),
                    [](const SIns& i) { return i.op == S::choose && i.f >= 0; }));
}

int CompiledSystem::bodies_per_value() const {
  return static_cast<int>(
      std::count_if(prog_->scode.begin(), prog_->scode.end(),
                    [](const SIns& i) { return i.op == S::choose && i.g >= 0; }));
}

int CompiledSystem::unrolled_turns() const {
  return static_cast<int>(std::count_if(prog_->scode.begin(), prog_->scode.end(),
                                        [](const SIns& i) { return i.op == S::bind; }));
}

std::vector<std::string> CompiledSystem::instruction_forms() const {
  std::vector<std::string> out;
  for (const XIns& x : prog_->xcode) features(x, out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> CompiledSystem::all_instruction_forms() {
  std::vector<std::string> out(std::begin(op_names), std::end(op_names));
  for (const char* op : {"rel", "rel_slot"}) {
    for (const char* f : {" slot", " self", " binder", " next"}) out.push_back(std::string(op) + f);
  }
  for (const char* c : {"lt", "eq", "le", "gt", "ne", "ge"})
    out.push_back(std::string("cmp_k ") + c);
  for (const char* op : {"konst", "load", "bound", "rel", "rel_slot", "self", "top"}) {
    out.push_back(std::string("single ") + op);
  }
  for (const char* op : {"load", "bound", "rel", "self", "top"})
    out.push_back(std::string(op) + " cmp");
  out.emplace_back("self then cmp");  // p == self
  out.emplace_back("self then and");  // self == P1 and ... (an end naming a player)
  for (const char* op : {"load", "bound", "rel"}) {
    for (const char* t : {"add", "sub", "cmp", "and", "or"}) {
      out.push_back(std::string(op) + " then " + t);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace loophole::checker
