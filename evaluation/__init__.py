"""The evaluation wing, which only the command line imports (the robot never does).

JANUS's module evaluation, the clarification and scenario benches, the held-out sets and the
ReAct baseline.
"""

from cogtree import require_namespace

require_namespace(__name__, "evaluation")
