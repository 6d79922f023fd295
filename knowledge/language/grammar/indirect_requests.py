"""Requests said indirectly: "any chance you could bring me a snack" asks to bring a snack.

People often wrap a request in a question about the listener ("do you think you could ...",
"would you be able to ...", "would it be possible for you to ...") or in a wish of their
own ("I was wondering if you could ..."). The request starts at the verb after the listener
and a modal ("you could", "you'd", "you might possibly"), after "able to", or after "for you
to"; the words before it are politeness and carry no action. Only such a wrapping counts: the
clause opens with it or with a question's auxiliary ("do you think", "would it be"), or the
listener follows "if" or "whether". A worry, a report or a doubt is no request: "I'm worried
you might drop the glass", "they say you can bring the kettle", "I don't think you could lift
it" wrap nothing (nor does any wrapping after a negation). :func:`wrapped_request` finds
where the verb starts and :func:`unwrap` moves a clause's cursor there when a verb of the
grammar is there. "would you mind fetching the pan" asks to fetch it: :func:`gerunds_asked`
reads the gerund after "you mind" as its verb. "I can't find my specs" asks the robot to look
for them (:func:`unable_to_look`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cogtree.knowledge.language.grammar.clause import BREAK, Clause, Word, longest
from cogtree.knowledge.language.grammar.words import PARTICLES, request_words
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas

LISTENER: Final = frozenset(["you", "ya"])
"""Words for the person addressed."""
MODALS: Final = frozenset(["can", "could", "would", "will", "might"])
"""Modals that ask something of the listener after "you" ("you could", "you'd")."""
SOFTENERS: Final = frozenset(["possibly", "please", "just", "maybe", "perhaps", "kindly"])
"""Words that may stand between the modal and the verb ("you could possibly ...")."""
LEADS: Final = (("be", "able", "to"), ("able", "to"), ("for", "you", "to"))
"""Other words right before the verb of a wrapped request ("be able to", "for you to")."""
AUXILIARIES: Final = frozenset(["do", "does", "would", "could", "will", "can", "is", "might"])
"""Words a question about the listener opens with ("do you think ...", "would it be ...")."""
CONDITIONALS: Final = frozenset(["if", "whether"])
"""Words the listener follows in a wish ("I was wondering if you could ...")."""
SPEAKERS: Final = frozenset(["i", "we"])
"""Words for the speaker that open a statement of what they cannot do."""
UNABLE: Final = (("can't",), ("cannot",), ("can", "not"), ("couldn't",), ("could", "not"))
"""A modal that says the speaker cannot ("I can't find ...")."""


def wrapped_request(words: Sequence[str]) -> int | None:
    """Where the verb of a request wrapped in ``words`` starts, else None (lower-case words).

    The first place after a wrapping the clause may open with (see the module docs), with any
    softeners skipped; None when the words wrap nothing ("you could" at the end).
    """
    asking = bool(words) and words[0] in AUXILIARIES
    for index in range(len(words)):
        if _negates(words[index]):
            return None
        start = _after_wrapper(words, index)
        if start is None:
            continue
        opened = index == 0 or asking or words[index - 1] in CONDITIONALS
        while opened and start < len(words) and words[start] in SOFTENERS:
            start += 1
        return start if opened and start < len(words) else None
    return None


def _negates(word: str) -> bool:
    """Whether ``word`` is a negation of the grammar or a verb's "n't" ("I don't think ...")."""
    return (word,) in request_words().negations or word.endswith("n't")


def _after_wrapper(words: Sequence[str], index: int) -> int | None:
    """The index after a wrapper's last word when one starts at ``index``, else None."""
    if words[index] in LISTENER and index + 1 < len(words) and words[index + 1] in MODALS:
        return index + 2
    if words[index].endswith("'d") and words[index][:-2] in LISTENER:
        return index + 1  # "you'd": one token
    for lead in LEADS:
        if tuple(words[index : index + len(lead)]) == lead:
            return index + len(lead)
    return None


def unwrap(clause: Clause) -> None:
    """Move ``clause``'s cursor to the verb of a request said indirectly, if it wraps one.

    Nothing moves when a verb of the grammar is at the cursor already or none is where the
    wrapping ends ("you could see it was broken").
    """
    if clause.match(clause.lexicon.verbs):
        return
    words = [word.text for word in clause.words[clause.at :]]
    start = wrapped_request(words)
    if start and longest(clause.words, clause.at + start, clause.lexicon.verbs):
        clause.at += start
        return
    start = unable_to_look(words) or 0
    size = longest(clause.words, clause.at + start, clause.lexicon.verbs) if start else 0
    kind, action = clause.lexicon.verbs.get(tuple(words[start : start + size]), ("", ""))
    if size and kind == "actions" and clause.lexicon.only_looks(action):
        clause.at += start


def unable_to_look(words: Sequence[str]) -> int | None:
    """Where the verb starts when ``words`` open with the speaker saying they cannot do it.

    "I can't find my specs", "we cannot seem to locate the remote": the verb after the
    speaker, a negated "can" or "could" and an optional "seem to", with no infinitive after
    it ("I can't find the words to thank you" looks for nothing; "the key to the shed" is
    looked for). The caller reads it as a request only when the verb's action only looks
    (:meth:`Words.only_looks`): an inability to look asks the robot to look, and changes
    nothing in the home; "I can't open the jar" or "I can't stand the noise" is no order.
    """
    if len(words) < 3 or words[0] not in SPEAKERS:
        return None
    at = next((1 + len(said) for said in UNABLE if tuple(words[1 : 1 + len(said)]) == said), 0)
    if at and tuple(words[at : at + 2]) == ("seem", "to"):
        at += 2
    if _infinitive_after(words, at):  # "I can't find the time to clear up": nothing looked for
        return None
    return at if 0 < at < len(words) else None


def _infinitive_after(words: Sequence[str], at: int) -> bool:
    """Whether a "to" before a verb's base form follows ``at`` ("the words to thank you").

    "to" before a determiner or a possessive is a preposition ("the key to the shed").
    """
    lemmas, determiners = shipped_lemmas(), request_words().determiners
    return any(
        word == "to"
        and after not in determiners
        and lemmas is not None
        and lemmas.lemma_of(after, "verb") == after
        for word, after in zip(words[at:], [*words[at + 1 :], ""], strict=True)
    )


CHAINING: Final = frozenset(["and", "then", ","])
"""Words before a next gerund of the same wish ("would you mind fetching X and washing Y")."""


def gerunds_asked(words: Sequence[Word]) -> list[Word]:
    """``words`` with the gerunds of "would you mind V-ing" read as the verb's base.

    "would you mind fetching the pan": fetch; "... and washing the cup" too, when a thing, a
    pronoun or a particle follows it ("and putting it away"), up to the end of the sentence.
    A word the dictionary knows as no verb's form stays as it is ("do you mind nothing"), and
    the word as said is kept for the reply.
    """
    lemmas, lexicon = shipped_lemmas(), request_words()
    read, minding = list(words), False
    for at, word in enumerate(read):
        minding = minding and word.text not in BREAK
        asked = at >= 2 and read[at - 2].text in LISTENER and read[at - 1].text == "mind"
        after = read[at + 1].text if at + 1 < len(read) else ""
        thing = after in lexicon.determiners or after in lexicon.pronouns or after in PARTICLES
        chained = minding and read[at - 1].text in CHAINING and thing
        verb = lemmas.lemma_of(word.text, "verb") if lemmas and word.text.endswith("ing") else None
        if (asked or chained) and verb and verb != word.text:
            read[at], minding = Word(verb, word.said), True
    return read
