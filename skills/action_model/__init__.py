"""The action model: the belief, call specs, shared precondition checks and commands.

The belief a plan is checked on, the typed call specs, the precondition checks skills share
and the low-level commands executors run; each skill itself lives in its capability's module
(:mod:`cogtree.skills.capabilities`).
"""
