// The safety test of symmetry reduction (issue 32): on every fixture and on
// each seed at a reduced scope, `loophole check` finds the same things with
// and without --no-symmetry: the same exit code, and finding by finding the
// same kind, severity, verdict, rule, location, message, classification and
// shortest trace length (the moves themselves may pick other, equivalent
// slots).
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "process.hpp"

namespace {

using loophole::test::Outcome;
using loophole::test::run;
using nlohmann::json;

// What must not change, finding by finding.
json findings_of(const std::string& report) {
  json out = json::array();
  const json r = json::parse(report);
  for (const auto& rs : r.at("rulesets")) {
    for (const auto& f : rs.at("findings")) {
      json g{{"kind", f.at("kind")},
             {"severity", f.at("severity")},
             {"verdict", f.at("verdict")},
             {"rule", f.at("rule")},
             {"location", f.at("location")},
             {"message", f.at("message")},
             {"classification", f.at("classification")}};
      if (!f.at("trace").is_null()) {
        g["trace_length"] = f.at("trace").at("length");
        g["loop_start"] = f.at("trace").at("loop_start");
      }
      out.push_back(std::move(g));
    }
  }
  return out;
}

// Checks `args` both ways; returns the reduced run's report.
json expect_same_findings(const std::string& args) {
  const Outcome on = run("check --format json --no-stats " + args);
  const Outcome off = run("check --format json --no-stats --no-symmetry " + args);
  EXPECT_EQ(on.code, off.code) << args << "\n" << on.err << off.err;
  if (on.code == 2 || on.code != off.code) return nullptr;
  EXPECT_EQ(findings_of(on.out).dump(1), findings_of(off.out).dump(1)) << args;
  return json::parse(on.out);
}

TEST(SymmetryCli, EveryFixtureFindsTheSame) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator("tests/fixtures")) {
    const std::string p = e.path().string();
    if (e.path().extension() != ".yaml" || p.find("/bad/") != std::string::npos) continue;
    files.push_back(p);
  }
  std::sort(files.begin(), files.end());
  ASSERT_GT(files.size(), 60U);
  int reduced = 0, rotated = 0;
  for (const auto& f : files) {
    const json r = expect_same_findings("--max-states 20000 '" + f + "'");
    if (r.is_null()) continue;
    for (const auto& rs : r.at("rulesets")) {
      const json& st = rs.at("statistics");
      if (!st.is_object() || !st.contains("symmetry")) continue;
      const json& applied = st.at("symmetry").at("applied");
      const bool players = std::find(applied.begin(), applied.end(), "players") != applied.end();
      if (applied.size() > (players ? 1U : 0U)) ++reduced;
      if (players) ++rotated;
    }
  }
  EXPECT_GE(reduced, 2);  // tests/fixtures/symmetry/{slots,first-free}.yaml at least
  // (player rotations apply to most fixtures: 99 of the 112 in November 2026)
  EXPECT_GE(rotated, 4);  // tests/fixtures/symmetry/players-*.yaml at least
}

TEST(SymmetryCli, SeedsAtAReducedScopeFindTheSame) {
  for (const std::string args : {
           // (faces reduced: 79,401 states for 93,363)
           "rulesets/cosmere.yaml -p number_copies=1 -p face_copies=2 -p hand_target=3",
           // (agents not: 'defends' holds a slot number)
           "rulesets/speed-biomes.yaml -p agent_copies=2 -p tactic_copies=0 -p gear_copies=0 "
           "-p anomaly_copies=0",
           "rulesets/containment.yaml -p personnel_copies=0 -p item_copies=0 -p event_copies=0",
           "rulesets/operators.yaml -p strategy_copies=0 -p effect_copies=0 -p attack_copies=0 "
           "-p defence_copies=0 -p opening_hand=0",
       }) {
    expect_same_findings(args);
  }
}

TEST(SymmetryCli, StatisticsSayWhatWasApplied) {
  const Outcome on = run("check --format json tests/fixtures/symmetry/slots.yaml");
  const json st = json::parse(on.out).at("rulesets").at(0).at("statistics");
  EXPECT_EQ(st.at("states"), 127);
  EXPECT_EQ(st.at("symmetry").at("applied"), json::array({"players", "units"}));
  EXPECT_EQ(st.at("symmetry").at("orbit_states"), 514);
  EXPECT_EQ(st.at("symmetry").at("note"), "players (rotations of 2); slots of units");
  const Outcome off = run("check --format json --no-symmetry tests/fixtures/symmetry/slots.yaml");
  const json st_off = json::parse(off.out).at("rulesets").at(0).at("statistics");
  EXPECT_EQ(st_off.at("states"), 514);
  EXPECT_EQ(st_off.at("symmetry").at("note"), "off (--no-symmetry)");
  const Outcome text = run("check tests/fixtures/symmetry/broken.yaml");
  EXPECT_NE(text.out.find("  symmetry players (rotations of 2); off: 'i' used as a value at "
                          "tests/fixtures/symmetry/broken.yaml:51:18"),
            std::string::npos)
      << text.out;
}

TEST(SymmetryCli, StatisticsSayWhyPlayersAreNotRotated) {
  const Outcome race = run("check --format json tests/fixtures/symmetry/players-race.yaml");
  const json st = json::parse(race.out).at("rulesets").at(0).at("statistics");
  EXPECT_EQ(st.at("states"), 67);
  EXPECT_EQ(st.at("symmetry").at("applied"), json::array({"players"}));
  EXPECT_EQ(st.at("symmetry").at("orbit_states"), 127);
  EXPECT_EQ(st.at("symmetry").at("note"), "players (rotations of 2)");
  const Outcome off =
      run("check --format json --no-symmetry tests/fixtures/symmetry/players-race.yaml");
  EXPECT_EQ(json::parse(off.out).at("rulesets").at(0).at("statistics").at("states"), 127);
  const Outcome literal = run("check tests/fixtures/symmetry/players-literal.yaml");
  EXPECT_NE(literal.out.find("  symmetry players off: 'P1' named at "
                             "tests/fixtures/symmetry/players-literal.yaml:15:26"),
            std::string::npos)
      << literal.out;
}

}  // namespace
