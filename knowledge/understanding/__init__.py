"""Reading a request against the domain packs: scope, intent, slots and tasks.

Scope and intent matching without a model, deterministic slot filling, the request frame
turned into a pack's tasks, and the lexicons of the words a domain's things go by.
"""
