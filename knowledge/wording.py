"""Small English helpers every layer shares: number, lists, articles, case and clipped text.

These are the one home of phrasing that used to be written again in each module that needed
it; what they produce is part of what the robot says and of what the tick log shows, so a
change here changes both.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Final

from pydantic import BaseModel, model_validator

ELLIPSIS = "…"
"""What :func:`clip` puts where it cut."""

_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def singular(word: str) -> str:
    """``word`` without a plural ending (``peanuts`` -> ``peanut``, ``berries`` -> ``berry``).

    One best guess: ``-ies`` -> ``-y``, ``-es`` after s, x, z, ch or sh, and a final ``-s``
    unless the word ends in ss, is or us; anything else is left as is.
    """
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("es") and word[:-2].endswith(("s", "x", "z", "ch", "sh")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "is", "us")):
        return word[:-1]
    return word


def singular_forms(word: str) -> list[str]:
    """``word`` and, for a plausible plural, its singular forms ("bottles" -> "bottle").

    Every candidate, for lookups that try them all: ``dishes`` gives ``dishe`` and ``dish``,
    ``bottles`` ``bottle`` and ``bottl``.
    """
    forms = [word]
    if len(word) > 3 and word.endswith("ies"):
        forms.append(word[:-3] + "y")
    elif len(word) > 3 and word.endswith("es"):
        forms.extend([word[:-1], word[:-2]])
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        forms.append(word[:-1])
    return forms


IRREGULAR_VERBS: dict[str, str] = {
    "ate": "eat",
    "eaten": "eat",
    "drank": "drink",
    "drunk": "drink",
}
"""Past forms of the verbs a context says "it" by ("I drank it"), and their base form."""


def verb_bases(word: str) -> list[str]:
    """The base forms ``word`` may be the past or -ing form of ("drank" -> "drink").

    Every candidate, for lookups that try them all: ``dusting`` gives ``dust`` and ``duste``,
    ``wiped`` ``wip`` and ``wipe``, ``cutting`` also ``cut``. Empty when ``word`` is neither.
    """
    if word in IRREGULAR_VERBS:
        return [IRREGULAR_VERBS[word]]
    for ending in ("ing", "ed"):
        stem = word.removesuffix(ending)
        if stem != word and len(stem) >= 3:
            forms = [stem, stem + "e"]
            if len(stem) > 3 and stem[-1] == stem[-2]:
                forms.append(stem[:-1])
            return forms
    return []


def id_words(name: str) -> str:
    """An identifier in words: ``kitchen_table`` -> ``kitchen table``.

    Underscores and the humps of camel case become spaces, and the words are lower-cased
    (``AddToDatabase`` -> ``add to database``).
    """
    return _HUMP.sub(" ", name).replace("_", " ").strip().lower()


def looks_plural(phrase: str) -> bool:
    """Whether the head of a noun phrase looks plural: "the slippers", not "a deck of cards".

    The head is :func:`head_word`'s (the last before a name join: "of", "by", ...); it looks
    plural when :func:`singular` changes it.
    """
    head = head_word(phrase)
    return bool(head) and singular(head) != head


MODIFIER_WORDS: Final = frozenset({"with", "of", "for", "from", "without"})
"""Words that join a head to a modifier ("sponge with food on it", "bag of pretzels")."""

PLACE_WORDS: Final = frozenset(
    {"by", "near", "beside", "behind", "under", "over", "above", "below", "next", "on", "in", "at"}
)
"""Words that open where a thing is after its name ("jar by the window": a jar)."""

NAME_JOINS: Final = MODIFIER_WORDS | PLACE_WORDS
"""Words after which a thing's name says no more of what it is."""

ONES: Final = frozenset(["one", "ones"])
"""Words that stand for a noun said before ("the blue one", "the one in the hall")."""
POSSESSIVES: Final = frozenset({"my", "your", "his", "her", "its", "our", "their"})
"""Determiners of whose a thing is ("my fish" may be a pet)."""

SAID_BACK: Final = {
    "my": "your", "mine": "yours", "myself": "yourself",
    "your": "my", "yours": "mine", "yourself": "myself",
}  # fmt: skip
"""Whose a thing is, as the listener says it back: the speaker's "my" is "your", and back.
("me" and "you" are left: "you gave me" would need its verb turned round too.)"""
_SPEAKERS_OWN = re.compile(rf"\b({'|'.join(SAID_BACK)})\b", re.IGNORECASE)


