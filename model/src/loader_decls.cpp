// Reading the declarations of a ruleset: enums, card kinds, zones and state
// variables (with their fields, types, ranges and initial values). Part of
// detail::Loader (loader.hpp).
#include <algorithm>

#include "loader.hpp"

namespace loophole::model::detail {

void Loader::read_enums(const YamlReader& r, const Entry& e) {
  auto m = r.map(e, {}, "'enums'");
  if (!m) return;
  for (const Entry& ee : m->entries()) {
    auto name = r.key_identifier(ee, "enum");
    if (!name) continue;
    auto items = r.list(ee);
    if (!items) continue;
    EnumDecl decl;
    decl.name = name->value;
    decl.where = name->where;
    for (const auto& item : *items) {
      auto value = r.identifier(item, r.span(item), "an enum value");
      if (!value) continue;
      decl.values.push_back(value->value);
      decl.value_where.push_back(value->where);
    }
    if (items->empty())
      sink_.error(name->where, "enum " + quote_name(decl.name) + " has no values");
    out_.enums.push_back(std::move(decl));
  }
}

void Loader::read_kinds(const YamlReader& r, const Entry& e) {
  auto m = r.map(e, {}, "'kinds'");
  if (!m) return;
  for (const Entry& ke : m->entries()) {
    auto name = r.key_identifier(ke, "kind");
    if (!name) continue;
    auto km = r.map(ke, {"copies", "tags"}, "kind " + quote_name(name->value));
    if (!km) continue;
    RawKind kind;
    kind.decl.name = name->value;
    kind.decl.where = name->where;
    if (const Entry* copies = km->get("copies")) {
      kind.copies = r.expr(*copies);
    } else {
      sink_.error(name->where, "kind " + quote_name(name->value) + " needs 'copies'");
    }
    if (const Entry* tags = km->get("tags")) {
      if (auto items = r.list(*tags)) {
        for (const auto& item : *items) {
          if (auto tag = r.identifier(item, r.span(item), "a tag")) kind.tags.push_back(*tag);
        }
      }
    }
    out_.kinds.push_back(std::move(kind));
  }
}

void Loader::read_zones(const YamlReader& r, const Entry& e) {
  auto m = r.map(e, {}, "'zones'");
  if (!m) return;
  for (const Entry& ze : m->entries()) {
    auto name = r.key_identifier(ze, "zone");
    if (!name) continue;
    RawZone zone;
    zone.decl.name = name->value;
    zone.decl.where = name->where;
    if (ze.value.IsDefined() && !ze.value.IsNull()) {
      auto zm = r.map(ze, {"per", "shared", "init", "capacity"}, "zone " + quote_name(name->value));
      if (!zm) continue;
      const Entry* per = zm->get("per");
      const Entry* shared = zm->get("shared");
      if (per != nullptr) {
        if (auto word = r.string(*per); word && word->value != "player") {
          sink_.error(word->where, "'per' must be 'player', found " + quote_name(word->value));
        }
      }
      if (shared != nullptr) {
        if (auto b = r.boolean(*shared)) zone.decl.per_player = !*b;
        if (per != nullptr && !zone.decl.per_player) {
          sink_.error(shared->key_where, "zone " + quote_name(name->value) +
                                             " cannot be both 'per: player' and shared");
        }
      }
      if (const Entry* init = zm->get("init")) {
        zone.init_where = init->key_where;
        if (init->value.IsScalar()) {
          if (init->value.Scalar() == "all") {
            zone.decl.init_all = true;
          } else {
            sink_.error(r.span(*init),
                        "'init' of a zone must be 'all' or a map of kind counts, found " +
                            YamlReader::describe(init->value));
          }
        } else if (auto im = r.map(init->value, r.span(*init), "'init' of a zone", {}, "'init'")) {
          // Kind counts for every owner alike, or per player: {P1: {...}}.
          for (const Entry& ie : im->entries()) {
            const bool owner = ie.key.size() >= 2 && ie.key[0] == 'P' &&
                               std::all_of(ie.key.begin() + 1, ie.key.end(),
                                           [](char c) { return c >= '0' && c <= '9'; });
            if (owner) {
              std::vector<std::pair<Text, ExprPtr>> counts;
              if (auto om = r.map(ie, {},
                                  "'init' of zone " + quote_name(name->value) + " for " + ie.key)) {
                for (const Entry& ce : om->entries()) {
                  counts.emplace_back(Text{ce.key, ce.key_where}, r.expr(ce));
                }
              }
              zone.owner_init.emplace_back(Text{ie.key, ie.key_where}, std::move(counts));
            } else {
              zone.init.emplace_back(Text{ie.key, ie.key_where}, r.expr(ie));
            }
          }
          if (!zone.init.empty() && !zone.owner_init.empty()) {
            sink_.error(r.span(*init), "'init' of zone " + quote_name(name->value) +
                                           " gives either kind counts for every owner or counts "
                                           "per player (P1: {...}), not both");
          }
        }
      }
      if (const Entry* capacity = zm->get("capacity")) zone.capacity = r.expr(*capacity);
    }
    out_.zones.push_back(std::move(zone));
  }
}

void Loader::read_field(const YamlReader& r, const MapView& m, RawField& f) {
  if (const Entry* type = m.get("type")) {
    if (auto t = r.identifier(*type)) f.type = *t;
  }
  if (const Entry* range = m.get("range")) {
    f.range_where = r.span(*range);
    if (auto items = r.list(*range)) {
      if (items->size() != 2) {
        sink_.error(f.range_where, "'range' must be a list [lo, hi], found a list of " +
                                       std::to_string(items->size()) + " element" +
                                       (items->size() == 1 ? "" : "s"));
      } else {
        f.lo = r.expr((*items)[0], r.span((*items)[0]), "a range bound");
        f.hi = r.expr((*items)[1], r.span((*items)[1]), "a range bound");
      }
    }
  }
  if (const Entry* init = m.get("init")) f.init = r.expr(*init);
}

// `events:` entries: a name, or a map with `name` and typed `args`, each
// a type word (`player`, `kind`, `bool`, an enum's name) or a map like a
// variable's (`{type: int, range: [1, 3]}`).
void Loader::read_events(const YamlReader& r, const Entry& e) {
  auto items = r.list(e);
  if (!items) return;
  for (const auto& item : *items) {
    RawEvent ev;
    if (!item.IsMap()) {
      auto name = r.identifier(item, r.span(item), "an event name");
      if (!name) continue;
      ev.name = *name;
      out_.events.push_back(std::move(ev));
      continue;
    }
    auto m = r.map(item, r.span(item), "each entry of 'events'", {"name", "args"},
                   named("event", peek_name(item)));
    if (!m) continue;
    auto name = entry_name(r, *m, "event");
    if (!name) continue;
    ev.name = *name;
    if (const Entry* args = m->get("args")) {
      if (auto am = r.map(*args, {}, "'args' of event " + quote_name(name->value))) {
        for (const Entry& ae : am->entries()) {
          auto aname = r.key_identifier(ae, "argument");
          if (!aname) continue;
          RawField arg;
          arg.name = *aname;
          arg.where = aname->where;
          if (ae.value.IsMap()) {
            auto fm = r.map(ae, {"type", "range"}, "argument " + quote_name(aname->value));
            if (!fm) continue;
            read_field(r, *fm, arg);
          } else if (auto t = r.identifier(ae)) {
            arg.type = *t;
          }
          ev.args.push_back(std::move(arg));
        }
      }
    }
    out_.events.push_back(std::move(ev));
  }
}

void Loader::read_state(const YamlReader& r, const Entry& e) {
  auto m = r.map(e, {}, "'state'");
  if (!m) return;
  for (const Entry& ve : m->entries()) {
    auto name = r.key_identifier(ve, "variable");
    if (!name) continue;
    const std::string context = "variable " + quote_name(name->value);
    auto vm = r.map(ve, {"type", "range", "init", "per", "array", "record"}, context);
    if (!vm) continue;
    RawVar var;
    var.decl.name = name->value;
    var.decl.where = name->where;
    if (const Entry* per = vm->get("per")) {
      if (auto word = r.string(*per)) {
        if (word->value == "player") {
          var.decl.per_player = true;
        } else {
          sink_.error(word->where, "'per' must be 'player', found " + quote_name(word->value));
        }
      }
    }
    if (const Entry* array = vm->get("array")) var.array = r.expr(*array);
    if (const Entry* record = vm->get("record")) {
      var.decl.is_record = true;
      for (const char* key : {"type", "range", "init"}) {
        if (const Entry* bad = vm->get(key)) {
          sink_.error(bad->key_where,
                      quote_name(key) + " of a record variable belongs to its fields");
        }
      }
      if (auto rm = r.map(*record, {}, "'record'")) {
        for (const Entry& fe : rm->entries()) {
          auto fname = r.key_identifier(fe, "field");
          if (!fname) continue;
          auto fm = r.map(fe, {"type", "range", "init"}, "field " + quote_name(fname->value));
          if (!fm) continue;
          RawField field;
          field.name = *fname;
          field.where = fname->where;
          read_field(r, *fm, field);
          var.fields.push_back(std::move(field));
        }
        if (rm->entries().empty())
          sink_.error(record->key_where, "record of " + context + " has no fields");
      }
    } else {
      RawField field;
      field.where = name->where;
      read_field(r, *vm, field);
      var.fields.push_back(std::move(field));
    }
    out_.vars.push_back(std::move(var));
  }
}

}  // namespace loophole::model::detail
