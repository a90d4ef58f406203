#!/usr/bin/env python3
"""Validates `loophole solve --format json` against schema/solve.schema.json,
on fixtures with a forced win (race), a fair coin (coin) and three players
(bystander), with small and default tree bounds.

Usage: validate_solve.py LOOPHOLE_BINARY SOURCE_ROOT
"""
import json
import os
import subprocess
import sys

import jsonschema

RUNS = [
    ["tests/fixtures/simulate/race.yaml"],
    ["tests/fixtures/simulate/race.yaml", "--tree-size", "3"],
    ["tests/fixtures/strategy/coin.yaml", "--nature", "fair"],
    ["tests/fixtures/findings/cannot-lose/bystander.yaml", "--tree-depth", "2"],
]


def main():
    binary, root = sys.argv[1], sys.argv[2]
    with open(os.path.join(root, "schema", "solve.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failed = 0
    for args in RUNS:
        run = subprocess.run([binary, "solve", "-j", "1", "--format", "json", *args],
                             cwd=root, capture_output=True, text=True, check=False)
        if run.returncode != 0:
            print(f"{args}: exit {run.returncode}: {run.stderr.strip()}")
            failed += 1
            continue
        doc = json.loads(run.stdout)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        for e in errors[:5]:
            print(f"{args}: {list(e.path)}: {e.message}")
        failed += bool(errors)
    print(f"validate_solve: {len(RUNS) - failed} of {len(RUNS)} runs valid")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
