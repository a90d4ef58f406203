// The slot layout: the data state flattened into bounded integers. Variables
// come first in declaration order, then zones in declaration order; within a
// declaration, owner-major (P1's elements, then P2's), then array index, then
// record field; within a zone owner, kind order. The size is computed before
// anything is allocated, so an absurd scope is an error, not an allocation.
// Zone init: explicit counts per owner (alike for every owner, or given per
// player), and the one `init: all` zone holds every copy the others do not.
#include <algorithm>
#include <map>
#include <string>

#include "ruleset.hpp"

namespace loophole::model {

namespace {

constexpr std::int64_t k_max_slots = 4096;

std::string player_name(int p) { return "P" + std::to_string(p + 1); }

// Card movements, as (source zone, destination zone) pairs: draw (from
// `deck` or the zone it names), both moves, and an action's played card
// (hand to its `to` zone).
void movements(const Stmt* s, const Game& game, std::vector<std::pair<int, int>>& out) {
  if (s == nullptr) return;
  const int source =
      s->kind == StmtKind::draw && s->args.size() == 3 ? s->args[2]->ref : game.deck_zone;
  if (s->kind == StmtKind::draw && source >= 0 && game.hand_zone >= 0) {
    out.emplace_back(source, game.hand_zone);
  } else if ((s->kind == StmtKind::move_kind || s->kind == StmtKind::move_any) &&
             s->args.size() >= 2 && s->args[0]->ref >= 0 && s->args[1]->ref >= 0) {
    out.emplace_back(s->args[0]->ref, s->args[1]->ref);
  }
  for (const auto& b : s->bodies) movements(b.get(), game, out);
}

// The player zones that cards reach from a shared zone, directly or through
// other such zones: their counts are sized by the copies of the whole game
// (copies x players), since one player may end up holding them all.
std::vector<bool> widened_zones(const Game& game) {
  std::vector<std::pair<int, int>> moves;
  movements(game.setup.get(), game, moves);
  for (const auto& st : game.steps) movements(st.effects.get(), game, moves);
  for (const auto& a : game.actions) {
    movements(a.cost.get(), game, moves);
    movements(a.effect.get(), game, moves);
    if (a.play_kind >= 0 && a.to_zone >= 0 && game.hand_zone >= 0) {
      moves.emplace_back(game.hand_zone, a.to_zone);
    }
  }
  for (const auto& t : game.triggers) movements(t.effect.get(), game, moves);
  const std::size_t n = game.zones.size();
  std::vector<bool> wide(n, false);
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [from, to] : moves) {
      if (from >= static_cast<int>(n) || to >= static_cast<int>(n)) continue;
      const auto f = static_cast<std::size_t>(from), t = static_cast<std::size_t>(to);
      if (!game.zones[t].per_player || wide[t]) continue;
      if (!game.zones[f].per_player || wide[f]) {
        wide[t] = true;
        changed = true;
      }
    }
  }
  return wide;
}

}  // namespace

