"""The ``cogtree`` command line: one module per command, its shared options and the doctor.

The entry point is :func:`trees.cli.main.main`. Nothing outside this wing imports it.
"""
