"""Referring expressions.

Parsed (:mod:`.description`), matched in the belief's index (:mod:`.resolution`), and the
weaker matches dropped (:mod:`.preferences`).
"""
