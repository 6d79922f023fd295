"""The scenario bench: runs with the oracle, claims and hazards audited, the hazard set."""
