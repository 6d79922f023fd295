"""py_trees behaviours of cogtree.

LLM-backed gates, dialogue leaves and (in later issues) perception, skill, delegation and
memory nodes. The blackboard contract is in :mod:`behaviours.keys`.
"""
