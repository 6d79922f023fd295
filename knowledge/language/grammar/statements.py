"""What happened, not what is wanted: "the kettle sparked" tells, "the boiled eggs" asks.

A request that is only a thing ("a biscuit please") asks for it; the same words followed by a
finite verb tell what happened to the thing ("the kettle base has packed in", "the beans
boiled over", "the hoover keeps beeping"). :func:`tells_what_happened` finds that verb: a form
of *have* or *keep* after the subject, or a past form that no content word follows (a past
form before a noun only describes it: "the chopped onions"). :func:`statement_follows` says
whether what follows a comma or "because" is such a statement ("..., this one's run out",
"..., gonna make pancakes") rather than more of the request. :func:`where_it_is` finds a
statement of where the thing just named is, said with no comma ("fetch my phone it's by the
bed").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from cogtree.knowledge.language.grammar.clause import (
    BREAK,
    SUBJECT_PRONOUNS,
    Word,
    bare_word,
    longest,
)
from cogtree.knowledge.language.grammar.words import PARTICLES, Words
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.wording import IRREGULAR_VERBS, verb_bases
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas

PAST_COPULAS: Final = frozenset(["was", "were"])
"""The copula's past: "it was on the shelf" says where the thing was, not where it is."""
NOT_WHERE_IT_IS: Final = PAST_COPULAS | {"not", "never"}
"""Words after which "it ... <place>" is not where the thing is now."""
THING_SUBJECTS: Final = frozenset(["it", "they"])
"""Pronouns that stand for a thing just named when they open a statement of where it is."""
FINITE_AUXILIARIES: Final = frozenset(["has", "had", "keeps", "kept"])
"""Verbs that, after a thing's name, always tell something of it ("the base has packed in")."""


def tells_what_happened(words: Sequence[str], index: int, content: Callable[[str], bool]) -> bool:
    """Whether the word at ``index`` is a finite verb of a statement after its subject.

    ``content`` says whether a word is a content word (a noun or an adjective the grammar
    does not list).
    """
    word, after = words[index], words[index + 1] if index + 1 < len(words) else ""
    if word in FINITE_AUXILIARIES:
        return True
    return _past_form(word) and not content(after)


def _past_form(word: str) -> bool:
    """Whether ``word`` is a regular past form ("sparked") or one the grammar lists ("ate")."""
    return word in IRREGULAR_VERBS or (word.endswith("ed") and bool(verb_bases(word)))


STATEMENT_JOINERS: Final = frozenset({",", "because", "cos", "since"})
"""Words after which a statement says why ("... because we're freezing"), not what to do."""


def statement_follows(words: list[Word], index: int, lexicon: Words) -> bool:
    """Whether a statement, not more of the step, starts at ``index`` (after a joiner).

    A subject pronoun ("we eat at six"; not "I want", the step's), alone or joined to its verb
    ("he's in"), a negated verb ("doesn't matter"), or "it" / "there" / a short noun phrase
    then a copula, a modal or a verb of being somewhere ("it is cold", "dinner goes in soon").
    """
    subject, _, joined = (words[index].text if index < len(words) else "").partition("'")
    if longest(words, index, lexicon.wants):
        return False
    if subject in SUBJECT_PRONOUNS or (joined and subject in ("it", "there")) or joined == "t":
        return True
    if subject == "you" and _told_of_you(words, index):
        return True
    if _joined_verb(words, index, lexicon):
        return True
    for at in range(index, min(index + 5, len(words))):  # "gonna make pancakes": no subject
        text = words[at].text
        modal = longest(words, at, lexicon.statement_modals)
        if text in lexicon.copulas or modal:
            dropped = at == index and not longest(words, at, lexicon.openers)  # not "could you"
            if dropped and _wants([Word("i", "i"), *words[at + modal :]], lexicon):
                return False  # "..., gonna need the pepper too": one more thing asked for
            return dropped or subject_words(words[index:at], lexicon)
        if longest(words, at, lexicon.statement_verbs):
            return subject_words(words[index:at], lexicon)
        if text in (",", "and", "or", *BREAK):
            return False
    return False


def asked_after_a_statement(
    words: list[Word], index: int, before: list[Word], lexicon: Words
) -> bool:
    """Whether a question to the listener ("could you") starts a new clause at ``index``.

    The request grammar checks that a verb follows. Only in question order (:data:`ASKING`:
    "could you", never "you could", which may be a doubt or a wish), and only after a whole
    statement of how things are (``before``: "the table is all sticky") said with no comma
    between. Not after a statement of the speaker or of people ("I doubt you could ...", "I
    wish you could ..."): what follows may be what they think, not what they ask; and not
    when ``before`` ends on a word that opens a clause ("if", "whether", "that"). "What can
    you do" is one question.
    """
    if index + 1 >= len(words) or (words[index].text, words[index + 1].text) not in ASKING:
        return False
    first, last = before[0].text.partition("'")[0], before[-1].text
    if first in SUBJECT_PRONOUNS or first == "you" or last in CLAUSE_OPENERS:
        return False
    return statement_follows(before, 0, lexicon)


ASKING: Final = frozenset((modal, "you") for modal in ("can", "could", "would", "will"))
"""A modal then "you": a question put to the listener ("could you give it a wipe")."""

CLAUSE_OPENERS: Final = frozenset(["if", "whether", "that", "so"])
"""Words that open a clause said of the words after them ("I wonder if you could ...")."""


