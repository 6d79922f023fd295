"""How the robot reads English: the request frame and its words, questions, synonyms, similarity.

Nothing here knows the domain packs; :mod:`cogtree.knowledge.understanding` reads a request
against them.
"""
