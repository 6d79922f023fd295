"""Tick latency while a 2 s model call is in flight, against tick latency with none in flight.

Both are measured in one run on the same tree (the ask-before-acting example) and the same
machine, so the ratio is meaningful even on a shared, noisy computer. The model is the scripted
backend with a 2 s delay: the point is what the *tree* pays while a model thinks, whatever the
model. Prints a table; asserts nothing.

    python benchmarks/tick_latency.py [--ticks 200] [--delay 2.0]
"""

from __future__ import annotations

import argparse
import statistics
import time

import py_trees

from trees.examples.ask_before_acting import create_root
from trees.testing import mock_blackboard, scripted_llm

ANSWER = {"control": "Clarify", "slots": {}, "missing": ["item"], "rationale": "no object named"}


def measure(utterance: str, ticks: int, delay_s: float) -> tuple[list[float], int]:
    """Tick the example tree ``ticks`` times; return per-tick ms and how many ran in flight."""
    llm = scripted_llm(
        {"by_module": {"inner_speech": [{"answer": ANSWER, "delay_s": delay_s}]}},
        modules={"inner_speech": {"timeout_s": delay_s * 10}},
    )
    samples: list[float] = []
    in_flight = 0
    with mock_blackboard({"/turn/utterance": utterance}), llm.client:
        tree = py_trees.trees.BehaviourTree(create_root())
        tree.setup(timeout=15.0, llm=llm.client)
        tree.tick()  # first tick: submits the call (or decides by the fast path)
        for _ in range(ticks):
            started = time.perf_counter()
            tree.tick()
            samples.append((time.perf_counter() - started) * 1000.0)
            in_flight += tree.root.status == py_trees.common.Status.RUNNING
            time.sleep(0.001)
        tree.root.stop(py_trees.common.Status.INVALID)
    return samples, in_flight


def describe(samples: list[float]) -> str:
    """Median, 95th percentile and maximum of a latency sample, in ms."""
    ordered = sorted(samples)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"{statistics.median(ordered):8.3f} {p95:8.3f} {ordered[-1]:8.3f}"


def main() -> None:
    """Run both measurements and print them side by side."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ticks", type=int, default=200)
    parser.add_argument("--delay", type=float, default=2.0, help="model think time in s")
    args = parser.parse_args()
    in_flight, running = measure("bring it to the kitchen", args.ticks, args.delay)
    idle, _ = measure("bring the cup to the kitchen", args.ticks, args.delay)
    print(f"tick latency over {args.ticks} ticks (ms)      median      p95      max")
    print(f"model call in flight ({running} ticks RUNNING) {describe(in_flight)}")
    print(f"no model call (fast path decided)    {describe(idle)}")
    ratio = statistics.median(in_flight) / statistics.median(idle)
    print(f"median ratio in-flight / idle: {ratio:.2f}")


if __name__ == "__main__":
    main()