def _told_of_you(words: list[Word], index: int) -> bool:
    """Whether "you" at ``index`` opens what the listener did ("you left it open", "you've").

    "You" may open an order too ("..., you take the big one", "you'd better lock it"), so only
    "you've" or a past form after it tells: a regular one ("you promised"), or one of
    WordNet's irregular verb forms that is no verb's base, no "-ing" form and no form of "be"
    ("you left", "you forgot"; not "you bid", "you are").
    """
    if words[index].text == "you've":
        return True
    after = words[index + 1].text if index + 1 < len(words) else ""
    if _past_form(after):
        return True
    lemmas = shipped_lemmas()
    if lemmas is None or after.endswith("ing"):
        return False
    base = lemmas.irregular_verb(after)
    return base is not None and base != "be" and lemmas.lemma_of(after, "verb") != after


def _joined_verb(words: list[Word], index: int, lexicon: Words) -> bool:
    """Whether a noun joined to "is" ("dinner's", "the carton's") opens a statement at ``index``.

    Only when the word after it names no kind of thing (the household taxonomy): "dinner's
    nearly ready" says something, "Dad's mug" names a mug.
    """
    for at in range(index, min(index + 3, len(words) - 1)):
        noun, _, joined = words[at].text.partition("'")
        if joined in ("s", "re") and subject_words([*words[index:at], Word(noun, noun)], lexicon):
            after = words[at + 1].text
            return bare_word(after, lexicon) and household_taxonomy().type_named(after) is None
    return False


def subject_words(words: Sequence[Word], lexicon: Words) -> bool:
    """Words that can be a statement's subject: "it", "there", or a determiner and nouns."""
    texts = [word.text for word in words]
    if texts in (["it"], ["there"], ["this"], ["that"]):
        return True
    if texts and (texts[0] in lexicon.determiners or texts[0].endswith("'s")):
        texts = texts[1:]  # "the mug", "Dad's mug"
    return bool(texts) and all(
        bare_word(t.removesuffix("'s"), lexicon) or t == "one" for t in texts
    )


def _wants(words: Sequence[Word], lexicon: Words) -> bool:
    """Whether ``words`` open with a want ("i need", "i want"): the speaker's wish."""
    return bool(longest(words, 0, lexicon.wants))


def where_it_is(words: Sequence[Word], index: int, lexicon: Words) -> int:
    """How many words at ``index`` open a statement of where the thing named before is (0: none).

    "it" or "they" (alone or joined to its verb: "it's", "they're"), then modals, copulas,
    verbs of being somewhere and adverbs ("should be", "usually sits", "is probably"), with at
    least one verb among them, then a place: a preposition with a thing after it ("bring my
    glasses they should be next to the sofa", "fetch my phone it's by the bed"). The count
    stops before the preposition. A preposition with nothing after it ends a relative clause
    instead ("the box they're in"); a past form or a negation says no place the thing is in
    now ("it was on the shelf", "it's not on the table"), and "it's been on since lunch" no
    place at all.
    """
    subject, _, joined = words[index].text.partition("'") if index < len(words) else ("", "", "")
    if subject not in THING_SUBJECTS:
        return 0
    at, verbs = index + 1, int(joined in ("s", "re"))
    lemmas = shipped_lemmas()
    while at < len(words) and at - index <= 4 and not longest(words, at, lexicon.prepositions):
        size = longest(words, at, lexicon.statement_modals) or longest(
            words, at, lexicon.statement_verbs
        )
        size = size or int(words[at].text in lexicon.copulas)
        if words[at].text in NOT_WHERE_IT_IS:
            return 0  # "it was on the shelf" (put it back there), "it's not on the table"
        if size:
            at, verbs = at + size, verbs + 1
        elif lemmas is not None and lemmas.lemma_of(words[at].text, "adv") is not None:
            at += 1  # "they're usually on the shelf", "it's probably by the bed"
        else:
            break
    place = longest(words, at, lexicon.prepositions) if verbs else 0
    after = words[at + place].text if place and at + place < len(words) else ""
    named = after in lexicon.determiners or bare_word(after, lexicon)  # "on since lunch": no
    return at - index if named and after not in lexicon.subordinators else 0


def says_of_it(words: list[Word], index: int, lexicon: Words) -> bool:
    """Whether a statement of the thing just named starts at ``index``, said with no comma.

    "it" or "they" opening a statement (:func:`statement_follows`: "turn the hob off it's on",
    "bring the pan it is still hot") after the verb's particle or a content word. Not where
    the thing is (:func:`where_it_is`: the step reads that), nor where it was ("put it back it
    was on the shelf": where it goes), and after a noun not a relative clause that leaves its
    preposition at its end ("the box they're in").
    """
    subject = words[index].text.partition("'")[0] if 0 < index < len(words) else ""
    before = words[index - 1].text if index else ""
    particle = before in PARTICLES
    if subject not in THING_SUBJECTS or not (particle or bare_word(before, lexicon)):
        return False
    past = index + 1 < len(words) and words[index + 1].text in PAST_COPULAS  # where it goes
    if past or where_it_is(words, index, lexicon) or not statement_follows(words, index, lexicon):
        return False
    said = [word.text for word in words[index:]]
    end = next((at for at, text in enumerate(said) if text in (",", *BREAK)), len(said))
    return particle or said[end - 1] not in PARTICLES
