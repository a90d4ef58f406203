// Invented card texts: a seed describes the turn, not the cards, so a
// ruleset gives its cards generic texts, and a finding that rests on one of
// them is about the model, not the seed. Rules marked `invented:` are named
// in every finding that is about one (its location), whose shortest trace
// uses one (an action played or resolved, a trigger that resolved, each only
// when it changed something beyond playing the card), or whose cause does.
// A detail line says so (every report format prints the details, Markdown
// the `invented` rules), one line per reason why the text was invented and
// how the finding uses it; the message stays the engines' own, so engines
// still agree on it. "Uses" is what the trace shows, not that the finding needs the
// text: the rules may reach the same finding without it.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "loophole/model/game.hpp"
#include "loophole/properties/finding.hpp"

namespace loophole::properties {
namespace {

struct Rule {
  std::string id;    // "action:speed1_action"
  std::string name;  // "speed1_action"
  std::string why;
};

// Every invented rule of the game, by id.
std::map<std::string, Rule> invented_rules(const model::Game& game) {
  std::map<std::string, Rule> rules;
  for (const model::Action& a : game.actions) {
    if (!a.invented.empty()) rules["action:" + a.name] = {"action:" + a.name, a.name, a.invented};
  }
  for (const model::Trigger& t : game.triggers) {
    if (!t.invented.empty()) {
      rules["trigger:" + t.name] = {"trigger:" + t.name, t.name, t.invented};
    }
  }
  return rules;
}

// The rule a finding is about, as an "action:x"/"trigger:y" id ("" for other
// rules): its stable rule id up to a '/' ("action:x/P1").
std::string located_rule(const Finding& f) { return f.rule.substr(0, f.rule.find('/')); }

// Whether a move did something a card text did: changed a variable, or a
// card count other than the played card's own move from hand to where it
// goes (playing the card is the seed's; what it then does is the text's). A
// trigger that resolved choosing "nothing" used no text.
bool text_acted(const model::Game& game, const checker::TraceStep& s) {
  const bool action = s.kind == checker::MoveKind::action || s.kind == checker::MoveKind::resolve;
  const int played = action ? game.actions[static_cast<std::size_t>(s.ref)].play_kind : -1;
  return std::any_of(s.changes.begin(), s.changes.end(), [&](const checker::Change& c) {
    if (c.slot < 0 || static_cast<std::size_t>(c.slot) >= game.slots.size()) return false;
    const model::Slot& slot = game.slots[static_cast<std::size_t>(c.slot)];
    return slot.var >= 0 || played < 0 || slot.kind != played;
  });
}

std::vector<std::string> used_by_trace(const model::Game& game, const checker::Trace& t) {
  std::vector<std::string> used;
  for (const checker::TraceStep& s : t.steps) {
    if (s.ref < 0) continue;
    const bool action =
        (s.kind == checker::MoveKind::action || s.kind == checker::MoveKind::resolve) &&
        static_cast<std::size_t>(s.ref) < game.actions.size();
    const bool trigger = s.kind == checker::MoveKind::trigger &&
                         static_cast<std::size_t>(s.ref) < game.triggers.size();
    if ((!action && !trigger) || !text_acted(game, s)) continue;
    used.push_back(action ? "action:" + game.actions[static_cast<std::size_t>(s.ref)].name
                          : "trigger:" + game.triggers[static_cast<std::size_t>(s.ref)].name);
  }
  return used;
}

std::string names(const std::vector<const Rule*>& rules) {
  std::string s;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    if (i > 0) s += i + 1 == rules.size() ? " and " : ", ";
    s += fmt::format("'{}'", rules[i]->name);
  }
  return s;
}

}  // namespace

void mark_invented_rules(const model::Game& game, std::vector<Finding>& findings) {
  const std::map<std::string, Rule> rules = invented_rules(game);
  if (rules.empty()) return;
  const std::vector<std::string> ids = finding_ids(findings);
  // What each finding rests on itself: where it is, and what its trace uses.
  std::vector<std::vector<std::string>> about(findings.size()), used(findings.size());
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    if (rules.count(located_rule(f)) != 0) about[i].push_back(located_rule(f));
    if (!f.trace) continue;
    for (const std::string& id : used_by_trace(game, *f.trace)) {
      if (rules.count(id) != 0 && id != located_rule(f)) used[i].push_back(id);
    }
  }
  for (std::size_t i = 0; i < findings.size(); ++i) {
    Finding& f = findings[i];
    if (!f.invented.empty()) continue;  // marked already (findings of two engines joined)
    std::vector<std::string> from_cause;
    if (!f.caused_by.empty()) {
      const auto c = std::find(ids.begin(), ids.end(), f.caused_by);
      if (c != ids.end()) {
        const auto j = static_cast<std::size_t>(c - ids.begin());
        from_cause = about[j];
        from_cause.insert(from_cause.end(), used[j].begin(), used[j].end());
      }
    }
    // By rule id (the order of `rules`), each once.
    const auto pick = [&](const std::vector<std::string>& ids_used,
                          const std::vector<const Rule*>& already) {
      std::vector<const Rule*> out;
      for (const auto& [id, rule] : rules) {
        if (std::find(ids_used.begin(), ids_used.end(), id) != ids_used.end() &&
            std::find(already.begin(), already.end(), &rule) == already.end()) {
          out.push_back(&rule);
        }
      }
      return out;
    };
    const std::vector<const Rule*> at = pick(about[i], {});
    const std::vector<const Rule*> in_trace = pick(used[i], at);
    std::vector<const Rule*> both = at;
    both.insert(both.end(), in_trace.begin(), in_trace.end());
    const std::vector<const Rule*> in_cause = pick(from_cause, both);
    if (at.empty() && in_trace.empty() && in_cause.empty()) continue;

    const auto texts = [](std::size_t n) { return n == 1 ? "a card text" : "card texts"; };
    std::vector<const Rule*> used_rules = in_trace;
    used_rules.insert(used_rules.end(), in_cause.begin(), in_cause.end());
    std::vector<const Rule*> all = at;
    all.insert(all.end(), used_rules.begin(), used_rules.end());
    std::string what;
    if (used_rules.empty()) {
      what = fmt::format("it is about {}", names(at));
    } else {
      what = fmt::format("{}{}", at.empty() ? "" : fmt::format("it is about {} and ", names(at)),
                         fmt::format("{} {}", at.empty() ? "it uses" : "uses", names(used_rules)));
    }
    f.details.push_back(fmt::format("{}, {} invented for this model, not in the seed's rules", what,
                                    texts(all.size())));
    // One detail line per reason and way of use, naming the rules.
    struct Line {
      std::string why;
      std::string_view how;
      std::vector<const Rule*> rules;
    };
    std::vector<Line> lines;
    const auto note = [&](const std::vector<const Rule*>& rs, std::string_view how) {
      for (const Rule* r : rs) {
        auto it = std::find_if(lines.begin(), lines.end(),
                               [&](const Line& l) { return l.why == r->why && l.how == how; });
        if (it == lines.end()) it = lines.insert(lines.end(), Line{r->why, how, {}});
        it->rules.push_back(r);
        f.invented.push_back(r->id);
      }
    };
    note(at, "the finding is about");
    note(in_trace, "its shortest trace uses");
    note(in_cause, "its cause uses");
    for (const Line& l : lines) {
      f.details.push_back(fmt::format("invented: {} ({} {}): {}", names(l.rules), l.how,
                                      l.rules.size() == 1 ? "it" : "them", l.why));
    }
  }
}

}  // namespace loophole::properties
