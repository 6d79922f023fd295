"""The request grammar's parts: its word lists and the rules of their own concept."""
