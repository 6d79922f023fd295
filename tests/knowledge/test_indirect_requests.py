"""Where a request said indirectly starts: the verb after the listener and a modal, or a lead.

Every phrasing here was written for this test.
"""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.grammar.indirect_requests import wrapped_request


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("any chance you could water the ferns", "water"),
        ("i was wondering if you might possibly tidy the desk", "tidy"),
        ("do you think you'd fetch the post", "fetch"),
        ("would it be possible for you to shut the gate", "shut"),
        ("would you be able to dim the lights", "dim"),
    ],
)
def test_the_request_starts_after_its_wrapping(text: str, verb: str) -> None:
    words = text.split()
    start = wrapped_request(words)
    assert start is not None and words[start] == verb


@pytest.mark.parametrize("text", ["the ferns need water", "do you think you could", "hello you"])
def test_words_that_wrap_no_verb_open_nothing(text: str) -> None:
    assert wrapped_request(text.split()) is None
