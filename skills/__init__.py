"""The skill library: typed skill specs, preconditions and HTN decomposition (gtpyhop)."""
