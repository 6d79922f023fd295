"""Planning.

HTN decomposition (gtpyhop) of the tasks, plans and their series-parallel blocks, validation,
assignment to robots and people, recovery.
"""
