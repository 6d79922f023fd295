"""Module evaluation (``cogtree eval modules``): JANUS's Table 4 metrics per LLM backend.

:mod:`~evaluation.janus.datasets` loads the curated sets in ``tests/data/eval``,
:mod:`~evaluation.janus.runner` runs each module's node on each item,
:mod:`~evaluation.metrics` scores them, :mod:`~evaluation.janus.clinc` evaluates scope
detection on CLINC150 and :mod:`~evaluation.janus.report` writes the tables.
"""
