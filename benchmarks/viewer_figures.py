"""Figures of the tree viewer (issue 7) on the assistant tree: snapshot size and build time per
tick, memory per tick a live feed keeps, the ROS snapshot stream's bytes and milliseconds per
message (host and viewer side), and (with chromium) how long the page takes to draw.

Records JANUS's Figure-4 turn ("How many carbohydrates are in tiramisu?", fast paths, no
model) unless a tick log is given. Prints a table; asserts nothing. A few seconds.
``--quick`` (CI) runs the snapshot stream 3 times instead of :data:`STREAM_REPEATS` and
builds snapshots and fills the live feed from every :data:`QUICK_STRIDE`-th tick only.

    python benchmarks/viewer_figures.py [--quick] [LOG]
"""

from __future__ import annotations

import argparse
import copy
import gzip
import json
import shutil
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.memory.experience import ExperienceStore
from cogtree.knowledge.memory.store import MemoryStore
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.trees.assistant_session import AssistantSession
from cogtree.trees.handles import Handles
from cogtree.trees.recording.snapshot_stream import SnapshotStream
from cogtree.trees.recording.tick_log import TickEntry, read_tick_log
from cogtree.trees.sim_wiring import step_when_busy
from cogtree.trees.testing import mock_blackboard
from cogtree.trees.viewer.feed import TickFeed
from cogtree.trees.viewer.server import ViewerServer


def record(folder: Path) -> tuple[Path, SnapshotStream]:
    """A tick log of the assistant answering the Figure-4 question, and its snapshot stream.

    The stream is made when the ROS host makes it (the session set up, before the turn), so
    fed the log's ticks it sends what the host would have sent.
    """
    log = folder / "assistant.jsonl"
    scenario = load_scenario("tidy_for_guests")
    simulator = SimExecutor.from_scenario(scenario)
    with (
        mock_blackboard(),
        LLMClient(LLMConfig.load().with_backend("none")) as llm,
        MemoryStore(folder / "memory.sqlite") as memory,
        ExperienceStore() as experience,
    ):
        handles = Handles(domains=DomainRegistry.discover(), memory=memory, experience=experience)
        handles.attach_simulator(simulator)
        with AssistantSession(
            llm=llm,
            handles=handles.as_kwargs(),
            speaker=scenario.request.speaker,
            before_tick=lambda: step_when_busy(simulator),
            rate_hz=None,
            log_path=log,
        ) as session:
            runner = session.runner
            stream = SnapshotStream(runner.root, tree=runner.tree_name, llm=llm.describe())
            session.turn("How many carbohydrates are in tiramisu?")
    simulator.close()
    return log, stream


STREAM_REPEATS = 50
"""How often the snapshot stream is run over the ticks (its figures are each message's median)."""
QUICK_STREAM_REPEATS = 3
"""The same with ``--quick``."""
QUICK_STRIDE = 10
"""With ``--quick``, snapshots are built and the live feed filled from every this-many-th tick."""


def stream_figures(
    stream: SnapshotStream, ticks: list[TickEntry], repeats: int = STREAM_REPEATS
) -> dict[str, list[float]]:
    """Per message of the ROS snapshot stream: its size, the host's and the viewer's time.

    The times are each message's median over ``repeats`` runs of a fresh copy of ``stream``
    into a fresh feed (a turn sends only a few messages).
    """
    sizes: list[float] = []
    host_runs: list[list[float]] = []
    viewer_runs: list[list[float]] = []
    for _ in range(repeats):
        fresh = copy.deepcopy(stream)
        feed = TickFeed(keep=None)
        host_ms: list[float] = []
        viewer_ms: list[float] = []
        sizes.clear()
        for entry in ticks:
            started = time.perf_counter()
            message = fresh.update(entry)
            took = (time.perf_counter() - started) * 1000
            if message is None:
                continue
            host_ms.append(took)
            sizes.append(len(message.encode("utf-8")))
            started = time.perf_counter()
            feed.push_json(json.loads(message))
            viewer_ms.append((time.perf_counter() - started) * 1000)
        host_runs.append(host_ms)
        viewer_runs.append(viewer_ms)
    return {
        "ROS snapshot message (bytes)": sizes,
        "ROS snapshot encode on the host (ms/message)": _medians(host_runs),
        "ROS snapshot parse + push in the viewer (ms/message)": _medians(viewer_runs),
    }


