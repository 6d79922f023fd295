"""Grounding actions: perceive, query, read and write memory, keep answers."""
