"""One way to turn a pydantic ``ValidationError`` into a message that names the field.

Lives in the lowest layer (``knowledge``) so every package can use it.
"""

from __future__ import annotations

import reprlib

from pydantic import ValidationError


def first_problem(error: ValidationError, *, under: str = "") -> str:
    """The first problem of a validation error as ``field `a.b`: message (got X)``.

    ``under`` prefixes the field path (e.g. ``modules.intent``); long inputs are shortened.
    """
    first = error.errors()[0]
    path = ".".join([*filter(None, [under]), *(str(part) for part in first["loc"])])
    got = f" (got {reprlib.repr(first['input'])})" if first["type"] != "missing" else ""
    return f"field `{path or '<root>'}`: {first['msg']}{got}"
