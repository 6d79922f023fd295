"""The action model.

Each skill's arguments, what it needs of the belief and what it changes, over a snapshot of the
belief.
"""
