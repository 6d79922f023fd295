"""The gates: LLM-backed condition nodes that decide where a turn goes."""
