"""The action nodes: what the robot says, plans and runs, and the grounding it does."""
