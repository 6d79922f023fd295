"""The ``cogtree`` command line: the top-level parser, and the one subcommand it runs.

Start-up stays light: the parser lists the subcommands from the table of
:mod:`trees.cli.commands` and imports only the module of the subcommand named on the command
line (the first word that is not an option: ``cogtree``'s own options take no value), so that
its full options are parsed and ``cogtree COMMAND --help`` shows them. ``cogtree --help``
imports none.

The garbage collector is kept off what lives for the whole command (:func:`gc.freeze`). It
waits while the subcommand's modules are imported, and what they made is frozen before it
runs again: the modules live as long as the command, and the 230 collections an ``ask`` ran
over its imports freed 2,500 objects for 0.1 s of CPU (the few cycles the imports leave now
wait for the end of the command). While the subcommand runs, what was imported before it is
frozen, so that the collections walk only what the command creates (0.13 s of CPU less for a
``cogtree ask``, measured on a shared two-core machine); it is unfrozen when the command
returns, for a caller that goes on (a test); a caller that froze objects itself keeps its
freeze, and ``main`` then neither freezes nor unfreezes.
At exit of the console script (registered with :mod:`atexit` when ``main`` reads
``sys.argv``, never for a caller that passes its own arguments), everything is frozen: every
object lives until the end anyway, and the interpreter's shutdown would otherwise walk them
all in its last collections (0.4 s of CPU after a ``cogtree ask``), for no cycle whose
collection anything waits for: sessions, files and models are closed by the commands before
they return.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import logging
import os
import sys
from collections.abc import Collection, Sequence

from cogtree.trees.cli.commands import SUBCOMMANDS
from cogtree.trees.cli.errors import user_errors

EXAMPLE_TREE = "cogtree.trees.examples.ask_before_acting:create_root"


def build_parser(full: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser of ``cogtree`` and its subcommands.

    The subcommands named in ``full`` (default: every one) get their options, which imports
    their modules; the others get only their name and help, enough to list them.
    """
    parser = argparse.ArgumentParser(
        prog="cogtree",
        description="Behaviour-tree controller for assistive robots, with LLM-backed gates "
        "on local models.",
        epilog=f"example: cogtree tick {EXAMPLE_TREE} --say 'bring the cup to the kitchen' "
        "--show-ticks",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log at DEBUG level")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    chosen = SUBCOMMANDS.values() if full is None else [SUBCOMMANDS[n] for n in full]
    adders = {(subcommand.module, subcommand.adder) for subcommand in chosen}
    for subcommand in SUBCOMMANDS.values():
        adder = (subcommand.module, subcommand.adder)
        if adder not in adders:
            commands.add_parser(subcommand.name, help=subcommand.help)
        elif subcommand.name not in commands.choices:  # an adder may add several
            subcommand.add_parser(commands)
    return parser


def named_subcommand(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names, if one of :data:`SUBCOMMANDS`: its first non-option."""
    word = next((word for word in argv if not word.startswith("-")), None)
    return word if word in SUBCOMMANDS else None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cogtree`` console script; returns the exit code."""
    words = list(sys.argv[1:] if argv is None else argv)
    name = named_subcommand(words)
    if argv is None:  # the process is the command: a cheaper shutdown (module docstring)
        atexit.register(gc.freeze)
    ours = gc.get_freeze_count() == 0  # a caller's own freeze is left as it is
    collecting = gc.isenabled()
    gc.disable()  # while the subcommand's modules are imported: see the module's docstring
    try:
        args = build_parser(full=[name] if name else []).parse_args(words)
        logging.basicConfig(
            level=logging.DEBUG if args.verbose else logging.WARNING,
            format="%(levelname)s %(name)s: %(message)s",
        )
        run = SUBCOMMANDS[args.command].load_runner()
        if ours:
            gc.freeze()  # the modules live as long as the command: see the module's docstring
    finally:
        if collecting:
            gc.enable()
    try:
        return run(args)
    except KeyboardInterrupt:
        print("cogtree: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `cogtree ... | head`: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as error:
        if not isinstance(error, user_errors()):
            raise
        print(f"cogtree: error: {error}", file=sys.stderr)
        return 2
    finally:
        if ours:
            gc.unfreeze()


if __name__ == "__main__":
    sys.exit(main())
