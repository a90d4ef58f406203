#!/usr/bin/env python3
"""`loophole check` under mpirun (docs/distributed.md), end to end.

    cli_test.py MPIEXEC LOOPHOLE

- On fixtures of every kind the distributed search answers (the
  state-local ones and the cycle analyses), for 2 ranks of two threads
  (`-j 2`) and 4 ranks of one: the same
  states and transitions and the same findings of those kinds (kind, rule,
  verdict, message, details, classification, trace length and loop start)
  as one process without symmetry reduction, ends out of reach included
  (with the rule gap a note follows from) and `leads_to` (alarm, holds, leads-to-stuck);
  nothing listed as not checked;
  the exit code rank 0's.
- Only `check` and only the explicit engine run under mpirun (exit 2).
- A memory limit per rank and a timeout each end the run with exit 3 and a
  complete JSON report of what was explored (valid against
  schema/report.schema.json), within 5 s of the limit.
- Through scripts/loophole-mpirun: SIGINT to it, SIGUSR1 to mpirun itself,
  and a rank killed (SIGKILL) each end the run with exit 3 and a valid
  partial report, within 5 s of the signal; so does SIGINT to one rank
  (rank 1) under plain mpirun.
"""

from __future__ import annotations

import json
import os
import signal

import jsonschema
import subprocess
import sys
import tempfile
import time

MPIEXEC, LOOPHOLE = sys.argv[1], sys.argv[2]
ENV = dict(
    os.environ,
    OMPI_ALLOW_RUN_AS_ROOT="1",
    OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
    OMPI_MCA_btl_vader_single_copy_mechanism="none",
    OMPI_MCA_mpi_yield_when_idle="1",
    ASAN_OPTIONS="detect_leaks=0",
)
DISTRIBUTED = {"deadlock", "rule-gap", "tie", "unreachable-win", "dead-rule",
               "property-violation", "response-loop", "stall", "turn-loop", "stalemate",
               "unbounded-chain", "cannot-lose", "cannot-end"}
NOT_DISTRIBUTED: list[str] = []  # (leads_to included: alarm, holds, leads-to-stuck)
FIXTURES = [
    "tests/fixtures/findings/deadlock/no-pass.yaml",
    "tests/fixtures/findings/deadlock/third-player.yaml",
    "tests/fixtures/findings/rule-gap/empty-deck.yaml",
    "tests/fixtures/findings/rule-gap/invented-boost.yaml",
    "tests/fixtures/findings/tie/double-knockout.yaml",
    "tests/fixtures/findings/dead-rule/dead-window.yaml",
    "tests/fixtures/findings/dead-rule/dead-trigger.yaml",
    "tests/fixtures/findings/property-violation/hand-limit.yaml",
    "tests/fixtures/findings/property-violation/unreachable-goal.yaml",
    "tests/fixtures/findings/property-violation/alarm.yaml",
    "tests/fixtures/findings/property-violation/holds.yaml",
    "tests/distributed/fixtures/leads-to-stuck.yaml",
    "tests/fixtures/findings/unreachable-win/" + sorted(
        os.listdir("tests/fixtures/findings/unreachable-win"))[0],
    "tests/fixtures/findings/response-loop/ward-duel.yaml",
    "tests/fixtures/findings/stall/doomed-turn.yaml",
    "tests/fixtures/findings/turn-loop/hold-echo.yaml",
    "tests/fixtures/findings/stalemate/race.yaml",
    "tests/fixtures/findings/unbounded-chain/counter-war.yaml",
    "tests/fixtures/findings/cannot-end/hide.yaml",
    "tests/fixtures/findings/cannot-end/operators-stuck.yaml",
    "tests/fixtures/findings/cannot-lose/bystander.yaml",
]
BIG = "tests/fixtures/cli/big.yaml"
WRAPPER = "scripts/loophole-mpirun"
with open("schema/report.schema.json", encoding="utf-8") as schema_file:
    SCHEMA = json.load(schema_file)
VALIDATOR = jsonschema.validators.validator_for(SCHEMA)(SCHEMA)
failures: list[str] = []


def fail(what: str) -> None:
    failures.append(what)
    print("FAIL:", what)