bool lay_out_slots(Game& game, DiagnosticSink& sink, const OwnerInit& owner_init) {
  const std::int64_t players = game.players;
  const auto kinds = static_cast<std::int64_t>(game.kinds.size());
  std::int64_t total = 0;
  const auto over = [&](std::int64_t more, const SourceSpan& where, const std::string& what) {
    total += more;
    if (total <= k_max_slots) return false;
    sink.error(where, "the data state needs more than " + std::to_string(k_max_slots) + " slots (" +
                          what + " brings it to " + std::to_string(total) + "); reduce the scope");
    return true;
  };
  for (const VarDecl& v : game.vars) {
    const std::int64_t n = (v.per_player ? players : 1) * std::max(1, v.array) *
                           static_cast<std::int64_t>(v.fields.size());
    if (over(n, v.where, "variable '" + v.name + "'")) return false;
  }
  for (const ZoneDecl& z : game.zones) {
    if (over((z.per_player ? players : 1) * kinds, z.where, "zone '" + z.name + "'")) return false;
  }

  game.slots.clear();
  game.slots.reserve(static_cast<std::size_t>(total));
  for (std::size_t vi = 0; vi < game.vars.size(); ++vi) {
    VarDecl& v = game.vars[vi];
    v.first_slot = static_cast<int>(game.slots.size());
    const int owners = v.per_player ? game.players : 1;
    const int elements = std::max(1, v.array);
    for (int p = 0; p < owners; ++p) {
      for (int i = 0; i < elements; ++i) {
        for (const Field& f : v.fields) {
          Slot s;
          s.name = v.name;
          if (v.per_player) s.name += "[" + player_name(p) + "]";
          if (v.array != 0) s.name += "[" + std::to_string(i) + "]";
          if (v.is_record) s.name += "." + f.name;
          s.lo = f.lo;
          s.hi = f.hi;
          s.init = f.init;
          s.var = static_cast<int>(vi);
          s.owner = v.per_player ? p : -1;
          s.type = f.type;
          game.slots.push_back(std::move(s));
        }
      }
    }
  }

  // Initial zone counts, per kind: what the explicit zones hold, and the rest
  // in the `init: all` zone.
  int all_zone = -1;
  for (std::size_t zi = 0; zi < game.zones.size(); ++zi) {
    if (game.zones[zi].init_all) {
      all_zone = static_cast<int>(zi);
      break;
    }
  }
  // What zone `zi` of owner `p` starts with of kind `k` (not the all zone).
  const auto given = [&](std::size_t zi, int p, std::size_t k) -> std::int64_t {
    const ZoneDecl& z = game.zones[zi];
    const std::map<int, std::int32_t>& counts = zi < owner_init.size() && !owner_init[zi].empty()
                                                    ? owner_init[zi][static_cast<std::size_t>(p)]
                                                    : z.init_counts;
    const auto it = counts.find(static_cast<int>(k));
    return it == counts.end() ? 0 : it->second;
  };
  // all_count[p][k]: what owner p's part of the all zone starts with (one
  // owner, index 0, for a shared all zone).
  std::vector<std::vector<std::int32_t>> all_count(static_cast<std::size_t>(players),
                                                   std::vector<std::int32_t>(game.kinds.size(), 0));
  bool ok = true;
  const bool all_per_player =
      all_zone >= 0 && game.zones[static_cast<std::size_t>(all_zone)].per_player;
  for (std::size_t k = 0; k < game.kinds.size(); ++k) {
    const std::int64_t copies = game.kinds[k].copies;
    std::vector<std::int64_t> per_owner(static_cast<std::size_t>(players), 0);  // player zones
    std::int64_t shared = 0;  // in shared zones, in total
    for (std::size_t zi = 0; zi < game.zones.size(); ++zi) {
      const ZoneDecl& z = game.zones[zi];
      if (static_cast<int>(zi) == all_zone) continue;
      if (!z.per_player) {
        shared += given(zi, 0, k);
        continue;
      }
      for (int p = 0; p < players; ++p) per_owner[static_cast<std::size_t>(p)] += given(zi, p, k);
    }
    if (all_per_player && shared > 0) {
      sink.error(game.kinds[k].where, "kind '" + game.kinds[k].name +
                                          "' starts in a shared zone, but the 'init: all' zone '" +
                                          game.zones[static_cast<std::size_t>(all_zone)].name +
                                          "' is per player and cannot give up copies for it");
      ok = false;
      continue;
    }
    std::int64_t in_player_zones = 0;
    std::int64_t most = 0;
    for (const std::int64_t n : per_owner) {
      in_player_zones += n;
      most = std::max(most, n);
    }
    const std::int64_t rest =
        all_per_player ? copies - most : copies * players - in_player_zones - shared;
    if (rest < 0) {
      sink.error(game.kinds[k].where, "the initial counts of kind '" + game.kinds[k].name +
                                          "' add up to more than its " + std::to_string(copies) +
                                          " copies per player");
      ok = false;
      continue;
    }
    if (all_zone < 0) continue;
    for (int p = 0; p < players; ++p) {
      all_count[static_cast<std::size_t>(p)][k] = static_cast<std::int32_t>(
          all_per_player ? copies - per_owner[static_cast<std::size_t>(p)] : rest);
    }
  }

  const std::vector<bool> wide = widened_zones(game);
  for (std::size_t zi = 0; zi < game.zones.size(); ++zi) {
    ZoneDecl& z = game.zones[zi];
    z.first_slot = static_cast<int>(game.slots.size());
    const int owners = z.per_player ? game.players : 1;
    for (int p = 0; p < owners; ++p) {
      for (std::size_t k = 0; k < game.kinds.size(); ++k) {
        Slot s;
        s.name =
            z.name + (z.per_player ? "[" + player_name(p) + "]" : "") + "." + game.kinds[k].name;
        s.lo = 0;
        s.hi =
            z.per_player && !wide[zi] ? game.kinds[k].copies : game.kinds[k].copies * game.players;
        if (z.capacity >= 0) s.hi = std::min(s.hi, z.capacity);
        if (static_cast<int>(zi) == all_zone) {
          s.init = all_count[static_cast<std::size_t>(p)][k];
        } else {
          s.init = static_cast<std::int32_t>(given(zi, p, k));
        }
        s.zone = static_cast<int>(zi);
        s.owner = z.per_player ? p : -1;
        s.kind = static_cast<int>(k);
        s.type = Type::int_();
        game.slots.push_back(std::move(s));
      }
      // A zone that starts fuller than its capacity cannot be bounded by it.
      if (z.capacity < 0) continue;
      std::int64_t held = 0;
      for (std::size_t k = 0; k < game.kinds.size(); ++k) {
        held += game.slots[game.slots.size() - game.kinds.size() + k].init;
      }
      if (held > z.capacity) {
        sink.error(z.capacity_where, "zone '" + z.name + "' starts with " + std::to_string(held) +
                                         " cards" + (z.per_player ? " for " + player_name(p) : "") +
                                         ", more than its capacity " + std::to_string(z.capacity));
        ok = false;
        break;
      }
    }
  }
  return ok;
}

}  // namespace loophole::model
