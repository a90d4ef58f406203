// Hash compaction (--compact, issue 32): on every fixture and on each seed
// at a reduced scope, `loophole check --compact` finds what the exact store
// finds (exit code, finding by finding the kind, severity, verdict, rule,
// location, message, classification and shortest trace length), over the
// same states (and orbit counts under symmetry): with a few thousand
// states, no two share a 64-bit fingerprint. Its reports say the verdict is
// probabilistic, stderr says once what that means, and a limit still ends
// the run inconclusive with a partial report.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
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

// What must not change, ruleset by ruleset and finding by finding.
json signature(const std::string& report) {
  json out = json::array();
  const json r = json::parse(report);
  for (const auto& rs : r.at("rulesets")) {
    json findings = json::array();
    for (const auto& f : rs.at("findings")) {
      json g{{"kind", f.at("kind")},
             {"severity", f.at("severity")},
             {"verdict", f.at("verdict")},
             {"rule", f.at("rule")},
             {"location", f.at("location")},
             {"message", f.at("message")},
             {"classification", f.at("classification")}};
      if (!f.at("trace").is_null()) g["trace_length"] = f.at("trace").at("length");
      findings.push_back(std::move(g));
    }
    json st = rs.at("statistics");
    json counts = nullptr;
    if (st.is_object()) {
      counts = {{"states", st.at("states")}, {"transitions", st.at("transitions")}};
      if (st.contains("symmetry")) counts["orbit_states"] = st.at("symmetry").at("orbit_states");
    }
    out.push_back({{"completion", rs.at("completion")},
                   {"counts", std::move(counts)},
                   {"findings", std::move(findings)}});
  }
  return out;
}

// Checks `args` both ways; returns the compacted run's report.
json expect_same(const std::string& args) {
  const Outcome exact = run("check --format json --no-stats " + args);
  const Outcome compact = run("check --format json --no-stats --compact " + args);
  EXPECT_EQ(exact.code, compact.code) << args << "\n" << exact.err << compact.err;
  if (exact.code == 2 || exact.code != compact.code) return nullptr;
  EXPECT_EQ(signature(exact.out).dump(1), signature(compact.out).dump(1)) << args;
  const json r = json::parse(compact.out);
  for (const auto& rs : r.at("rulesets")) {
    if (!rs.at("statistics").is_object()) continue;
    EXPECT_TRUE(rs.at("probabilistic").get<bool>()) << args;
    const auto n = rs.at("statistics").at("states").get<double>();
    EXPECT_DOUBLE_EQ(rs.at("statistics").at("compaction").at("omission_probability").get<double>(),
                     std::ldexp(n * (n - 1), -65))
        << args;
  }
  return r;
}

TEST(CompactCli, EveryFixtureFindsTheSame) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator("tests/fixtures")) {
    const std::string p = e.path().string();
    if (e.path().extension() != ".yaml" || p.find("/bad/") != std::string::npos) continue;
    files.push_back(p);
  }
  std::sort(files.begin(), files.end());
  ASSERT_GT(files.size(), 60U);
  for (const auto& f : files) expect_same("--max-states 20000 '" + f + "'");
}

TEST(CompactCli, SeedsAtAReducedScopeFindTheSame) {
  for (const std::string args : {
           // (with slot symmetry)
           "rulesets/cosmere.yaml -p number_copies=1 -p face_copies=2 -p hand_target=3",
           "rulesets/speed-biomes.yaml -p agent_copies=2 -p tactic_copies=0 -p gear_copies=0 "
           "-p anomaly_copies=0",
           "rulesets/containment.yaml -p personnel_copies=0 -p item_copies=0 -p event_copies=0",
           "rulesets/operators.yaml -p strategy_copies=0 -p effect_copies=0 -p attack_copies=0 "
           "-p defence_copies=0 -p opening_hand=0",
           "--no-symmetry rulesets/cosmere.yaml -p number_copies=1 -p face_copies=2 "
           "-p hand_target=3",
       }) {
    expect_same(args);
  }
}

TEST(CompactCli, ReportsSayTheVerdictIsProbabilistic) {
  const std::string file = "tests/fixtures/symmetry/slots.yaml";
  const Outcome text = run("check --compact " + file);
  EXPECT_NE(text.out.find(file + ": probabilistic verdict: hash compaction (64-bit "
                                 "fingerprints) may have missed a state, with probability "
                                 "at most 4.3e-16"),
            std::string::npos)
      << text.out;
  // Exactly one warning line, whatever the number of rulesets.
  const Outcome two = run("check --compact " + file + " tests/fixtures/symmetry/first-free.yaml");
  std::size_t warnings = 0;
  for (std::size_t at = two.err.find("warning:"); at != std::string::npos;
       at = two.err.find("warning:", at + 1)) {
    ++warnings;
  }
  EXPECT_EQ(warnings, 1U) << two.err;
  EXPECT_NE(two.err.find("loophole: warning: --compact: states are told apart by 64-bit "
                         "fingerprints"),
            std::string::npos)
      << two.err;
  const Outcome exact = run("check --format json " + file);
  EXPECT_FALSE(json::parse(exact.out).at("rulesets").at(0).at("probabilistic").get<bool>());
  EXPECT_EQ(exact.err.find("--compact"), std::string::npos);
  const Outcome sarif = run("check --compact --format sarif " + file);
  const json props = json::parse(sarif.out).at("runs").at(0).at("properties");
  EXPECT_EQ(props.at("probabilistic").at(0).at("file"), file);
  const Outcome junit = run("check --compact --format junit " + file);
  EXPECT_NE(junit.out.find("<property name=\"probabilistic\" value=\"probabilistic verdict: "),
            std::string::npos);
  const Outcome md = run("check --compact --format markdown " + file);
  EXPECT_NE(md.out.find("(probabilistic verdict: hash compaction"), std::string::npos) << md.out;
  // Only the explicit search compacts.
  const Outcome smt = run("check --compact --engine smt " + file);
  EXPECT_EQ(smt.code, 2);
  EXPECT_NE(smt.err.find("loophole: error: --compact: "), std::string::npos) << smt.err;
}

TEST(CompactCli, ALimitStillEndsInconclusiveWithAPartialReport) {
  const std::string args = "rulesets/operators.yaml --max-states 5000";
  const Outcome exact = run("check --format json " + args);
  const Outcome compact = run("check --format json --compact " + args);
  EXPECT_EQ(compact.code, 3) << compact.err;
  EXPECT_EQ(exact.code, 3);
  const json rs = json::parse(compact.out).at("rulesets").at(0);
  EXPECT_EQ(rs.at("completion"), "state-limit");
  EXPECT_TRUE(rs.at("probabilistic").get<bool>());
  EXPECT_EQ(signature(exact.out).dump(1), signature(compact.out).dump(1));
}

TEST(CompactCli, ATimeLimitDuringTheSearchEndsInconclusive) {
  const auto started = std::chrono::steady_clock::now();
  const Outcome m =
      run("check --format json --compact -j 2 --no-native -p top=4000 --timeout 1s "
          "tests/fixtures/cli/big.yaml");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(m.code, 3) << m.err;
  const json rs = json::parse(m.out).at("rulesets").at(0);
  EXPECT_EQ(rs.at("completion"), "time-limit");
  EXPECT_TRUE(rs.at("probabilistic").get<bool>());
  EXPECT_GT(rs.at("statistics").at("states").get<std::uint64_t>(), 0U);
  EXPECT_FALSE(rs.at("not_checked").empty());
  EXPECT_LE(seconds, 3.0);
}

}  // namespace
