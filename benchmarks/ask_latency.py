"""How long `cogtree ask "where is the magazine?"` takes from the shell, with no model.

Runs the command as a user types it (a fresh Python process each time, the default ``auto``
backend: no model where Ollama does not answer; a throwaway memory file) and prints, per run,
the wall time and the CPU time of the process (user + system): on a shared machine the wall
time follows the load, the CPU time much less. It also prints the CPU time of importing what the
command imports (``trees.cli.main``), the part of the start that no turn can avoid. The
target is under 3 s of wall time on an idle machine. Asserts nothing.

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
IMPORT_ONLY = (
    "import time; t = time.process_time(); import cogtree.trees.cli.main; "
    "print(time.process_time() - t)"
)


def environment() -> dict[str, str]:
    """This checkout first on the path, whatever is installed."""
    path = os.environ.get("PYTHONPATH", "")
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), path]))}


def children_cpu() -> float:
    """CPU seconds (user + system) used so far by this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_ask(memory: Path) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds and the reply of one ``cogtree ask``."""
    command = [sys.executable, "-c", CLI, "ask", "--memory", str(memory)]
    cpu, clock = children_cpu(), time.perf_counter()
    done = subprocess.run(
        [*command, QUESTION], env=environment(), capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - clock
    reply = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-300:]
    return wall, children_cpu() - cpu, reply


def main() -> None:
    """Run the command ``--runs`` times; print each run and the medians."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="how many runs (default 5)")
    parser.add_argument("--quick", action="store_true", help="one run (CI)")
    args = parser.parse_args()
    runs = 1 if args.quick else args.runs
    imported = subprocess.run(
        [sys.executable, "-c", IMPORT_ONLY],
        env=environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    print(f"import cogtree.trees.cli.main: {float(imported.stdout or 'nan'):.2f} s CPU")
    walls, cpus = [], []
    with tempfile.TemporaryDirectory() as folder:
        for run in range(1, runs + 1):
            wall, cpu, reply = one_ask(Path(folder) / f"memory{run}.sqlite")
            walls.append(wall)
            cpus.append(cpu)
            print(f"run {run}: {wall:6.2f} s wall, {cpu:5.2f} s CPU  {reply}")
    print(f"median of {runs}: {statistics.median(walls):.2f} s wall, ", end="")
    print(f"{statistics.median(cpus):.2f} s CPU; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
