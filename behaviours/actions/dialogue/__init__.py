"""Dialogue actions: ask, decline, delegate, say, respond and explain."""
