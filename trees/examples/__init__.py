"""Teaching examples for tree authors: small, complete trees that run end to end."""