def said_back(words: str) -> str:
    """The user's ``words`` as the robot says them back: "my glasses" -> "your glasses"."""
    return _SPEAKERS_OWN.sub(lambda found: SAID_BACK[found.group(1).lower()], words)


POINTING: Final = frozenset({"this", "that", "these", "those", "it", "them"})
"""Words that point at a thing on their own ("the inside of this")."""

DETERMINERS: frozenset[str] = frozenset(
    {"the", "a", "an", "some", "this", "that", "these", "those"}
)
DETERMINERS |= POSSESSIVES
"""Articles, demonstratives and possessives: a phrase they open needs no other article."""


LIGHT_VERBS: Final = frozenset({"give"})
"""Verbs that say little of their own when a noun of action follows their object ("give the
hob a wipe": wipe it; "something to give the soup a stir with": to stir it).

After the object, "a" or "an", at most :data:`MOST_MANNER_WORDS` words that say how ("a
quick", "a good") and a noun of action (:func:`noun_of_action`: a verb of the grammar, "a
wipe", or one the dictionary files as an act, "a drench", "a hug") ask for that action, when
nothing but the clause's end, a conjunction or a preposition follows ("give it a quick polish
with the cloth"). "give nana a clean towel" stays a thing given: a towel is no act. The
grammar reads them in requests, the scene's descriptions in a thing told by its use."""

ARTICLES: Final = frozenset(["a", "an"])
"""The words that open a noun of action after the light verb's object."""
MOST_MANNER_WORDS: Final = 2
"""How many words may say how between the article and the noun ("a good hard scrub")."""


@dataclass(frozen=True)
class NounOfAction:
    """A noun of action found after a light verb's object: its words and the verb it names."""

    size: int  # the words from the article to the noun's end
    verb: tuple[str, ...]  # the verb of the grammar the noun is ("wipe", "wipe down")


def noun_of_action(
    words: Sequence[str],
    at: int,
    verbs: Mapping[tuple[str, ...], object],
    *,
    manner: Callable[[str], bool],
    ends: Callable[[int], bool],
    acts: Callable[[str], bool],
) -> NounOfAction | None:
    """The noun of action that starts at ``at`` in ``words``, else None.

    ``verbs`` are the grammar's verbs (longest match wins), ``manner`` says whether a word
    may say how (a content word), ``ends`` whether the clause's request ends at an index,
    ``acts`` whether a word no verb of the grammar is names an act.
    """
    if at >= len(words) or words[at] not in ARTICLES:
        return None
    for skipped in range(MOST_MANNER_WORDS + 1):
        start = at + 1 + skipped
        if start >= len(words) or (skipped and not manner(words[start - 1])):
            return None
        for size in range(min(3, len(words) - start), 0, -1):
            verb = tuple(words[start : start + size])
            if (verb in verbs or (size == 1 and acts(verb[0]))) and ends(start + size):
                return NounOfAction(size=start + size - at, verb=verb)
    return None


INNER_OUTER_WORDS: Final = frozenset({"outside", "inside", "underside", "exterior", "interior"})
"""Words for a side of a thing that never name a thing themselves: "wipe the outside" is
the outside of a thing the context names, as "it" would be."""

BESIDE_WORDS: Final = frozenset({"front", "outside", "exterior"})
"""Region words that, with no determiner before them, say where beside a thing ("in front of",
"outside of"), not a part of it."""

REGION_WORDS: Final = INNER_OUTER_WORDS | {
    "top", "bottom", "front", "back", "side", "sides", "edge", "rim", "surface",
}  # fmt: skip
"""Words for a part of a thing's surface or space: before "of" they say where on the thing,
and the phrase names the whole ("the outside of the toaster", "the top of the wardrobe")."""


