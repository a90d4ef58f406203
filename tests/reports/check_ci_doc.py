#!/usr/bin/env python3
"""Checks the examples of docs/ci.md: every ```yaml block parses, the
GitHub Actions workflow uploads SARIF and writes the job summary from the
Markdown report, and the loophole.yaml example has the documented shape.

Usage: check_ci_doc.py SOURCE_ROOT
"""
import os
import re
import sys

import yaml


def main():
    root = sys.argv[1]
    with open(os.path.join(root, "docs", "ci.md"), encoding="utf-8") as f:
        text = f.read()
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    if len(blocks) != 3:
        sys.exit(f"check_ci_doc: expected 3 yaml blocks in docs/ci.md, found {len(blocks)}")
    docs = [yaml.safe_load(b) for b in blocks]
    project, workflow, gitlab = docs
    errors = []
    if project.get("loophole") != 1 or not project.get("rulesets"):
        errors.append("project example: needs loophole: 1 and rulesets")
    for entry in project["rulesets"]:
        if set(entry) - {"file", "players", "params", "accept"}:
            errors.append(f"project example: unknown keys in {entry}")
        for a in entry.get("accept", []):
            if set(a) != {"id", "reason"} or not a["reason"].strip():
                errors.append(f"project example: accepted finding {a} needs id and reason")
    steps = workflow["jobs"]["loophole"]["steps"]
    uses = [s.get("uses", "") for s in steps]
    runs = "\n".join(s.get("run", "") for s in steps)
    if not any(u.startswith("github/codeql-action/upload-sarif@") for u in uses):
        errors.append("workflow: no upload-sarif step")
    if not any(u.startswith("actions/checkout@") for u in uses):
        errors.append("workflow: no checkout step")
    for needed in ["scripts/setup", "--format sarif -o loophole.sarif",
                   "--report markdown:loophole.md", "cat loophole.md >> \"$GITHUB_STEP_SUMMARY\"",
                   "./loophole diff"]:
        if needed not in runs:
            errors.append(f"workflow: no step runs {needed!r}")
    if workflow["permissions"].get("security-events") != "write":
        errors.append("workflow: upload-sarif needs security-events: write")
    if gitlab["loophole"]["artifacts"]["reports"]["junit"] != "loophole-junit.xml":
        errors.append("gitlab example: junit report path")
    for e in errors:
        print(e)
    if errors:
        sys.exit(1)
    print("check_ci_doc: docs/ci.md examples are well-formed")


if __name__ == "__main__":
    main()
