"""The robot's belief about the home: the RDF scene graph on Oxigraph and what reads it.

The ontology, named and model-written queries, referents, the household taxonomy and the
disposal table.
"""
