"""Run the tests that were once flaky many times while CPU hogs compete for the cores.

Each tests here failed under load before its cause was fixed (a wait on wall time instead of
an event, a shared server log, a publisher destroyed under a running timer). This script
starts ``--hogs`` busy processes (``python -c 'while True: pass'``), runs the listed tests
``--runs`` times (one pytest process per run, so each run starts cold), stops the hogs, and
prints how often each test passed. A thread that dies with an exception fails its test
(``PytestUnhandledThreadExceptionWarning`` is an error here). Exit 1 when any test failed a
run.

    python scripts/flaky_repeat.py [--runs 20] [--hogs 2] [TEST_ID ...]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ONCE_FLAKY = tuple(
    f"tests/{path}::{name}"
    for path, name in (
        (
            "behaviours/test_skill_behaviours.py",
            "test_failed_precondition_fails_without_sending_a_command",
        ),
        ("ros/test_ros_executor.py", "test_cancel_stops_the_command_on_the_robot_side"),
        ("trees/test_example_and_readme.py", "test_example_with_the_real_smollm2_model_stays_safe"),
        ("llm/test_ollama_backend.py", "test_cancel_before_start_sends_nothing"),
        ("llm/test_ollama_backend.py", "test_slow_server_is_timeout"),
        ("llm/test_deadline_transport.py", "test_cancelling_a_call_ends_it_before_its_deadline"),
        ("behaviours/test_post_process.py", "test_a_lookup_past_the_time_limit_is_given_up"),
    )
)
"""The tests found flaky under load so far (git log, issue 18)."""

OUTCOME = re.compile(r"^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S+)")


def start_hogs(count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes that keep one core busy each."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def stop(hogs: list[subprocess.Popen[bytes]]) -> None:
    """Stop the hogs this script started (by their own process handles)."""
    for hog in hogs:
        hog.terminate()
    for hog in hogs:
        hog.wait(timeout=10)


def run_once(tests: list[str]) -> dict[str, str]:
    """One pytest run of ``tests``: each test id -> its outcome (FAILED when not reported)."""
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-rA",
        "-p",
        "no:cacheprovider",
        "-W",
        "error::pytest.PytestUnhandledThreadExceptionWarning",
        *tests,
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    outcomes = {test: "FAILED" for test in tests}
    for line in done.stdout.splitlines():
        found = OUTCOME.match(line)
        if found is not None and found.group(2) in outcomes:
            outcomes[found.group(2)] = found.group(1)
    if any(outcome in ("FAILED", "ERROR") for outcome in outcomes.values()):
        print(done.stdout[-4000:], file=sys.stderr)
    return outcomes


def main() -> int:
    """Start the hogs, run the tests ``--runs`` times, stop the hogs, print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="how many times (default 20)")
    parser.add_argument("--hogs", type=int, default=2, help="busy processes (default 2)")
    parser.add_argument("tests", nargs="*", help="test ids (default: the once-flaky ones)")
    args = parser.parse_args()
    tests = args.tests or list(ONCE_FLAKY)
    counts: dict[str, Counter[str]] = {test: Counter() for test in tests}
    hogs = start_hogs(args.hogs)
    clock = time.monotonic()
    try:
        for run in range(1, args.runs + 1):
            for test, outcome in run_once(tests).items():
                counts[test][outcome] += 1
            print(f"run {run}/{args.runs} done ({time.monotonic() - clock:.0f} s)", flush=True)
    finally:
        stop(hogs)
    print(f"\n{args.runs} runs under {args.hogs} CPU hogs:")
    for test, counted in counts.items():
        others = ", ".join(f"{n} {what.lower()}" for what, n in counted.items() if what != "PASSED")
        also = f"  ({others})" if others else ""
        print(f"  {counted['PASSED']:>3}/{args.runs} passed  {test}{also}")
    failed = any(counted["FAILED"] or counted["ERROR"] for counted in counts.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