def whole_named(words: Sequence[str]) -> list[str]:
    """``words`` (lowercase) without the region they open with and its "of": the whole thing.

    "the outside of the toaster" -> "the toaster", "top of the wardrobe" (as in "on top of")
    -> "the wardrobe" (:data:`REGION_WORDS`), "the inside of this" -> "this"
    (:data:`POINTING`). Only a region said first counts: "the top shelf"
    is left as it is, and so is "front of" or "outside of" with no determiner, which say where
    beside the thing ("in front of the fridge", "outside of the house"), not a part of it.
    """
    words = list(words)
    at = next((i for i, word in enumerate(words) if word not in DETERMINERS), None)
    if at is None or words[at] not in REGION_WORDS or words[at + 1 : at + 2] != ["of"]:
        return words
    if not at and words[at] in BESIDE_WORDS:
        return words
    rest = words[at + 2 :]
    if rest and rest[-1] in POINTING:
        return rest[-1:]  # "the inside of this": what "this" points at
    if all(word in DETERMINERS for word in rest):  # "the bottom of the": no whole said
        return words
    return [*(words[:at] if rest[0] not in DETERMINERS else []), *rest]


def head_word(phrase: str) -> str:
    """The word a noun phrase names its thing by, lowercase: the last before a name join.

    "the slippers" -> "slippers", "a deck of cards" -> "deck", "the windowsill behind the
    nets" -> "windowsill" (:data:`NAME_JOINS`); "" for no word.
    """
    words = _named_words(phrase)
    return words[-1] if words else ""


def compound_head(name: str) -> str | None:
    """The head of a compound name (as :func:`head_word`), which names what it is.

    English compounds are headed on the right: "water bottle" -> "bottle" (a water bottle is
    a bottle), "bottle of still water" -> None (one word before "of"), "bottle" -> None.
    """
    words = _named_words(name)
    return words[-1] if len(words) > 1 else None


def join_at(words: Sequence[str], joins: Container[str] = NAME_JOINS) -> int | None:
    """Where the first of ``joins`` after the name's first word is ("jar *by* the window").

    Determiners before that word are none of the name's: "the on switch" has no join.
    """
    first = next((at for at, word in enumerate(words) if word not in DETERMINERS), len(words))
    return next((at for at, word in enumerate(words) if word in joins and at > first), None)


def _named_words(phrase: str) -> list[str]:
    """The lowercase words of ``phrase`` before its name join (:func:`join_at`)."""
    words = whole_named(phrase.lower().split())
    return words[: join_at(words)]


def with_the(noun: str) -> str:
    """``noun`` with "the" before it ("the watering can"), unless it needs none.

    It needs none when it opens with one of :data:`DETERMINERS` or a possessive ("my mug",
    "Anna's cup") or is a name: every word capitalised, not only capitals ("Anna", "Alex
    Rossi"; but "the Greek yogurt", "the TV").
    """
    words = noun.split()
    if not words:
        return noun
    first = words[0].lower()
    name = all(word[:1].isupper() for word in words) and not noun.isupper()
    if name or first in DETERMINERS or first.endswith(("'s", "\u2019s")):
        return noun
    return f"the {noun}"


def capitalised(text: str) -> str:
    """``text`` with its first letter in capitals, to open a sentence."""
    return text[:1].upper() + text[1:]


