"""Tags that close a request and ask nothing of their own: "pass me the salt, would you, love?".

A question tag ("would you", "d'you know"), thanks ("ta", "cheers") or a form of address
("love") after a request is not part of its last phrase: left in, it would be read as
another thing asked for ("the salt" and "would you"). :func:`without_tags` cuts the tags at
the end of a text before the grammar reads it. The lists are the ``tags`` entry of the
grammar's words (``request_words.yaml``): ``closing`` tags go with or without a comma before
them, ``after_comma`` ones only after a comma ("where is the tv, d'you know" but not "what do
you know").
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Final

import yaml

from cogtree.knowledge.yaml_files import LOADER

WORDS_FILE: Final = Path(__file__).with_name("request_words.yaml")
"""The grammar's word lists, whose ``tags`` entry this module reads."""

_WORD: Final = re.compile(r"[A-Za-z0-9]+(?:['\u2019][A-Za-z]+)*")
_TRAILING: Final = re.compile(r"[\s,.;:!?]*$")

Tag = tuple[str, ...]


def _words(text: str) -> Tag:
    return tuple(text.lower().replace("\u2019", "'").split())


@functools.cache
def closing_tags() -> tuple[tuple[Tag, ...], tuple[Tag, ...]]:
    """The tags that go without a comma and those that need one, longest first."""
    data = yaml.load(WORDS_FILE.read_text(encoding="utf-8"), Loader=LOADER) or {}
    tags = data.get("tags") or {}
    closing = {_words(str(tag)) for tag in tags.get("closing", [])}
    after_comma = {_words(str(tag)) for tag in tags.get("after_comma", [])}
    return tuple(sorted(closing, key=len, reverse=True)), tuple(
        sorted(after_comma, key=len, reverse=True)
    )


def without_tags(text: str) -> str:
    """``text`` without the tags at its end, its closing mark kept; never every word."""
    trailing = _TRAILING.search(text)
    assert trailing is not None  # the pattern matches the empty end of any text
    body, closing = text[: trailing.start()], text[trailing.start() :].strip(" ,")
    anywhere, after_comma = closing_tags()
    while True:
        words = list(_WORD.finditer(body))
        said = tuple(word.group(0).lower().replace("\u2019", "'") for word in words)
        tag = next((tag for tag in anywhere if _ends(said, tag)), None)
        if tag is None:
            tag = next((tag for tag in after_comma if _ends(said, tag)), None)
            if tag is None or not body[: words[-len(tag)].start()].rstrip().endswith(","):
                return body + closing if body != text[: trailing.start()] else text
        body = body[: words[-len(tag)].start()].rstrip(" ,")


def _ends(said: Tag, tag: Tag) -> bool:
    """Whether ``said`` ends with ``tag`` and holds more words than it."""
    return len(tag) < len(said) and said[-len(tag) :] == tag
