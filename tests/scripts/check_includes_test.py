#!/usr/bin/env python3
"""scripts/check-includes on small trees: each kind of violation is reported
at its file:line:col with exit 1, a listed exception passes, a stale one
fails, and the repository itself passes."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "check-includes")


def tree(files: dict[str, str]) -> str:
    root = tempfile.mkdtemp(prefix="check-includes-")
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)
    return root


def run(root: str):
    r = subprocess.run([sys.executable, SCRIPT, root], capture_output=True, text=True)
    return r.returncode, r.stderr


BASE = {
    "model/include/loophole/model/game.hpp": "#pragma once\n",
    "checker/include/loophole/checker/semantics.hpp":
        '#pragma once\n#include "loophole/model/game.hpp"\n',
    "checker/src/semantics/prepared.hpp": "#pragma once\n",
    "checker/smt/include/loophole/smt/engine.hpp": "#pragma once\n",
    "properties/include/loophole/properties/finding.hpp":
        '#pragma once\n#include "loophole/checker/semantics.hpp"\n',
    "cli/src/commands.hpp": "#pragma once\n",
}


class CheckIncludes(unittest.TestCase):
    def test_a_clean_tree_passes(self):
        code, err = run(tree(BASE))
        self.assertEqual(code, 0, err)
        self.assertIn("6 files include along the layers (0 listed exception(s))", err)

    def test_an_include_upwards_is_located(self):
        files = dict(BASE)
        files["checker/smt/src/engine.cpp"] = (
            '// x\n#include "loophole/smt/engine.hpp"\n  #include "loophole/properties/finding.hpp"\n')
        code, err = run(tree(files))
        self.assertEqual(code, 1)
        self.assertIn("checker/smt/src/engine.cpp:3:12: error: include against the layer "
                      "direction: smt (engines) includes properties (properties), a layer above it "
                      "(\"loophole/properties/finding.hpp\")", err)

    def test_a_sibling_engine_is_refused(self):
        files = dict(BASE)
        files["checker/src/explicit/bfs.cpp"] = '#include "loophole/smt/engine.hpp"\n'
        code, err = run(tree(files))
        self.assertEqual(code, 1)
        self.assertIn("checker/src/explicit/bfs.cpp:1:10: error: include against the layer "
                      "direction: explicit includes smt, a sibling in the engines layer", err)

    def test_another_components_private_header_is_refused(self):
        files = dict(BASE)
        files["checker/smt/src/encoding.hpp"] = '#include "semantics/prepared.hpp"\n'
        files["tests/reports/report_test.cpp"] = '#include "commands.hpp"\n'
        code, err = run(tree(files))
        self.assertEqual(code, 1)
        self.assertIn("checker/smt/src/encoding.hpp:1:10: error: include against the layer "
                      "direction: smt reads semantics's private header", err)
        self.assertIn("tests/reports/report_test.cpp:1:10: error: include against the layer "
                      "direction: a test of reports reads cli's private header", err)
        self.assertIn("2 error(s)", err)

    def test_a_components_own_tests_read_its_private_headers(self):
        files = dict(BASE)
        files["tests/cli/cli_test.cpp"] = '#include "commands.hpp"\n'
        code, err = run(tree(files))
        self.assertEqual(code, 0, err)

    def test_listed_exceptions_pass_and_stale_ones_fail(self):
        files = dict(BASE)
        files["checker/smt/src/encoding.hpp"] = '#include "semantics/prepared.hpp"\n'
        files["scripts/include-exceptions.txt"] = (
            "# why\n"
            "checker/smt/src/encoding.hpp -> checker/src/semantics/prepared.hpp  # planned\n")
        code, err = run(tree(files))
        self.assertEqual(code, 0, err)
        self.assertIn("(1 listed exception(s))", err)
        files["scripts/include-exceptions.txt"] += "cli/src/x.cpp -> model/src/y.hpp\n"
        code, err = run(tree(files))
        self.assertEqual(code, 1)
        self.assertIn("scripts/include-exceptions.txt:3: error: 'cli/src/x.cpp -> "
                      "model/src/y.hpp' no longer occurs; delete the entry", err)

    def test_the_repository_passes(self):
        code, err = run(ROOT)
        self.assertEqual(code, 0, err)


if __name__ == "__main__":
    unittest.main()