def _medians(runs: list[list[float]]) -> list[float]:
    """Each position's median over the runs (every run has the same messages)."""
    return [statistics.median(values) for values in zip(*runs, strict=True)]


PAGE_DEADLINE_S = 60.0
"""A page that has not drawn the last tick by then is reported as not loading."""


def page_load_s(server: ViewerServer, last_tick: int) -> tuple[float, int] | None:
    """Seconds from the request to the last tick drawn (where a log opens), and the nodes
    drawn then (what ran; the rest folded), in headless chromium (None without it or when
    the page never got there)."""
    chromium = shutil.which("chromium")
    if chromium is None or not Path("/usr/bin/chromedriver").is_file():
        return None
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1600,1000"):
        options.add_argument(argument)
    driver = webdriver.Chrome(
        service=webdriver.ChromeService("/usr/bin/chromedriver"), options=options
    )
    try:
        started = time.perf_counter()
        driver.get(server.url)
        drawn = (
            "return document.body.dataset.tick === arguments[0] "
            "? document.querySelectorAll('#canvas .html-element').length : 0"
        )
        while time.perf_counter() - started < PAGE_DEADLINE_S:
            nodes = int(driver.execute_script(drawn, str(last_tick)))
            if nodes > 0:
                return time.perf_counter() - started, nodes
            time.sleep(0.01)
        return None
    finally:
        driver.quit()


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", nargs="?", type=Path, help="a tick log (default: record one)")
    parser.add_argument("--quick", action="store_true", help="few repeats, some ticks (CI)")
    args = parser.parse_args()
    repeats = QUICK_STREAM_REPEATS if args.quick else STREAM_REPEATS
    with tempfile.TemporaryDirectory() as folder:
        stream: SnapshotStream | None = None
        if args.log is not None:
            log = args.log
        else:
            log, stream = record(Path(folder))
        header, ticks = read_tick_log(log)
        streamed = stream_figures(stream, ticks, repeats) if stream is not None else {}
        feed = TickFeed.from_log(log)
        sampled = ticks[:: QUICK_STRIDE if args.quick else 1]
        raw: list[float] = []
        packed: list[float] = []
        build_ms: list[float] = []
        for entry in sampled:
            started = time.perf_counter()
            snapshot = feed.snapshot(entry.tick)
            build_ms.append((time.perf_counter() - started) * 1000)
            data = json.dumps(snapshot, separators=(",", ":")).encode("utf-8")
            raw.append(len(data))
            packed.append(len(gzip.compress(data, compresslevel=5)))

        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        live = TickFeed(keep=len(sampled))
        live.push(header)
        for entry in sampled:
            live.push(entry.model_copy(deep=True))
        growth = tracemalloc.take_snapshot().compare_to(before, "filename")
        held = sum(stat.size_diff for stat in growth)
        tracemalloc.stop()

        with ViewerServer(feed) as server:
            load = page_load_s(server, ticks[-1].tick)

    print(f"tree {header.tree}: {len(header.structure)} nodes, {len(ticks)} ticks")
    if stream is None:
        print("(no ROS snapshot stream figures for a given log: they need the recorded tree)")
    else:
        print(f"ROS snapshot stream: {len(streamed['ROS snapshot message (bytes)'])} messages")
    print("| figure | min | mean | max |")
    print("|---|---|---|---|")
    figures: dict[str, list[float]] = {
        "snapshot JSON per tick (bytes)": raw,
        "snapshot gzipped (bytes, as served)": packed,
        "snapshot build (ms)": build_ms,
        **streamed,
    }
    for name, values in figures.items():
        low, mean, high = min(values), statistics.mean(values), max(values)
        print(f"| {name} | {low:.4g} | {mean:.4g} | {high:.4g} |")
    print(f"live feed memory per kept tick: {held / len(sampled) / 1024:.1f} KiB")
    shown = f"{load[0]:.2f} s, {load[1]} nodes drawn" if load is not None else "n/a"
    print(f"page load to the last tick drawn (headless chromium): {shown}")


if __name__ == "__main__":
    main()
