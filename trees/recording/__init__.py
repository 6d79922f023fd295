"""Recording ticks.

The tick log, its terminal display (full and compact), replay, tree snapshots and the
snapshot stream a host publishes.
"""
