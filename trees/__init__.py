"""Building and running cogtree trees.

Directly here is what a tree author needs: the tree factories (:mod:`trees.assistant`,
:mod:`trees.physical_task`, :mod:`evaluation.react.tree`, :mod:`trees.examples`), the runner, the
session, loading a factory and the test kit (:mod:`trees.testing`). The wings below hold the
rest: :mod:`trees.recording` (tick log, display, replay, snapshots), :mod:`trees.bt_xml`
(trees as BehaviorTree.CPP XML), :mod:`trees.viewer` (the web viewer), :mod:`trees.ros` (the
ROS 2 host), :mod:`evaluation` (module evaluation and the scenario bench) and
:mod:`trees.cli` (the ``cogtree`` command line).
"""
