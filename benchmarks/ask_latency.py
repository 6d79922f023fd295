"""The start-up cost of the command line: `cogtree --help`, and `cogtree ask` with no model.

Runs each command as a user types it, a fresh Python process each time, and prints the CPU
time of the process (user + system, the median of ``--runs``): on a shared machine the wall
time follows the load, the CPU time much less. ``--help`` builds the top-level parser only
(the table of subcommands, :mod:`trees.cli.commands`); the figure beside it is how many
modules that start-up imports. ``ask "where is the magazine?" --llm none`` runs one turn of
the assistant tree in the default world (throwaway memory and data directory; memory recall
``auto``: TF-IDF where Ollama does not answer). Targets: 0.5 s of CPU for ``--help``, 1.5 s
for ``ask``. Asserts nothing.

The processes write their bytecode to a throwaway cache (``PYTHONPYCACHEPREFIX``, even where
``PYTHONDONTWRITEBYTECODE`` is set), and a first run of each command, printed apart, fills
it: the medians are what a user pays once the installed package has its bytecode (pip writes
it at install), not the compiling of every module. ``--quick`` (CI) runs each command once,
without that first run: its one figure then includes writing the bytecode.

    python benchmarks/ask_latency.py [--runs 5] [--quick]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUESTION = "where is the magazine?"
CLI = "import sys; from cogtree.trees.cli.main import main; sys.exit(main())"
COUNT_HELP_MODULES = (
    "import contextlib, io, sys; before = set(sys.modules)\n"
    "from cogtree.trees.cli.main import main\n"
    "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
    "    main(['--help'])\n"
    "print(len(sys.modules), len(set(sys.modules) - before))"
)


def environment(data_home: Path) -> dict[str, str]:
    """This checkout first on the path, whatever is installed; user data in ``data_home``,
    bytecode written under it."""
    path = os.environ.get("PYTHONPATH", "")
    inherited = {
        key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"
    }
    return {
        **inherited,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), path])),
        "PYTHONPYCACHEPREFIX": str(data_home / "bytecode"),
        "XDG_DATA_HOME": str(data_home),
    }


def children_cpu() -> float:
    """CPU seconds (user + system) used so far by this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds and the last line printed (or the error) of one run."""
    cpu, clock = children_cpu(), time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - clock
    out = done.stdout.strip()
    last = out.splitlines()[-1] if out and done.returncode == 0 else done.stderr[-300:]
    return wall, children_cpu() - cpu, last


def measure(
    name: str, commands: list[list[str]], env: dict[str, str], *, show: bool, warm: bool = True
) -> None:
    """Run each of ``commands`` (one per run), the first uncounted (it writes the bytecode)
    unless not ``warm``; print each run (``show``: its last line too) and the medians of the
    counted ones."""
    if warm:
        wall, cpu, _ = timed(commands[0], env)
        print(f"  first: {wall:5.2f} s wall, {cpu:5.2f} s CPU  (writes the bytecode; not counted)")
    else:
        print("  no uncounted first run (--quick): run 1 may write bytecode too")
    walls, cpus = [], []
    for run, command in enumerate(commands[int(warm) :], 1):
        wall, cpu, last = timed(command, env)
        walls.append(wall)
        cpus.append(cpu)
        print(f"  run {run}: {wall:5.2f} s wall, {cpu:5.2f} s CPU  {last if show else ''}")
    print(
        f"{name}: median of {len(cpus)}: {statistics.median(cpus):.2f} s CPU "
        f"({statistics.median(walls):.2f} s wall)"
    )


def main() -> None:
    """Measure ``cogtree --help`` and ``cogtree ask`` ``--runs`` times each; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (default 5)")
    parser.add_argument("--quick", action="store_true", help="one run of each (CI)")
    args = parser.parse_args()
    runs = 1 if args.quick else args.runs
    warm = not args.quick
    python = [sys.executable, "-c"]
    with tempfile.TemporaryDirectory() as folder:
        env = environment(Path(folder))
        counted = subprocess.run(
            [*python, COUNT_HELP_MODULES], env=env, capture_output=True, text=True, check=False
        )
        if counted.returncode == 0:
            total, added = counted.stdout.split()
            print(f"cogtree --help imports {added} modules ({total} in the process)")
        else:
            print(f"cogtree --help failed: {counted.stderr[-300:]}")
        helps = [[*python, CLI, "--help"]] * (runs + warm)
        measure("cogtree --help", helps, env, show=False, warm=warm)
        asks = [
            [*python, CLI, "ask", QUESTION, "--llm", "none", "--memory", f"{folder}/m{run}.db"]
            for run in range(runs + warm)
        ]
        measure(f'cogtree ask "{QUESTION}" --llm none', asks, env, show=True, warm=warm)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
