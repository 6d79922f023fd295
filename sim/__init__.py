"""The symbolic world the robot is tested in: ground truth, people, disruptions, scenarios."""

from cogtree import require_namespace

require_namespace(__name__, "sim")
