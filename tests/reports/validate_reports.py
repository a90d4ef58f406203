#!/usr/bin/env python3
"""Checks the golden reports under tests/golden/reports/ (which the reports
golden test keeps byte-equal to what loophole writes):

- every report.json validates against schema/report.schema.json;
- every report.sarif validates against the official SARIF 2.1.0 schema
  (../shared/schemas/sarif-schema-2.1.0.json next to the source root, or
  $LOOPHOLE_SHARED_DIR/schemas/...), and has one result per JSON finding with
  the same fingerprint-bearing id;
- every report.junit.xml parses with xml.etree, its counts add up, and its
  failures are exactly the properties with a failing finding in the JSON.

Usage: validate_reports.py SOURCE_ROOT
"""
import json
import os
import sys
import xml.etree.ElementTree as ET

import jsonschema


def sarif_schema_path(root):
    candidates = [os.path.join(root, "..", "shared", "schemas", "sarif-schema-2.1.0.json")]
    if os.environ.get("LOOPHOLE_SHARED_DIR"):
        candidates.append(os.path.join(os.environ["LOOPHOLE_SHARED_DIR"], "schemas",
                                       "sarif-schema-2.1.0.json"))
    for c in candidates:
        if os.path.exists(c):
            return c
    sys.exit("validate_reports: SARIF schema not found at " + " or ".join(candidates))


def property_name(f):
    return f["rule"] if f["kind"] == "property-violation" else f["kind"]


def check_case(case_dir, report_validator, sarif_validator):
    errors = []
    with open(os.path.join(case_dir, "report.json"), encoding="utf-8") as f:
        report = json.load(f)
    for e in report_validator.iter_errors(report):
        errors.append(f"report.json: {e.message} at {list(e.absolute_path)}")

    with open(os.path.join(case_dir, "report.sarif"), encoding="utf-8") as f:
        sarif = json.load(f)
    for e in sarif_validator.iter_errors(sarif):
        errors.append(f"report.sarif: {e.message} at {list(e.absolute_path)}")
    results = sarif["runs"][0]["results"]
    finding_ids = [x["id"] for r in report["rulesets"] for x in r["findings"]]
    sarif_ids = [r["properties"]["id"] for r in results if r["ruleId"] != "stale-baseline"]
    if finding_ids != sarif_ids:
        errors.append(f"report.sarif: results {sarif_ids} != findings {finding_ids}")
    fingerprints = [r["partialFingerprints"]["loopholeFindingId/v1"] for r in results
                    if "partialFingerprints" in r]
    if len(set(fingerprints)) != len(fingerprints):
        errors.append("report.sarif: duplicate fingerprints")
    accepted = [r["properties"]["id"] for r in results if "suppressions" in r]
    json_accepted = [x["id"] for r in report["rulesets"] for x in r["findings"] if x["accepted"]]
    if accepted != json_accepted:
        errors.append(f"report.sarif: suppressed {accepted} != accepted {json_accepted}")

    tree = ET.parse(os.path.join(case_dir, "report.junit.xml"))
    suites = tree.getroot()
    if suites.tag != "testsuites":
        errors.append("report.junit.xml: root is not <testsuites>")
    total = 0
    junit_suites = suites.findall("testsuite")
    if len(junit_suites) != len(report["rulesets"]):
        errors.append(f"report.junit.xml: {len(junit_suites)} testsuites but "
                      f"{len(report['rulesets'])} rulesets in report.json")
    for suite, ruleset in zip(junit_suites, report["rulesets"]):
        cases = suite.findall("testcase")
        total += len(cases)
        if int(suite.get("tests")) != len(cases):
            errors.append(f"junit: suite {suite.get('name')} tests={suite.get('tests')} "
                          f"but {len(cases)} testcases")
        failing = sorted(c.get("name") for c in cases if c.find("failure") is not None)
        expected = sorted({property_name(f) for f in ruleset["findings"]
                           if f["verdict"] == "violated" and f["severity"] == "error"
                           and not f["accepted"]})
        if failing != expected:
            errors.append(f"junit: failing cases {failing} != {expected}")
        if int(suite.get("failures")) != len(failing):
            errors.append(f"junit: failures={suite.get('failures')} but {len(failing)} fail")
        for c in cases:
            fail = c.find("failure")
            if fail is None:
                continue
            for f in ruleset["findings"]:
                # A finding identical to an earlier one is named in that
                # one's "identical to ..." line instead of printed again.
                named = (f"'{f['id']}'" if f.get("identical_to") else f"id: {f['id']}")
                if property_name(f) == c.get("name") and f["severity"] == "error" \
                        and not f["accepted"] and named not in fail.text:
                    errors.append(f"junit: failure of {c.get('name')} lacks {f['id']}")
    if int(suites.get("tests")) != total:
        errors.append(f"junit: tests={suites.get('tests')} but {total} testcases")
    return errors


def main():
    root = os.path.abspath(sys.argv[1])
    with open(os.path.join(root, "schema", "report.schema.json"), encoding="utf-8") as f:
        report_schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(report_schema)
    report_validator = jsonschema.Draft202012Validator(report_schema)
    with open(sarif_schema_path(root), encoding="utf-8") as f:
        sarif_schema = json.load(f)
    sarif_validator = jsonschema.validators.validator_for(sarif_schema)(sarif_schema)
    golden = os.path.join(root, "tests", "golden", "reports")
    cases = sorted(d for d in os.listdir(golden) if os.path.isdir(os.path.join(golden, d)))
    if not cases:
        sys.exit(f"validate_reports: no cases under {golden}")
    failed = False
    for case in cases:
        errors = check_case(os.path.join(golden, case), report_validator, sarif_validator)
        for e in errors:
            print(f"{case}: {e}")
        failed = failed or bool(errors)
    if failed:
        sys.exit(1)
    print(f"validate_reports: {len(cases)} cases valid (JSON schema, SARIF 2.1.0, JUnit XML)")


if __name__ == "__main__":
    main()
