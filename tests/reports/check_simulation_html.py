#!/usr/bin/env python3
"""Opens a simulation report (`loophole simulate --format html`) in headless
Chromium and checks, on the DOM Chromium built, that the plots are there:

- the per-seat win chart (svg.wins) has one bar (rect.bar) per seat, P1 and
  P2, whose widths are in the ratio of the seats' wins in the JSON report
  of the same run;
- the game-length histogram (svg.lengths) has at least one bar (rect.hist);
- the problem met (a rule gap) is a <section class="finding"> with its
  transcript's last move marked (li.last).

Without Chromium the test is skipped (exit 77) with a message.

Usage: check_simulation_html.py LOOPHOLE_BINARY SOURCE_ROOT
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser

FIXTURE = "tests/fixtures/simulate/risky.yaml"
ARGS = ["--games", "2000", "--seed", "5", "--no-stats"]


class Plots(HTMLParser):
    def __init__(self):
        super().__init__()
        self.svg = []  # classes of the <svg> elements we are inside
        self.bars = {}  # seat -> width
        self.hist = 0
        self.findings = 0
        self.last_move = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "svg":
            self.svg.append(classes)
        inside = self.svg[-1] if self.svg else []
        if tag == "rect" and "bar" in classes and "wins" in inside:
            self.bars[a.get("data-seat")] = float(a.get("width"))
        if tag == "rect" and "hist" in classes and "lengths" in inside:
            self.hist += 1
        if tag == "section" and "finding" in classes:
            self.findings += 1
        if tag == "li" and "last" in classes:
            self.last_move = True

    def handle_endtag(self, tag):
        if tag == "svg" and self.svg:
            self.svg.pop()


def main():
    binary, root = sys.argv[1], sys.argv[2]
    chromium = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                     if shutil.which(n)), None)
    if chromium is None:
        print("SKIP: chromium is not installed (scripts/setup installs it)")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "simulation.html")
        run = subprocess.run([binary, "simulate", *ARGS, "--format", "html", "-o", report, FIXTURE],
                             cwd=root, capture_output=True, text=True, check=False)
        if run.returncode != 1 or not os.path.exists(report):
            print(f"loophole simulate: exit {run.returncode}: {run.stderr.strip()}")
            return 1
        data = subprocess.run([binary, "simulate", *ARGS, "--format", "json", FIXTURE],
                              cwd=root, capture_output=True, text=True, check=False)
        seats = json.loads(data.stdout)["seats"]
        dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                              f"--user-data-dir={os.path.join(tmp, 'profile')}",
                              "--dump-dom", "file://" + report],
                             capture_output=True, text=True, timeout=120, check=False)
        if dom.returncode != 0 or "<body" not in dom.stdout:
            print(f"chromium: exit {dom.returncode}: {dom.stderr.strip()[-2000:]}")
            return 1
    plots = Plots()
    plots.feed(dom.stdout)
    errors = []
    if sorted(plots.bars) != ["P1", "P2"]:
        errors.append(f"the win chart's bars are {sorted(plots.bars)}, not P1 and P2")
    else:
        for seat in seats:
            expected = 480 * seat["win_rate"]
            got = plots.bars[f"P{seat['player']}"]
            if abs(got - expected) > 0.11:
                errors.append(f"P{seat['player']}'s bar is {got} wide, not {expected:.1f}")
    if plots.hist < 1:
        errors.append("the game-length histogram has no bar")
    if plots.findings != 1:
        errors.append(f"{plots.findings} findings shown, not the one rule gap")
    if not plots.last_move:
        errors.append("the rule gap's transcript does not show its last move (li.last)")
    for e in errors:
        print(f"{FIXTURE}: {e}")
    if not errors:
        print(f"ok: win bars {plots.bars}, {plots.hist} histogram bars, the rule gap's trace")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
