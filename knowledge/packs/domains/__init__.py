"""Domain packs, one sub-package per domain.

Each holds a domain's knowledge (and, from the assistant-tree issue on, its task schemas and
prompts) and is loaded at run time without changes to core code.
"""
