#!/usr/bin/env python3
"""Opens an HTML report in headless Chromium and checks, on the DOM Chromium
built (not on the bytes loophole wrote), what a designer sees first:

- the first finding (a <section class="finding">) comes before the phase
  graph, and the graph is inside a <details class="graph"> that is closed
  (no `open` attribute), so it does not fill the first screen;
- the finding's transcript starts with the state after setup (p.start) and
  its last move is marked (li.last): the end of a trace is never dropped;
- the first finding holds its path on the phase graph (details.path,
  closed), drawn by Graphviz: the path's steps and edges painted, the edges
  numbered by move ("move 1") and the finding's step marked ("finding
  here").

The report is a real one: `loophole check --format html` on a fixture, with
the phase graph Graphviz drew. Without Chromium (scripts/setup installs it)
the test is skipped (exit 77) with a message.

Usage: check_html_chromium.py LOOPHOLE_BINARY SOURCE_ROOT
"""
import os
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser

FIXTURE = "tests/fixtures/findings/response-loop/ward-duel.yaml"


class Order(HTMLParser):
    """The document order of the elements the checks are about."""

    def __init__(self):
        super().__init__()
        self.position = 0
        self.first_finding = None
        self.graph = None  # (position, attributes) of details.graph
        self.svg_in_graph = False
        self.open_details = []  # classes of the <details> we are inside
        self.start = False
        self.last_move = False
        self.sections = 0  # depth inside the first finding's <section>
        self.path = None  # attributes of the first finding's details.path
        self.in_path = 0  # depth of <details class="path"> we are inside
        self.path_text = []  # the text drawn in its svg
        self.path_painted = False  # an svg element stroked in the highlight color

    def handle_starttag(self, tag, attrs):
        self.position += 1
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "section" and "finding" in classes and self.first_finding is None:
            self.first_finding = self.position
            self.sections = 1
        elif tag == "section" and self.sections > 0:
            self.sections += 1
        if tag == "details" and "path" in classes and self.sections > 0 and self.path is None:
            self.path = a
            self.in_path = 1
        elif tag == "details" and self.in_path > 0:
            self.in_path += 1
        if self.in_path > 0 and a.get("stroke") == "red":
            self.path_painted = True
        if tag == "details":
            self.open_details.append(classes)
            if "graph" in classes and self.graph is None:
                self.graph = (self.position, a)
        if tag == "svg" and any("graph" in c for c in self.open_details):
            self.svg_in_graph = True
        if tag == "p" and "start" in classes:
            self.start = True
        if tag == "li" and "last" in classes:
            self.last_move = True

    def handle_endtag(self, tag):
        if tag == "details" and self.open_details:
            self.open_details.pop()
        if tag == "details" and self.in_path > 0:
            self.in_path -= 1
        if tag == "section" and self.sections > 0:
            self.sections -= 1

    def handle_data(self, data):
        if self.in_path > 0 and data.strip():
            self.path_text.append(data.strip())


def main():
    binary, root = sys.argv[1], sys.argv[2]
    chromium = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                     if shutil.which(n)), None)
    if chromium is None:
        print("SKIP: chromium is not installed (scripts/setup installs it)")
        return 77
    if shutil.which("dot") is None:
        print("SKIP: Graphviz's dot is not installed: the report would have no graph")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.html")
        run = subprocess.run([binary, "check", "--format", "html", "--no-stats", "-o", report,
                              FIXTURE], cwd=root, capture_output=True, text=True, check=False)
        if run.returncode != 1 or not os.path.exists(report):
            print(f"loophole check: exit {run.returncode}: {run.stderr.strip()}")
            return 1
        dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                              f"--user-data-dir={os.path.join(tmp, 'profile')}",
                              "--dump-dom", "file://" + report],
                             capture_output=True, text=True, timeout=120, check=False)
        if dom.returncode != 0 or "<body" not in dom.stdout:
            print(f"chromium: exit {dom.returncode}: {dom.stderr.strip()[-2000:]}")
            return 1
    order = Order()
    order.feed(dom.stdout)
    errors = []
    if order.first_finding is None:
        errors.append("no <section class=\"finding\"> in the DOM")
    if order.graph is None:
        errors.append("no <details class=\"graph\"> in the DOM")
    else:
        position, attrs = order.graph
        if order.first_finding is not None and position < order.first_finding:
            errors.append("the phase graph comes before the first finding")
        if "open" in attrs:
            errors.append("the phase graph's <details> is open")
        if not order.svg_in_graph:
            errors.append("the graph's <svg> is not inside the <details>")
    if not order.start:
        errors.append("no transcript starts with the state after setup (p.start)")
    if not order.last_move:
        errors.append("no transcript shows its last move (li.last)")
    if order.path is None:
        errors.append("the first finding has no path on the phase graph (details.path)")
    else:
        if "open" in order.path:
            errors.append("the path's <details> is open")
        if "finding here" not in order.path_text:
            errors.append(f"the path does not mark the finding's step: {order.path_text}")
        if not any(t.startswith("move") for t in order.path_text):
            errors.append(f"the path's edges are not numbered by move: {order.path_text}")
        if not order.path_painted:
            errors.append("no element of the path is painted (stroke=red)")
    for e in errors:
        print(f"{FIXTURE}: {e}")
    if not errors:
        print("ok: the first finding comes before the collapsed phase graph, with its path")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
