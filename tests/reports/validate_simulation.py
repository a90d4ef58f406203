#!/usr/bin/env python3
"""Validates `loophole simulate --format json` against
schema/simulation.schema.json (with the report schema it refers to for
findings), on fixtures that meet no problem, a rule gap, a deadlock and a
property violation, with and without the timings block.

Usage: validate_simulation.py LOOPHOLE_BINARY SOURCE_ROOT
"""
import json
import os
import subprocess
import sys

import jsonschema

RUNS = [
    ["tests/fixtures/simulate/biased.yaml"],
    ["tests/fixtures/simulate/gap.yaml", "--no-stats"],
    ["tests/fixtures/findings/deadlock/no-answer.yaml"],
    ["tests/fixtures/findings/property-violation/hand-limit.yaml", "--policy", "greedy",
     "--max-moves", "300"],
]


def main():
    binary, root = sys.argv[1], sys.argv[2]
    schemas = {}
    for name in ("report", "simulation"):
        with open(os.path.join(root, "schema", f"{name}.schema.json"), encoding="utf-8") as f:
            schemas[name] = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schemas["simulation"])
    # Debian's jsonschema (4.10) resolves the finding's $ref with a RefResolver.
    resolver = jsonschema.RefResolver.from_schema(
        schemas["simulation"], store={s["$id"]: s for s in schemas.values()})
    validator = jsonschema.Draft202012Validator(schemas["simulation"], resolver=resolver)
    failed = 0
    for args in RUNS:
        run = subprocess.run([binary, "simulate", "--games", "300", "--format", "json", *args],
                             cwd=root, capture_output=True, text=True, check=False)
        if run.returncode not in (0, 1):
            print(f"{args}: exit {run.returncode}: {run.stderr.strip()}")
            failed += 1
            continue
        doc = json.loads(run.stdout)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        for e in errors[:5]:
            print(f"{args}: {list(e.path)}: {e.message}")
        failed += bool(errors)
        e = doc["endings"]
        if e["over"] + e["rule_gap"] + e["deadlock"] + e["cut_off"] != doc["games"]:
            print(f"{args}: the endings do not add up to the games")
            failed += 1
    if not failed:
        print(f"ok: {len(RUNS)} simulation reports valid")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
