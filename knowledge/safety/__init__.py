"""Safety knowledge: hazard rules as data, and the conformal threshold that decides when to ask."""
