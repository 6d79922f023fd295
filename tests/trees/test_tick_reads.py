"""The runner records blackboard reads per tick; logs written before reads still load."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import py_trees
from py_trees.common import Access, Status

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.trees.recording.tick_log import READ_VALUE_CHARS, TickEntry, read_tick_log
from cogtree.trees.runner import TreeRunner


class Reader(py_trees.behaviour.Behaviour):
    """Reads a set key twice, a long key, an unset key, and writes one."""

    def __init__(self) -> None:
        super().__init__("Reader")
        self.blackboard = self.attach_blackboard_client(name=self.name)
        for key in ("/turn/utterance", "/turn/long", "/turn/task"):
            self.blackboard.register_key(key, access=Access.READ)
        self.blackboard.register_key("/turn/reply", access=Access.WRITE)

    def update(self) -> Status:
        heard = self.blackboard.get("/turn/utterance")
        self.blackboard.get("/turn/utterance")
        self.blackboard.get("/turn/long")
        with contextlib.suppress(KeyError):
            self.blackboard.get("/turn/task")
        self.blackboard.set("/turn/reply", f"you said {heard}")
        return Status.SUCCESS


def run_reader(log: Path | None = None) -> TickEntry:
    with (
        LLMClient(LLMConfig.load().with_backend("none")) as llm,
        TreeRunner(Reader(), llm=llm, log_path=log) as runner,
    ):
        runner.setup()
        return runner.tick()


def test_reads_are_recorded_once_per_key_with_short_values(blackboard, tmp_path) -> None:
    blackboard.set("/turn/utterance", "hello")
    blackboard.set("/turn/long", "x" * (READ_VALUE_CHARS + 1))
    entry = run_reader(tmp_path / "run.jsonl")

    reads = [(read.key, read.client, read.missing, read.value) for read in entry.reads]
    assert reads == [
        ("/turn/utterance", "Reader", False, "hello"),
        ("/turn/long", "Reader", False, None),  # too long to repeat in every tick
        ("/turn/task", "Reader", True, None),
    ]
    assert [(write.key, write.value) for write in entry.writes] == [
        ("/turn/reply", "you said hello")
    ]
    _, logged = read_tick_log(tmp_path / "run.jsonl")
    assert logged[0].reads == entry.reads


def test_a_log_without_reads_still_loads(blackboard, tmp_path) -> None:
    blackboard.set("/turn/utterance", "hello")
    blackboard.set("/turn/long", "long")
    log = tmp_path / "run.jsonl"
    run_reader(log)
    header, tick = log.read_text().splitlines()
    older = json.loads(tick)
    del older["reads"]
    log.write_text(header + "\n" + json.dumps(older) + "\n")
    _, ticks = read_tick_log(log)
    assert ticks[0].reads == [] and ticks[0].writes
