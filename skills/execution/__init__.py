"""Execution.

The skill controller, robot commands, stepping a plan, human channels, and what the belief shows
afterwards.
"""
