"""How long scoring lettered options takes, next to one schema-constrained answer, on SmolLM2.

Both calls go through ``LLMClient`` to the llama-cpp backend with the real SmolLM2-135M GGUF
in-process, for the ``inner_speech`` module (the readiness gate's model):

- ``score_options``: one prompt listing options A, B, C; the model reads it once and the
  next-token log-probabilities of the letters are taken (no token is generated);
- ``decide``: the readiness gate's kind of answer, ``InnerSpeech`` JSON (control, missing,
  rationale) generated token by token under a grammar, up to the module's ``max_tokens``.

The two calls alternate, so each finds the other's prompt in the model's cache and evaluates
its own prompt in full (they share only the chat template's first tokens); a last line times
scoring a prompt twice in a row: the second time the cache serves all but its last token.
Prints each run's wall and CPU time and prompt / completion tokens, then the median and the
best run of each (on a shared machine the wall time follows the load, the CPU time less; the
best run is the least disturbed). Skips with a note when llama-cpp-python or the GGUF is not
installed. Asserts nothing.

    python benchmarks/option_scoring.py [--runs 10] [--quick]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from collections.abc import Callable

from cogtree.behaviours.gates.task_readiness import InnerSpeech
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.errors import LLMError
from cogtree.knowledge.llm.option_scores import OptionPrompt
from cogtree.knowledge.llm.types import CallRecord, Message

MODULE = "inner_speech"
REQUEST = "Put the blue towel away, please."
OPTIONS = (
    "A) the blue towel on the chair\nB) the blue towel in the laundry basket\nC) none of these"
)
SCORING = OptionPrompt(
    messages=(
        Message(role="system", content="You help a home robot. Answer with one letter."),
        Message(
            role="user",
            content=f"The user said: {REQUEST!r}. Which object do they mean?\n{OPTIONS}\nAnswer:",
        ),
    ),
    letters=("A", "B", "C"),
)
DECIDING = (
    Message(
        role="system",
        content="You decide whether a home robot may act on a request. Reply with JSON: "
        "control (Proceed, Clarify, SwitchDomain or Reject), missing, rationale.",
    ),
    Message(
        role="user",
        content=f"The user said: {REQUEST!r}. Two blue towels are in view: one on the chair, "
        "one in the laundry basket.",
    ),
)


def cpu_seconds() -> float:
    """User + system CPU seconds this process (every thread) has used so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(call: Callable[[], CallRecord], label: str) -> tuple[float, float]:
    """Run ``call`` once; print it; return its wall and CPU seconds."""
    cpu, clock = cpu_seconds(), time.perf_counter()
    record = call()
    wall = time.perf_counter() - clock
    print(
        f"{label}: {wall:6.3f} s wall, {cpu_seconds() - cpu:6.3f} s CPU  "
        f"({record.prompt_tokens} prompt + {record.completion_tokens} completion tokens, "
        f"{record.outcome})"
    )
    return wall, cpu_seconds() - cpu


def main() -> None:
    """Load SmolLM2 once, warm both calls up, then time ``--runs`` of each, alternating."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="runs of each call (default 10)")
    parser.add_argument(
        "--quick", action="store_true", help="one run of each, decide not warmed up (CI)"
    )
    args = parser.parse_args()
    runs = 1 if args.quick else args.runs
    config = LLMConfig.load().with_backend("llama-cpp")
    with LLMClient(config) as client:
        status = client.backend_for(MODULE).probe(client.settings_for(MODULE))
        if not status.ready:
            print(f"skipped: llama-cpp cannot run SmolLM2 here ({status.detail}); {status.fix}")
            return
        clock = time.perf_counter()
        client.prepare(MODULE)
        print(f"SmolLM2 loaded in {time.perf_counter() - clock:.2f} s ({status.detail})")

        def score() -> CallRecord:
            return client.score_options(MODULE, SCORING).record

        def decide() -> CallRecord:
            try:
                return client.decide(MODULE, DECIDING, InnerSpeech).record
            except LLMError as error:  # e.g. JSON cut at max_tokens: it took its time all the same
                assert error.record is not None
                return error.record

        scores = client.score_options(MODULE, SCORING)  # warm-up, and one answer to show
        shown = ", ".join(f"{k} {v:.2f}" for k, v in scores.probabilities.items())
        print(f"letter probabilities: {shown}")
        calls = (("score_options", score), ("decide", decide))
        if args.quick:  # no decide warm-up: decide first, so neither finds its prompt cached
            calls = calls[::-1]
        else:
            decide()  # warm-up
        walls: dict[str, list[float]] = {"score_options": [], "decide": []}
        cpus: dict[str, list[float]] = {"score_options": [], "decide": []}
        for run in range(1, runs + 1):
            for name, call in calls:
                wall, cpu = timed(call, f"run {run} {name:13}")
                walls[name].append(wall)
                cpus[name].append(cpu)
        if calls[-1][0] != "score_options":
            score()
        timed(score, "score_options of the prompt just scored (cache hit)")
    print(f"median (best) of {runs}: ", end="")
    for name in walls:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        print(f"{name} {wall:.3f} ({min(walls[name]):.3f}) s wall, ", end="")
        print(f"{cpu:.3f} ({min(cpus[name]):.3f}) s CPU; ", end="")
    ratio = statistics.median(walls["decide"]) / statistics.median(walls["score_options"])
    print(f"decide / score_options {ratio:.1f}x; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
