"""py_trees behaviours of cogtree: the gates and the actions, over the node bases.

:mod:`.gates` holds the LLM-backed condition nodes (scope, intent, readiness, memory
sufficiency, evidence, plan validation); :mod:`.actions` the dialogue, planning and grounding
actions; :mod:`.btcpp` BehaviorTree.CPP's built-in nodes. The blackboard contract is
:mod:`.keys`; every node reads its keys, calls a decider in ``knowledge`` or ``skills`` and
writes its keys.
"""

from cogtree import require_namespace

require_namespace(__name__, "behaviours")
