"""The skill library: planning (HTN), execution, the action model and plan safety."""

from cogtree import require_namespace

require_namespace(__name__, "skills")