def mpirun(np: int, args: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run([MPIEXEC, "--oversubscribe", "-np", str(np), LOOPHOLE, "check", *args],
                          env=ENV, capture_output=True, text=True, timeout=600, **kw)


def summary(report: dict) -> list[tuple]:
    rs = report["rulesets"][0]
    out = []
    for f in rs["findings"]:
        if f["kind"] not in DISTRIBUTED:
            continue
        trace = f.get("trace") or {}
        out.append((f["kind"], f["rule"], f["verdict"], f["severity"], f["caused_by"],
                    f["message"], tuple(f["details"]),
                    json.dumps(f.get("classification"), sort_keys=True),
                    trace.get("length", 0), trace.get("loop_start", -1)))
    return sorted(out)


def same_answers(tmp: str) -> None:
    for fixture in FIXTURES:
        one = subprocess.run([LOOPHOLE, "check", "--no-symmetry", "--format", "json", fixture],
                             capture_output=True, text=True, timeout=600)
        single = json.loads(one.stdout)
        for np in (2, 4):
            out = os.path.join(tmp, f"np{np}.json")
            # (-np 2 with two threads a rank, -np 4 with one.)
            threads = ["-j", "2"] if np == 2 else []
            run = mpirun(np, [*threads, "--format", "json", "-o", out, fixture])
            if run.returncode not in (0, 1):
                fail(f"{fixture} -np {np}: exit {run.returncode}: {run.stderr[-2000:]}")
                continue
            report = json.load(open(out))
            rs, srs = report["rulesets"][0], single["rulesets"][0]
            for what in ("states", "transitions", "depth"):
                if rs["statistics"][what] != srs["statistics"][what]:
                    fail(f"{fixture} -np {np}: {rs['statistics'][what]} {what}, "
                         f"one process {srs['statistics'][what]}")
            if summary(report) != summary(single):
                fail(f"{fixture} -np {np}: findings differ:\n  {summary(report)}\n  "
                     f"{summary(single)}")
            if sorted(rs["not_checked"]) != sorted(NOT_DISTRIBUTED):
                fail(f"{fixture} -np {np}: not_checked {rs['not_checked']}")
            failing = any(f["severity"] == "error" and f["verdict"] == "violated"
                          for f in rs["findings"])
            if run.returncode != (1 if failing else 0):
                fail(f"{fixture} -np {np}: exit {run.returncode}, findings failing: {failing}")
        print(f"ok: {fixture}: {len(summary(single))} findings, identical for -np 2 -j 2 and -np 4")


def refusals() -> None:
    run = subprocess.run([MPIEXEC, "--oversubscribe", "-np", "2", LOOPHOLE, "graph", FIXTURES[0]],
                         env=ENV, capture_output=True, text=True, timeout=120)
    if run.returncode == 0 or "only `check` runs under mpirun" not in run.stderr:
        fail(f"graph under mpirun: exit {run.returncode}: {run.stderr[-500:]}")
    run = mpirun(2, ["--engine", "smt", FIXTURES[0]])
    if run.returncode == 0 or "under mpirun only --engine explicit runs" not in run.stderr:
        fail(f"--engine smt under mpirun: exit {run.returncode}: {run.stderr[-500:]}")
    print("ok: refusals")


def rank_pid(rank: int, marker: str) -> int | None:
    """The pid of the rank of the run whose command line holds `marker`."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read().decode(errors="replace")
            with open(f"/proc/{pid}/environ", "rb") as f:
                environ = f.read().decode(errors="replace").split("\0")
        except OSError:
            continue
        if marker in cmdline and f"OMPI_COMM_WORLD_RANK={rank}" in environ:
            return int(pid)
    return None


def partial(tmp: str, name: str, args: list[str], completion: str, stop: str = "",
            wrapper: bool = False):
    """Runs check on 2 ranks; `stop` after 3 s: "sigint" (to the wrapper),
    "usr1" (to mpirun), "kill" (SIGKILL to rank 1), "rank-sigint" (SIGINT to
    rank 1 alone, as a signal on any one rank)."""
    out = os.path.join(tmp, name + ".json")
    launcher = [WRAPPER] if wrapper else [MPIEXEC]
    env = dict(ENV, MPIRUN=MPIEXEC)
    cmd = [*launcher, "--oversubscribe", "-np", "2", LOOPHOLE, "check", "--format", "json",
           "-o", out, *args]
    started = time.monotonic()
    # (SIGINT as a terminal gives it, even if this test was started ignoring it.)
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    signalled = None
    if stop:
        time.sleep(3)
        signalled = time.monotonic()
        if stop == "sigint":
            proc.send_signal(signal.SIGINT)
        elif stop == "usr1":
            proc.send_signal(signal.SIGUSR1)
        elif stop in ("kill", "rank-sigint"):
            pid = rank_pid(1, out)
            if pid is None:
                fail(f"{name}: no rank 1 found")
                proc.kill()
            else:
                os.kill(pid, signal.SIGKILL if stop == "kill" else signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=600)
    ended = time.monotonic()
    if not os.path.exists(out):
        fail(f"{name}: no report (exit {proc.returncode}): {stderr[-1500:]}")
        return
    report = json.load(open(out))  # complete: it parses
    errors = sorted(VALIDATOR.iter_errors(report), key=str)
    if errors:
        fail(f"{name}: the report does not validate: {errors[0].message}")
    rs = report["rulesets"][0]
    if rs["completion"] != completion:
        fail(f"{name}: completion {rs['completion']}, expected {completion}")
    if rs["statistics"]["states"] <= 0:
        fail(f"{name}: no states in the partial report")
    if proc.returncode != 3:
        fail(f"{name}: exit {proc.returncode}, expected 3: {stderr[-1500:]}")
    if signalled is not None and ended - signalled > 5:
        fail(f"{name}: ended {ended - signalled:.1f} s after the signal")
    print(f"ok: {name}: {rs['statistics']['states']} states, {rs['completion']}, exit "
          f"{proc.returncode}, {ended - started:.1f} s")


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        same_answers(tmp)
        refusals()
        partial(tmp, "memory", ["-p", "top=4000", "--max-memory", "40M", BIG], "memory-limit")
        started = time.monotonic()
        partial(tmp, "timeout", ["-p", "top=4000", "--timeout", "2s", BIG], "time-limit")
        if time.monotonic() - started > 2 + 5:
            fail("timeout: the run took over 5 s past its 2 s limit")
        partial(tmp, "sigint", ["-p", "top=4000", BIG], "interrupted", stop="sigint",
                wrapper=True)
        partial(tmp, "usr1", ["-p", "top=4000", BIG], "interrupted", stop="usr1")
        partial(tmp, "rank-sigint", ["-p", "top=4000", BIG], "interrupted", stop="rank-sigint")
        partial(tmp, "dead-rank", ["-p", "top=4000", BIG], "interrupted", stop="kill",
                wrapper=True)
        partial(tmp, "memory-wrapped", ["-p", "top=4000", "--max-memory", "40M", BIG],
                "memory-limit", wrapper=True)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
