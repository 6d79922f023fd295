"""Module evaluation (``cogtree eval modules``): JANUS's Table 4 metrics per LLM backend.

:mod:`~trees.evaluation.datasets` loads the curated sets in ``tests/data/eval``,
:mod:`~trees.evaluation.runner` runs each module's node on each item,
:mod:`~trees.evaluation.metrics` scores them, :mod:`~trees.evaluation.clinc` evaluates scope
detection on CLINC150 and :mod:`~trees.evaluation.report` writes the tables.
"""
