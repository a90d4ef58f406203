#!/usr/bin/env python3
"""Validates rulesets against schema/ruleset.schema.json, the schema editors use.

Every shipped ruleset, documentation example and file under tests/schema/valid/
(what loophole accepts that no example shows, e.g. a window without a protocol)
must validate, and each file under tests/schema/invalid/ must be rejected (so
the schema is not vacuous).
Exit 0 when all of that holds; prints one line per file and a summary line.
"""
import json
import pathlib
import sys

import jsonschema
import yaml

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
schema = json.loads((root / "schema/ruleset.schema.json").read_text())
jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(schema)


class Yaml12Loader(yaml.SafeLoader):
    """PyYAML speaks YAML 1.1, where `on`, `yes` and `off` are booleans; loophole
    (yaml-cpp) and editors' YAML language servers read YAML 1.2, where only
    true/false are. Resolve booleans the 1.2 way so `on:` stays a key."""


Yaml12Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:bool"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.copy().items()
}
Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", __import__("re").compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    list("tTfF"))


def load(path):
    return yaml.load(path.read_text(), Loader=Yaml12Loader)


def is_main_ruleset(doc):
    return isinstance(doc, dict) and "turn" in doc


valid = sorted(
    p for pattern in ("rulesets/**/*.yaml", "docs/examples/**/*.yaml", "tests/schema/valid/*.yaml")
    for p in root.glob(pattern))
invalid = sorted((root / "tests/schema/invalid").glob("*.yaml"))
passed = failed = 0
for path in valid:
    doc = load(path)
    if not is_main_ruleset(doc):
        continue  # included fragments (card pools) are validated through their includer's keys
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        failed += 1
        for e in errors[:5]:
            print(f"{path}: schema: {'/'.join(map(str, e.path))}: {e.message}")
    else:
        passed += 1
for path in invalid:
    doc = load(path)
    if any(True for _ in validator.iter_errors(doc)):
        passed += 1
    else:
        failed += 1
        print(f"{path}: schema accepted a ruleset it must reject")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed or passed == 0 else 0)
