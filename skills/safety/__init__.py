"""Safety of a plan step.

The hazard rules checked on each step and the hazards of what a request could mean.
"""
