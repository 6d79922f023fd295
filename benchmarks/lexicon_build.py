"""Building a lexicon for scenes of many objects: the cost per entry must stay flat.

Every object of a big scene shares its type's forms ("mug", "cup"), the worst case for a
lexicon that remembers every id a form names. Prints build time and microseconds per entry
at each size, and the ratio of the largest size's per-entry cost to the smallest's (about 1
when building is linear; it grew with the size, 16.9 s at 40k, before the claimant sets).
Asserts nothing.

    python benchmarks/lexicon_build.py [--quick]
"""

from __future__ import annotations

import argparse
import time

from cogtree.knowledge.understanding.lexicon import Lexicon

SIZES = (5_000, 20_000, 40_000)
QUICK_SIZES = (1_000, 4_000)


def build_seconds(objects: int) -> float:
    """Seconds to build a lexicon of ``objects`` mugs that all go by "mug" and "cup"."""
    entries = {f"mug_{index}": ("mug", "cup", f"mug number {index}") for index in range(objects)}
    started = time.perf_counter()
    lexicon = Lexicon("objects", entries)
    elapsed = time.perf_counter() - started
    if len(lexicon.claimants("mug")) != objects:
        raise SystemExit("every mug should claim the form 'mug'")
    return elapsed


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for CI")
    sizes = QUICK_SIZES if parser.parse_args().quick else SIZES
    print("| objects | build (s) | per entry (µs) |")
    print("|---:|---:|---:|")
    per_entry = []
    for size in sizes:
        seconds = build_seconds(size)
        per_entry.append(seconds / size * 1e6)
        print(f"| {size} | {seconds:.3f} | {per_entry[-1]:.1f} |")
    print(f"per-entry cost, largest / smallest size: {per_entry[-1] / per_entry[0]:.2f}")


if __name__ == "__main__":
    main()
