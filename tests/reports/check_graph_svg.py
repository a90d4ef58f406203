#!/usr/bin/env python3
"""Checks `loophole graph --format svg` end to end (it runs Graphviz's `dot`,
so its bytes depend on the Graphviz version and are not a golden file):

- the output parses as XML (xml.etree) and its root is an SVG <svg>;
- it has exactly one node per step of the ruleset (the step's `PHASE.STEP`
  as the node's <title>, the step's name as the first line of its label),
  plus the `turn_start` and `turn_end` nodes, and nothing else;
- every edge joins two of those nodes.

The steps come from the ruleset YAML itself (the `turn` key, which included
files cannot set), not from loophole. The rulesets are the phase-graph golden
inputs and the seed games.

Usage: check_graph_svg.py LOOPHOLE_BINARY SOURCE_ROOT
"""
import glob
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import yaml

SVG = "{http://www.w3.org/2000/svg}"


def steps_of(path):
    with open(path, encoding="utf-8") as f:
        ruleset = yaml.safe_load(f)
    return [(phase["name"], step["name"])
            for phase in ruleset["turn"]["phases"] for step in phase["steps"]]


def check(binary, root, rel):
    errors = []
    run = subprocess.run([binary, "graph", "--format", "svg", rel], cwd=root,
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        return [f"exit {run.returncode}: {run.stderr.strip()}"]
    try:
        svg = ET.fromstring(run.stdout)
    except ET.ParseError as e:
        return [f"not XML: {e}"]
    if svg.tag != SVG + "svg":
        errors.append(f"root is <{svg.tag}>, not <svg>")
    nodes = {}
    for g in svg.iter(SVG + "g"):
        if g.get("class") == "node":
            title = g.find(SVG + "title").text
            if title in nodes:
                errors.append(f"node '{title}' drawn twice")
            nodes[title] = [t.text for t in g.findall(SVG + "text")]
    expected = {f"{phase}.{step}" for phase, step in steps_of(os.path.join(root, rel))}
    expected |= {"turn_start", "turn_end"}
    if set(nodes) != expected:
        errors.append(f"nodes {sorted(nodes)} != steps {sorted(expected)}")
    for phase, step in steps_of(os.path.join(root, rel)):
        label = nodes.get(f"{phase}.{step}")
        if label is not None and (not label or label[0] != step):
            errors.append(f"node '{phase}.{step}' is labelled {label}, not '{step}' first")
    for g in svg.iter(SVG + "g"):
        if g.get("class") == "edge":
            title = g.find(SVG + "title").text  # "FROM->TO"
            ends = title.split("->")
            if len(ends) != 2 or not all(e in nodes for e in ends):
                errors.append(f"edge '{title}' does not join two nodes")
    return errors


def main():
    binary, root = sys.argv[1], os.path.abspath(sys.argv[2])
    files = sorted(os.path.relpath(p, root) for p in
                   glob.glob(os.path.join(root, "tests", "golden", "graph", "*", "input.yaml")) +
                   glob.glob(os.path.join(root, "rulesets", "*.yaml")))
    if not files:
        sys.exit("check_graph_svg: no rulesets found")
    failed = False
    for rel in files:
        for e in check(binary, root, rel):
            print(f"{rel}: {e}")
            failed = True
    if failed:
        sys.exit(1)
    print(f"check_graph_svg: {len(files)} graphs are SVG with one node per step")


if __name__ == "__main__":
    main()
