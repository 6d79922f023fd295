"""The ``cogtree`` command line: one module per command, its shared options and the doctor.

The entry point is :func:`trees.cli.main.main`; the table of subcommands, which the top-level
parser reads without importing any of them, is :mod:`trees.cli.commands`. Nothing outside this
wing imports it.
"""
