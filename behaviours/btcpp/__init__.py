"""BehaviorTree.CPP v4's standard nodes, with BT.CPP's semantics, as py_trees behaviours.

The controls, decorators and leaves every Groot2 palette offers (``ReactiveSequence``,
``RetryUntilSuccessful``, ``Timeout``, ``Script``, ...), the v4 scripting language they and
the pre/post-condition attributes (``_skipIf``, ``_onSuccess``, ...) run, and the blackboard
scope a script reads and writes. Where a py_trees composite or decorator means the same, the
node is that class under BT.CPP's name; timing nodes count the tree's clock (the ``clock``
handle), so they never block a tick.
"""
