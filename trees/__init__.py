"""Building and running cogtree trees.

Directly here is what a tree author needs: the tree factories (:mod:`.assistant`,
:mod:`.physical_task`, :mod:`.examples`), the runner, the session, loading a factory and the
test kit (:mod:`.testing`). The wings below hold the rest: :mod:`.recording` (tick log,
display, replay, snapshots), :mod:`.bt_xml` (trees as BehaviorTree.CPP XML), :mod:`.viewer`
(the web viewer), :mod:`.ros` (the ROS 2 host) and :mod:`.cli` (the ``cogtree`` command line).
"""

from cogtree import require_namespace

require_namespace(__name__, "trees")
