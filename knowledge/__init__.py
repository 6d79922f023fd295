"""What the robot believes and reads with: scene, language, memory, packs, safety, the LLM."""

from cogtree import require_namespace

require_namespace(__name__, "knowledge")
