"""Referring expressions ("the blue bottle", "my mug", "the book on the coffee table"), parsed.

Parsing is deterministic and lexical; the scene graph does the matching:

- The description is lowercased and split into words; ``anna's`` becomes ``anna``.
- Filler words (articles, "something", "one", "to", ...) need no match; ``my`` / ``mine``
  ask for something the speaker owns; when the belief knows of no such thing, the things
  that fit and that nobody is known to own are the candidates ("my purse" with one purse
  whose owner the robot does not know), each with a reason that says so. "flavoured" needs
  no match either: the word before it is the flavour ("a lime-flavoured soda" is a lime soda).
- A negation ("a snack, but not the crisps", "any fruit except the lemon or the grapes")
  splits off what is excluded: the things the excluded descriptions match are dropped.
- The first place preposition (in, on, inside, at, from, off, by, out of) splits the
  description into the thing and the place it is in or on, and the place is itself a
  description ("the mug on the table in the kitchen" nests twice; "the towel off the sofa").
- Words match a thing's type or any broader type (the household taxonomy: "fruit", "a
  drink"), its attributes ("blue", "empty"), what its type is for or is typically like
  ("something to wipe with", "the citrus soda", "the salty one"), what it can become ("the
  rotten one": a fruit can rot), its label or synonym.
- Every run of up to four words that neither starts nor ends with a filler word becomes a
  *term* ("earl grey", "cup of coffee"), with a singular form for a plural last word. A node
  is a candidate when the terms it matches cover every non-filler word, it is owned by the
  speaker if the phrase says "my", and it is in one of the places the place part names; the
  scene graph checks all of it in one SPARQL query (``referent_matches.rq``).

:func:`resolve_referent` runs that query, and ``referent_details.rq`` for what the matching
things are, on a :class:`ReferentStore` (the scene graph), and says in words why each
candidate matched.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final, Protocol

from rdflib import Literal, URIRef
from rdflib.term import Identifier, Node

from cogtree.knowledge.scene.named_queries import Binding
from cogtree.knowledge.scene.scene_models import Candidate, ThingKind
from cogtree.knowledge.wording import singular_forms, verb_bases

FILLER_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "some",
        "any",
        "something",
        "anything",
        "thing",
        "things",
        "stuff",
        "one",
        "ones",
        "this",
        "that",
        "these",
        "those",
        "it",
        "me",
        "please",
        "of",
        "to",
        "for",
        "with",
        "kind",
        "sort",
        "my",
        "mine",
        "all",
        "whole",
        "entire",
    ]
)
"""Words that need no match in the scene graph ("all of the milk": the milk)."""

FLAVOUR_WORDS = frozenset(["flavored", "flavoured", "flavor", "flavour", "scented", "tasting"])
"""Words that say the word before them is a flavour or smell: "a lime-flavoured soda" is a
soda that is typically lime, "the vanilla-scented candle" a vanilla candle. They need no
match themselves ("a flavoured drink" is a drink)."""

POSSESSIVE_WORDS = frozenset(["my", "mine"])
"""Words that ask for something the speaker owns."""

PLACE_PREPOSITIONS = frozenset(["in", "on", "inside", "at", "from", "off", "by", "out"])
"""Words that start the place part of a description."""

MAX_TERM_WORDS = 4
"""The longest run of words sent as one term."""

WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

NEGATION = re.compile(
    r"\s*,?\s*\b(?:but not|except for|except|other than|apart from|excluding|not)\b\s*", re.I
)
"""What starts the excluded part of a description ("a snack, but not the crisps")."""

ALTERNATIVES = re.compile(r"\s*(?:,|\bor\b|\band\b|\bnor\b)\s*", re.I)
"""What separates the excluded things ("not the lemon or the grapes")."""

UNIT_SEPARATOR, RECORD_SEPARATOR = "\u001f", "\u001e"
"""Separators of the match records that ``referent_matches.rq`` concatenates."""


@dataclass(frozen=True)
class Term:
    """A word or run of words to look up, and the content positions it covers."""

    text: str
    covers: frozenset[int]


@dataclass(frozen=True)
class Phrase:
    """The words naming one thing, in order; ``content`` holds the positions that need a match."""

    words: tuple[str, ...]

    @property
    def content(self) -> frozenset[int]:
        """Positions of the words that are not filler (and not "my")."""
        return frozenset(i for i, word in enumerate(self.words) if word not in FILLER_WORDS)

    @property
    def possessive(self) -> int | None:
        """Position of "my" / "mine" (the speaker owns the thing), or None."""
        return next((i for i, word in enumerate(self.words) if word in POSSESSIVE_WORDS), None)

    def terms(self) -> list[Term]:
        """Every run of words to look up (with singular forms), in order of first position.

        A phrase of one word that is a verb form ("drank", "dusting": what a context said was
        done with "it") is also looked up by its base forms ("drink", "dust").
        """
        content = self.content
        found: dict[str, set[int]] = {}
        alone = len(content) == 1
        for start in range(len(self.words)):
            for end in range(start + 1, min(len(self.words), start + MAX_TERM_WORDS) + 1):
                run = self.words[start:end]
                if run[0] in FILLER_WORDS or run[-1] in FILLER_WORDS:
                    continue
                forms = singular_forms(run[-1])
                if alone and len(run) == 1:
                    forms += verb_bases(run[-1])
                for last in forms:
                    text = " ".join((*run[:-1], last))
                    found.setdefault(text, set()).update(content.intersection(range(start, end)))
        return [Term(text, frozenset(covers)) for text, covers in found.items()]

    def __str__(self) -> str:
        return " ".join(self.words)


@dataclass(frozen=True)
class Description:
    """A parsed description: the thing, and optionally where it is (another description)."""

    thing: Phrase
    preposition: str | None = None
    place: Description | None = None

    @classmethod
    def parse(cls, text: str) -> Description:
        """Parse ``text``; never fails (text without words gives an empty phrase)."""
        normalised = text.lower().replace("\u2019", "'")
        words = [_strip_possessive(word) for word in WORD.findall(normalised)]
        return cls._from_words(_for_purpose(_without_flavour_words(words)))

    @classmethod
    def _from_words(cls, words: list[str]) -> Description:
        for index, word in enumerate(words):
            if word in PLACE_PREPOSITIONS:
                place = cls._from_words(words[index + 1 :])
                return cls(Phrase(tuple(words[:index])), preposition=word, place=place)
        return cls(Phrase(tuple(words)))

    def __str__(self) -> str:
        if self.place is None:
            return str(self.thing)
        return f"{self.thing} {self.preposition} {self.place}"


def _without_flavour_words(words: list[str]) -> list[str]:
    """``words`` without the flavour words ("lime flavoured soda" -> "lime soda")."""
    return [word for word in words if word not in FLAVOUR_WORDS]


def _for_purpose(words: list[str]) -> list[str]:
    """A thing told by what it is for: "something to cut paper with" -> "something to cut".

    After a word that stands for the noun ("something", "the thing", "one"), "to" and a verb
    say what the thing is used for; the verb's own object and the "with" after it do not
    describe the thing ("paper" is what gets cut), so only the verb is looked up (the
    taxonomy's ``cog:usedFor``).
    """
    for index in range(1, len(words) - 1):
        verb = words[index + 1]
        if words[index] == "to" and words[index - 1] in PRONOUN_NOUNS and verb not in ("use", "be"):
            return words[: index + 2]
    return words


def _strip_possessive(word: str) -> str:
    return word[:-2] if word.endswith("'s") and len(word) > 2 else word


class ReferentStore(Protocol):
    """What resolution needs of a belief (the scene graph): named queries and node ids."""

    def select(self, name: str, **params: Binding) -> list[dict[str, Identifier]]:
        """Rows of the named query with ``params`` bound."""
        ...

    def iri(self, node_id: str) -> URIRef:
        """The node of a short id."""
        ...

    def short_id(self, node: Node) -> str:
        """The short id of a node."""
        ...

    def kind_of(self, node_class: Node) -> ThingKind:
        """What a thing of an ontology class is."""
        ...


def resolve_referent(
    store: ReferentStore, description: str, speaker: str | None = None
) -> list[Candidate]:
    """The nodes of ``store`` that ``description`` may refer to, with why, sorted by id.

    Zero, one or several candidates are all normal answers; a description with no words to
    match, or with a word nothing matches, gives []. ``speaker`` (a person's id) is who "my"
    refers to; without it ownership is not checked and the reasons say so.
    """
    speaker_node = None if speaker is None else store.iri(speaker)
    wanted, excluded = split_negation(description)
    found = _resolve(store, Description.parse(wanted), speaker_node)
    for text in excluded:
        for node in _resolve(store, Description.parse(text), speaker_node):
            found.pop(node, None)
    if not excluded:
        return list(found.values())
    note = f"not {' or '.join(repr(text) for text in excluded)}"
    return [c.model_copy(update={"reasons": [*c.reasons, note]}) for c in found.values()]


def split_negation(description: str) -> tuple[str, list[str]]:
    """What is wanted, and what is excluded (none without a negation).

    "a snack, but not the crisps or the nuts" -> ("a snack", ["the crisps", "the nuts"]).
    """
    parts = NEGATION.split(description, maxsplit=1)
    if len(parts) == 1:
        return description, []
    wanted, rest = parts
    return wanted, [text for text in ALTERNATIVES.split(rest) if text.strip()]


def _resolve(
    store: ReferentStore, description: Description, speaker: URIRef | None
) -> dict[Node, Candidate]:
    """Candidates for ``description`` (see :func:`_matching`).

    For "my" with nothing the speaker owns: the fitting things nobody is known to own.
    """
    found = _matching(store, description, speaker)
    if found or speaker is None or description.thing.possessive is None:
        return found
    unowned = _matching(store, description, None, owners=False)
    note = "'my': nothing is known to be yours; nobody is known to own this"
    return {
        thing: candidate.model_copy(
            update={"reasons": [*candidate.reasons[:-1], note]}  # the last: ownership unchecked
        )
        for thing, candidate in unowned.items()
    }


def _matching(
    store: ReferentStore,
    description: Description,
    speaker: URIRef | None,
    *,
    owners: bool = True,
) -> dict[Node, Candidate]:
    """Candidates for ``description`` by node, in id order.

    ``owners=False``: only things nobody is known to own.

    One query finds the things whose matches cover every word, the speaker's ownership
    for "my" and the place, if the description names one (resolved first, the same way);
    a second says what the survivors are and drops non-things such as the type
    ``cog:Bottle`` itself.
    """
    phrase = description.thing
    if not phrase.content:
        return {}
    terms: list[tuple[URIRef | Literal, int]] = [
        (Literal(term.text), position)
        for term in phrase.terms()
        for position in sorted(term.covers)
    ]
    notes: list[str] = []
    if phrase.possessive is not None and speaker is not None:
        terms.append((speaker, phrase.possessive))
    elif phrase.possessive is not None:
        notes.append("'my': speaker unknown, ownership not checked")
    if description.place is not None:
        places = _resolve(store, description.place, speaker)
        if not places:
            return {}
        terms += [(place, len(phrase.words)) for place in _iris(places)]
    needed = Literal(len({position for _, position in terms}))
    order: dict[str, int] = {}
    for term, position in terms:
        order[str(term)] = min(position, order.get(str(term), position))
    matches = {
        row["thing"]: _records(str(row["matches"]))
        for row in store.select(
            "referent_matches",
            term_position_needed=[(term, Literal(at), needed) for term, at in terms],
        )
    }
    if not matches:
        return {}
    candidates = {}
    for row in store.select("referent_details", thing=list(_iris(matches))):
        thing = row["thing"]
        if not owners and "owner" in row:
            continue
        own_type = str(row.get("typeLabel", ""))
        records = sorted(matches[thing], key=lambda record: (order[record[0]], record))
        reasons = [_reason(store, record, own_type, description) for record in records]
        candidates[thing] = Candidate(
            id=store.short_id(thing),
            label=str(row.get("label", store.short_id(thing))),
            kind=store.kind_of(row["class"]),
            type=store.short_id(row["type"]) if "type" in row else None,
            reasons=[*_unique(reasons), *notes],
        )
    kept = _named_over_typed({thing: matches[thing] for thing in candidates})
    kept = _head_by_kind(_whole_name_wins(kept, phrase), phrase)
    return dict(sorted(((t, c) for t, c in candidates.items() if t in kept), key=_by_id))


Matches = dict[Node, list[tuple[str, str, str]]]
"""Each candidate's match records (term, how, detail)."""


def _whole_name_wins(matches: Matches, phrase: Phrase) -> Matches:
    """A thing called by the whole description wins over things matched word by word.

    "the ceramic dinner plate" is the thing labelled so, not the ceramic salad plate that
    matches "ceramic" by its material and "dinner plate" by its type's synonym. Only for
    descriptions of two words or more: "the mug" still matches every mug.
    """
    if len(phrase.content) < 2:
        return matches
    whole = {term.text for term in phrase.terms() if term.covers == phrase.content}
    named = {
        thing
        for thing, records in matches.items()
        if any(term in whole and how == "label" for term, how, _ in records)
    }
    return {thing: matches[thing] for thing in named} if named else matches


PRONOUN_NOUNS: Final = frozenset(
    ["one", "ones", "something", "anything", "thing", "things", "stuff"]
)
"""Filler words that stand for the noun: the other words only describe the thing."""

BY_KIND: Final = frozenset(["type", "label"])
"""How a term matches when it names what the thing is (its type or its own name)."""


def _head_by_kind(matches: Matches, phrase: Phrase) -> Matches:
    """The last word names what the thing is: "a glass" is a glass, not a glass bottle.

    Things that match the description's last word only by an attribute (a material, a
    colour) are dropped when other things are of that kind or called so. A description
    whose noun is "one" or "something" ("the glass one", "something glass") describes by
    every word and is left alone.
    """
    if not phrase.content or PRONOUN_NOUNS & set(phrase.words):
        return matches
    last = max(phrase.content)
    heads = {term.text for term in phrase.terms() if term.covers == frozenset([last])}

    def head_ways(records: list[tuple[str, str, str]]) -> set[str]:
        return {how for term, how, _ in records if term in heads}

    if not any(head_ways(records) & BY_KIND for records in matches.values()):
        return matches
    return {
        thing: records
        for thing, records in matches.items()
        if not head_ways(records) or head_ways(records) - {"attribute", "flag"}
    }


def _by_id(item: tuple[Node, Candidate]) -> str:
    return item[1].id


def _named_over_typed(
    matches: dict[Node, list[tuple[str, str, str]]],
) -> dict[Node, list[tuple[str, str, str]]]:
    """A type's synonym never makes a named thing ambiguous.

    Things that match a term only through a synonym of their type are dropped when another
    thing is called by that term: "the frying pan" names the thing labelled frying pan, not
    every pan (the taxonomy lists "frying pan" as a synonym of pan); "the pan", the type's own
    label, still matches both.
    """
    named = {term for records in matches.values() for term, how, _ in records if how == "label"}
    if not named:
        return matches

    def only_by_synonym(records: list[tuple[str, str, str]]) -> bool:
        for term in named:
            ways = [(how, detail) for said, how, detail in records if said == term]
            if ways and all(how == "type" and detail != term for how, detail in ways):
                return True
        return False

    return {thing: records for thing, records in matches.items() if not only_by_synonym(records)}


def _reason(
    store: ReferentStore, record: tuple[str, str, str], own_type: str, said: Description
) -> str:
    """Why one term of ``said`` matched, in words (``own_type``: the thing's type label)."""
    term, how, detail = record
    quoted = f"'{term}'"
    if how == "type":
        if own_type in ("", detail):
            return f"{quoted}: a {detail}"
        return f"{quoted}: {own_type} is a kind of {detail}"
    if how == "attribute":
        return f"{quoted}: {detail} {term}"
    if how == "flag":
        return f"{quoted}: {detail} is true"
    if how == "use":
        return f"{quoted}: a {detail} is used to {term}"
    if how == "quality":
        return f"{quoted}: a {detail} is typically {term}"
    if how == "state":
        return f"{quoted}: a {detail} can be {term}"
    if how == "owner":
        return f"{quoted}: owned by {term}"
    if how == "speaker":
        return f"'my': owned by {store.short_id(URIRef(term))}"
    if how == "place":
        where = f"{said.preposition} {said.place}"
        return f"'{where}': {said.preposition} {store.short_id(URIRef(term))}"
    return f"{quoted}: called {term}"


def _records(matches: str) -> list[tuple[str, str, str]]:
    """(term, how, detail) from ``referent_matches.rq``: "term US how US detail" joined by RS."""
    records = []
    for record in sorted(matches.split(RECORD_SEPARATOR)):
        term, how, detail = [*record.split(UNIT_SEPARATOR), "", ""][:3]
        records.append((term, how, detail))
    return records


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _iris(nodes: Iterable[Node]) -> Iterator[URIRef]:
    return (node for node in nodes if isinstance(node, URIRef))
