"""The held-out sets (``tests/data/heldout``) run against the robot as it is.

``cogtree eval heldout`` runs them.

:mod:`~evaluation.heldout.cases` loads and checks the sets, :mod:`~evaluation.heldout.world_map`
turns a case's world into a simulator scenario (adding no knowledge to the robot),
:mod:`~evaluation.heldout.score` scores what a run observed and :mod:`~evaluation.heldout.run`
runs the cases with no model and tabulates them.
"""
