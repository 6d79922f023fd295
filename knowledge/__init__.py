"""What the robot believes: the RDF scene graph, domain packs, memory and failure experience."""
