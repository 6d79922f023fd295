"""Domain packs (JANUS's customisation layer): profiles, tasks, registry and backends.

A pack says what a domain is about, the tasks it serves and where their knowledge is
(SPARQL over a knowledge graph, or read-only SQL).
"""
