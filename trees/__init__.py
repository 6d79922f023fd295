"""Building and running cogtree trees.

Reference trees, the tick runner and its tick log, the test kit (:mod:`trees.testing`) and
the ``cogtree`` command line.
"""
