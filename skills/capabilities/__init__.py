"""The robot's capabilities: a capability's skills, commands and tasks, whole, in one module.

Fetch, place, open/close, dispose, switch, heat, fill, pour, wipe, tidy, move and speech. The
registry (:mod:`cogtree.skills.capabilities.registry`) lists them for the planner, the
decomposer, the dry run, the hazard rules and the outcome checks.
"""