def lower_first(text: str) -> str:
    """``text`` with its first letter lowered, to sit inside a sentence.

    Kept when the first word is "I" ("I'm", "I'd") or written in capitals ("TV", "HTTP").
    """
    first = text.split(maxsplit=1)[0] if text.strip() else ""
    if first == "I" or first.startswith(("I'", "I\u2019")) or (len(first) > 1 and first.isupper()):
        return text
    return text[:1].lower() + text[1:]


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, with a plural ``s`` unless it is one: "1 attempt", "3 ticks"."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def joined(items: Sequence[str], conjunction: str = "and") -> str:
    """``items`` as a phrase: "", "a", "a and b", "a, b and c" (``conjunction``: and, or)."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def clauses(items: Sequence[str]) -> str:
    """Things said of one subject, after it: "has 5 g of fat and suits vegans".

    An item that ends with a full stop is a sentence of its own, never joined to the next by
    "and": what follows opens a new sentence on "It" ("cannot be checked for you: I know
    nothing of you yet. It contains milk"). No stop at the end (the reply's template has it).
    """
    sentences: list[list[str]] = [[]]
    for item in items:
        sentences[-1].append(item.rstrip("."))
        if item.endswith("."):
            sentences.append([])
    return ". It ".join(joined(group) for group in sentences if group)


def clip(text: str, limit: int, *, one_line: bool = True, trim: bool = False) -> str:
    """``text`` cut to ``limit`` characters, the last of them :data:`ELLIPSIS`; as is if it fits.

    ``one_line``: every run of whitespace (newlines too) becomes one space first.
    ``trim``: whitespace at the end of the cut is dropped before the ellipsis ("word…").
    """
    if one_line:
        text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    return (cut.rstrip() if trim else cut) + ELLIPSIS


class BoundedText(BaseModel):
    """A model whose free text is cut to its limit instead of refused.

    The fields named in :attr:`free_text` (a rationale, a thought, a reason) are clipped
    (:func:`clip`, keeping newlines) to their ``max_length`` before validation, so a long
    rationale written by a model, or a fallback quoting a long error, never fails the model.
    The limit stays in the JSON schema the model is asked to answer in.
    """

    free_text: ClassVar[tuple[str, ...]] = ("rationale",)

    @model_validator(mode="before")
    @classmethod
    def _cut_free_text(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        cut = dict(data)
        for name in cls.free_text:
            value, limit = cut.get(name), _max_length(cls, name)
            if isinstance(value, str) and limit is not None:
                cut[name] = clip(value, limit, one_line=False)
        return cut


def _max_length(model: type[BaseModel], name: str) -> int | None:
    """The ``max_length`` of field ``name`` of ``model``, or None without one."""
    field = model.model_fields.get(name)
    limits = [getattr(item, "max_length", None) for item in (field.metadata if field else [])]
    return next((limit for limit in limits if isinstance(limit, int)), None)


TITLES = frozenset(["mr", "mrs", "ms", "miss", "dr", "prof", "sir", "madam"])
"""Words of a person's label that do not name them on their own (:func:`name_parts`)."""

NAME_ENDS = frozenset(["at", "of", "in", "from", "on", "for", "and", "with", "by", "the"])
"""Words after a person's name in a label ("nadia at reception")."""


def name_parts(label: str) -> list[str]:
    """The words of a person's label that name them alone: "dr weber" -> ["weber"]."""
    parts = []
    for word in label.split():
        if word in NAME_ENDS:
            break
        if word.strip(".") not in TITLES:
            parts.append(word)
    return parts


LABEL_LINKS = frozenset(["with", "in", "on", "at", "from", "by", "for", "to", "and"])
"""Words after which a label says more of its thing than its name ("mug with a chip")."""

_LABEL_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def label_words(label: str) -> tuple[frozenset[str], frozenset[str]]:
    """The words a thing's label describes it by, and those it names it by (singular forms too).

    "can of cola": can, cola, both naming it (people call it "the cola"); "Kai's house keys":
    kai, house, keys, key, named by keys and key; "tea towel" is named by towel, not by tea;
    "mug with a chip" by mug. Determiners, linking words and numbers are left out ("mug 3" is
    no "3"), so the labels of a big home share their answers (cached without the numbers).
    """
    return _label_words(_NUMBER.sub("", label.lower().replace("\u2019", "'")).strip())


_NUMBER = re.compile(r"\b\d+\b")


@lru_cache(maxsize=4096)
def _label_words(label: str) -> tuple[frozenset[str], frozenset[str]]:
    words = [
        word[:-2] if word.endswith("'s") else word
        for word in _LABEL_WORD.findall(label)
        if word not in DETERMINERS
    ]
    end = next((at for at, word in enumerate(words) if word in LABEL_LINKS), len(words))
    named = " ".join(words[:end]).split(" of ")
    heads = [part.split()[-1] for part in named if part.split()]
    kept = [word for word in words if word not in LABEL_LINKS and word != "of"]
    return (
        frozenset(form for word in kept for form in {word, singular(word)}),
        frozenset(form for word in heads for form in {word, singular(word)}),
    )


def held_by_name(label: str) -> str:
    """What a label "<vessel> of <what it holds>" says is held ("can of cola": cola), else ""."""
    vessel, of, held = label.lower().partition(" of ")
    return held.strip() if of and vessel.strip() and " of " not in held else ""
