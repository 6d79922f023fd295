"""The request grammar's word lists, read once from ``request_words.yaml``.

The grammar (:mod:`knowledge.language.request_frame`) reads a small part-of-speech lexicon of
function words written as data: the verbs of each capability and of each missing skill (the
skill catalogue's unsupported skills over the grammar's own), prepositions by role, and the
word classes (determiners, quantities, openers, ...). :func:`request_words` loads them as
phrase tables; :class:`WordsError` names the broken entry and the fix.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import yaml

from cogtree.knowledge.language.grammar.object_phrase import ObjectPhrase
from cogtree.knowledge.language.unsupported_skills import unsupported_skills
from cogtree.knowledge.scene.taxonomy import VESSELS, household_taxonomy
from cogtree.knowledge.wording import LIGHT_VERBS, singular
from cogtree.knowledge.wordnet.nouns import ARTEFACTS, shipped_nouns
from cogtree.knowledge.yaml_files import LOADER

WORDS_FILE: Final = Path(__file__).parents[1] / "request_words.yaml"
"""The grammar's word lists."""

PHRASE_WORDS: Final = 8
"""The most words a phrase of the word lists may have: the matcher looks no further ahead."""

PARTICLES: Final = frozenset(
    ["away", "back", "up", "down", "out", "off", "over", "on", "in", "through"]
)
"""Words that may finish a phrasal verb after its object ("throw the can away")."""

ACTIONS: Final = "actions"
"""The kind of a verb that names one of the robot's capabilities (the other: unsupported)."""


class WordsError(ValueError):
    """The grammar's word file is broken; the message names the entry and the fix."""


LOOKING: Final = frozenset(["LOOK"])
"""The skills of an action that only looks at the home."""


@dataclass(frozen=True)
class Words:
    """The word lists, as phrase tables (tuples of words -> value)."""

    verbs: Mapping[tuple[str, ...], tuple[str, str]]  # words -> (kind, key)
    # a verb of a missing skill that names a capability too -> (the capability, what the
    # missing skill is done to): "mop" -> ("wipe", ("floor", "Rug", ...))
    shared_verbs: Mapping[tuple[str, ...], tuple[str, tuple[str, ...]]]
    says: Mapping[str, str]
    tasks: Mapping[str, tuple[str, ...]]
    place_verbs: Mapping[str, frozenset[str]]  # action -> verbs that name the destination
    thing_verbs: frozenset[str]  # verbs that act only when their place is a physical thing
    throw_verbs: frozenset[str]  # verbs of throwing: to someone named, else away or nowhere
    light_verbs: frozenset[str]  # "give * a <verb>": the noun of action says the action (wording)
    acts_on_source: frozenset[str]  # actions done to what a thing comes off ("wipe X off Y")
    settings: frozenset[str]  # "switch it on low": a setting after the particle, no place
    skills: Mapping[str, frozenset[str]]
    openers: frozenset[tuple[str, ...]]
    wants: frozenset[tuple[str, ...]]
    determiners: frozenset[str]
    quantities: frozenset[str]
    approximations: frozenset[str]  # "about" of "about half a cup": an amount not exact
    degrees: frozenset[str]  # "a bit" of "a bit closer": how far, not what
    comparatives: frozenset[str]  # "closer" of "a bit closer": where to, after a degree
    measures: frozenset[str]
    pronouns: frozenset[str]
    indefinites: frozenset[str]
    speaker: frozenset[str]
    people_pronouns: frozenset[str]
    negations: frozenset[tuple[str, ...]]
    conjunctions: frozenset[tuple[str, ...]]
    sequencers: frozenset[tuple[str, ...]]
    copulas: frozenset[str]
    other_verbs: frozenset[str]
    subjects: frozenset[str]
    idioms: frozenset[tuple[str, ...]]
    subordinators: frozenset[str]
    where_endings: frozenset[tuple[str, ...]]  # "end up" after "where did the hoover"
    vague_places: frozenset[str]
    weak_verbs: frozenset[tuple[str, ...]]
    adverbials: frozenset[tuple[str, ...]]
    statement_modals: frozenset[tuple[str, ...]]
    results: Mapping[str, str]  # a word after the object -> the action it makes
    poured_as: str  # the action a drink put into a drink or drinkware is
    openings: frozenset[str]
    remains: frozenset[tuple[str, ...]]
    waste_words: frozenset[str]
    statement_verbs: frozenset[tuple[str, ...]]
    any_one: frozenset[str]  # determiners and counts that ask for any one thing of a kind
    ordinals: tuple[str, ...]  # "the second one": an option by its place, in order ("last")
    every_one: frozenset[str]  # determiners that mean every thing the phrase fits
    indifferent: frozenset[tuple[str, ...]]  # answers that leave a choice to the robot
    repairs: frozenset[tuple[str, ...]]  # words with which an answer corrects itself
    emphatics: frozenset[tuple[str, ...]]  # "on earth" after "where": emphasis only
    relatives: frozenset[str]  # words that open a relative clause after a noun
    tags: frozenset[tuple[str, ...]]  # tags that close a clause ("would you", "love")
    comma_tags: frozenset[tuple[str, ...]]  # tags that close a clause after a comma ("yeah")
    address: frozenset[str]  # forms of address, which may open a clause too ("mate, ...")
    social: Mapping[str, frozenset[tuple[str, ...]]]  # act -> its formulas ("thank you")
    social_fillers: frozenset[str]  # words a social formula may carry ("oh", "very much")
    prepositions: Mapping[tuple[str, ...], tuple[str, str]]  # words -> (role, relation)
    particles: Mapping[str, frozenset[str]]
    # the verb's first word -> (the words after the object, (kind, key))
    split_verbs: Mapping[str, tuple[tuple[tuple[str, ...], tuple[str, str]], ...]]

    @functools.cached_property
    def asides(self) -> frozenset[str]:
        """Words that say nothing beside an answer: a one-word opener ("oh"), an address."""
        return self.address | {opener[0] for opener in self.openers if len(opener) == 1}

    @functools.cached_property
    def manner_words(self) -> frozenset[str]:
        """One-word adverbials and tags: they say how to do it ("quickly", "quick"), never what."""
        said = (*self.adverbials, *self.comma_tags)
        return frozenset(phrase[0] for phrase in said if len(phrase) == 1)

    def reading(
        self, verb: str, kind: tuple[str, str], objects: Sequence[ObjectPhrase]
    ) -> tuple[str, str]:
        """The (kind, key) of ``verb`` done to ``objects``: a missing skill's only for its things.

        "mop the kitchen floor" asks for the missing skill; "mop it up", "mop the table" for
        the capability the verb names too (wipe). With no object, the missing skill.
        """
        shared = self.shared_verbs.get(tuple(verb.split())) if kind[0] != ACTIONS else None
        said = [phrase for phrase in objects if not phrase.negated]
        if shared is None or not said or any(_done_to(phrase, shared[1]) for phrase in said):
            return kind
        return ACTIONS, shared[0]

    def names_destination(self, verb: str, action: str) -> bool:
        """Whether ``verb`` also names where the thing ``action`` moves goes ("microwave")."""
        return verb in self.place_verbs.get(action, frozenset())

    def actions_with(self, available: Iterable[str]) -> frozenset[str]:
        """The capabilities whose every skill is in ``available`` (the robot's skill names)."""
        have = frozenset(available)
        return frozenset(action for action, needs in self.skills.items() if needs <= have)

    def only_looks(self, action: str) -> bool:
        """Whether ``action`` only looks (find, how many, is there): it changes nothing."""
        return self.skills.get(action) == LOOKING

    def capability_particles(self, verb: str) -> dict[str, str]:
        """The particles that make ``verb`` a capability of the robot's, with the capability.

        "switch": {"on": "switch_on", "off": "switch_off"}; "pick": {"up": "bring"}. One
        particle per capability, the one the grammar lists first ("turn off", not "turn down").
        """
        particles, made = self.particles.get(verb, frozenset()), dict[str, str]()
        for phrase, (kind, action) in self.verbs.items():
            usable = len(phrase) == 2 and phrase[0] == verb and phrase[1] in particles
            if usable and kind == "actions" and action not in made.values():
                made[phrase[1]] = action
        return made


def _phrase(text: Any) -> tuple[str, ...]:
    if len(words := tuple(str(text).lower().replace("\u2019", "'").split())) > PHRASE_WORDS:
        raise WordsError(f"{str(text)!r}: a phrase of the grammar has at most {PHRASE_WORDS} words")
    return words


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list) or not value:
        raise WordsError(f"{WORDS_FILE.name}: {key!r} must be a non-empty list of words")
    return value


MEASURING_VESSELS: Final = sorted(VESSELS | {"Cookware"})
"""The taxonomy's vessels (what people take is served or kept in) and cookware ("a pan of
water"): the categories of things that hold a measure of something."""


def vessel_words() -> frozenset[str]:
    """One-word names of the taxonomy's vessels ("jug", "pan", "tray").

    Each is a measure in "a jug of water", beside the ``measures`` the words list.
    """
    taxonomy = household_taxonomy()
    names = (
        name
        for category in MEASURING_VESSELS
        for kind in taxonomy.types_of(category)
        for name in (taxonomy.label(kind), *taxonomy.synonyms(kind))
    )
    return frozenset(name for name in names if name.isalpha())


@functools.cache
def request_words() -> Words:
    """The grammar's word lists, read once from :data:`WORDS_FILE`.

    Raises :class:`WordsError` naming the entry when the file is malformed.
    """
    try:
        data = yaml.load(WORDS_FILE.read_text(encoding="utf-8"), Loader=LOADER)
    except (OSError, yaml.YAMLError) as error:
        raise WordsError(f"{WORDS_FILE}: cannot read the grammar's words: {error}") from error
    if not isinstance(data, dict):
        raise WordsError(f"{WORDS_FILE.name}: expected a mapping of word lists")
    verbs: dict[tuple[str, ...], tuple[str, str]] = {}
    tasks: dict[str, tuple[str, ...]] = {}
    skills: dict[str, frozenset[str]] = {}
    says: dict[str, str] = {}
    place_verbs: dict[str, frozenset[str]] = {}
    thing_verbs: set[str] = set()
    throw_verbs: set[str] = set()
    acts_on_source: set[str] = set()
    for kind in ("actions", "unsupported"):
        entries = data.get(kind)
        if not isinstance(entries, dict) or not entries:
            raise WordsError(f"{WORDS_FILE.name}: {kind!r} must map names to their verbs")
        for key, entry in entries.items():
            if not isinstance(entry, dict):
                raise WordsError(f"{WORDS_FILE.name}: {kind}.{key} must be a mapping")
            for verb in [*_list(entry, "verbs"), *entry.get("throw_verbs", [])]:
                verbs.setdefault(_phrase(verb), (kind, str(key)))
            if kind == "actions":
                tasks[str(key)] = tuple(str(task) for task in _list(entry, "tasks"))
                skills[str(key)] = frozenset(str(skill) for skill in _list(entry, "skills"))
                named = entry.get("place_verbs", [])
                place_verbs[str(key)] = frozenset(str(verb).lower() for verb in named)
                thing_verbs.update(str(verb).lower() for verb in entry.get("thing_verbs", []))
                throw_verbs.update(str(verb).lower() for verb in entry.get("throw_verbs", []))
                if entry.get("acts_on_source") is True:
                    acts_on_source.add(str(key))
            else:
                says[str(key)] = str(entry.get("says") or key)
    shared_verbs = _add_catalogue(verbs, says)
    prepositions: dict[tuple[str, ...], tuple[str, str]] = {}
    relations = data.get("relations")
    if not isinstance(relations, dict):
        raise WordsError(f"{WORDS_FILE.name}: 'relations' must map relations to prepositions")
    for relation, forms in relations.items():
        for form in forms:
            prepositions.setdefault(_phrase(form), ("landmark", str(relation)))
    for role, key in (
        ("destination", "destinations"),
        ("tool", "tools"),
        ("source", "sources"),
        ("recipient", "recipients"),
    ):
        for form in _list(data, key):
            prepositions.setdefault(_phrase(form), (role, ""))
    split_verbs: dict[str, list[tuple[tuple[str, ...], tuple[str, str]]]] = {}
    for words in [words for words in verbs if "*" in words]:
        star = words.index("*")
        if star != 1 or len(words) < 3:
            raise WordsError(
                f"{WORDS_FILE.name}: {' '.join(words)!r}: write one verb, *, then words"
            )
        split_verbs.setdefault(words[0], []).append((words[2:], verbs.pop(words)))
    particles: dict[str, set[str]] = {}
    for words in verbs:
        if len(words) == 2 and words[1] in PARTICLES:
            particles.setdefault(words[0], set()).add(words[1])

    tags = data.get("tags")
    if not isinstance(tags, dict):
        raise WordsError(f"{WORDS_FILE.name}: 'tags' must map closing, address and after_comma")

    social = data.get("social")
    if not isinstance(social, dict):
        raise WordsError(f"{WORDS_FILE.name}: 'social' must map each social act to its formulas")

    def word_set(key: str) -> frozenset[str]:
        return frozenset(str(word).lower() for word in _list(data, key))

    def phrase_set(key: str) -> frozenset[tuple[str, ...]]:
        return frozenset(_phrase(word) for word in _list(data, key))

    return Words(
        verbs=verbs,
        shared_verbs=shared_verbs,
        says=says,
        tasks=tasks,
        place_verbs=place_verbs,
        thing_verbs=frozenset(thing_verbs),
        throw_verbs=frozenset(throw_verbs),
        light_verbs=LIGHT_VERBS,
        acts_on_source=frozenset(acts_on_source),
        settings=word_set("settings"),
        skills=skills,
        prepositions=prepositions,
        particles={verb: frozenset(found) for verb, found in particles.items()},
        split_verbs={verb: tuple(tails) for verb, tails in split_verbs.items()},
        openers=phrase_set("openers"),
        wants=phrase_set("wants"),
        negations=phrase_set("negations"),
        conjunctions=phrase_set("conjunctions"),
        sequencers=phrase_set("sequencers"),
        determiners=word_set("determiners"),
        quantities=word_set("quantities"),
        measures=word_set("measures") | vessel_words(),
        pronouns=word_set("pronouns"),
        indefinites=word_set("indefinites"),
        speaker=word_set("speaker"),
        people_pronouns=word_set("people_pronouns"),
        copulas=word_set("copulas"),
        other_verbs=word_set("other_verbs"),
        subjects=word_set("subjects"),
        idioms=phrase_set("idioms"),
        subordinators=word_set("subordinators"),
        where_endings=phrase_set("where_endings"),
        vague_places=word_set("vague_places"),
        weak_verbs=phrase_set("weak_verbs"),
        adverbials=phrase_set("adverbials")
        | phrase_set("how_full")
        | {(near, *full) for near in word_set("approximations") for full in phrase_set("how_full")},
        statement_modals=phrase_set("statement_modals"),
        results=_results(data, frozenset(tasks)),
        poured_as=_action(data, "poured_as", frozenset(tasks)),
        openings=word_set("openings"),
        remains=phrase_set("remains"),
        waste_words=word_set("waste_words"),
        statement_verbs=phrase_set("statement_verbs"),
        any_one=word_set("any_one"),
        ordinals=tuple(str(word).lower() for word in _list(data, "ordinals")),
        every_one=word_set("every_one"),
        indifferent=phrase_set("indifferent"),
        repairs=phrase_set("repairs"),
        emphatics=phrase_set("emphatics"),
        degrees=word_set("degrees"),
        approximations=word_set("approximations"),
        comparatives=word_set("comparatives"),
        relatives=word_set("relatives"),
        tags=frozenset(_phrase(tag) for tag in [*_list(tags, "closing"), *_list(tags, "address")]),
        comma_tags=frozenset(_phrase(tag) for tag in _list(tags, "after_comma")),
        address=frozenset(_list(tags, "address")),
        social={
            str(act): frozenset(_phrase(formula) for formula in _list(social, act))
            for act in social
        },
        social_fillers=word_set("social_fillers"),
    )


def _action(data: Mapping[str, Any], key: str, actions: frozenset[str]) -> str:
    """The action ``key`` names, checked against ``actions``."""
    action = data.get(key)
    if action not in actions:
        raise WordsError(
            f"{WORDS_FILE.name}: {key} names {action!r}, not an action; use one of "
            f"{', '.join(sorted(actions))}"
        )
    return str(action)


def _results(data: Mapping[str, Any], actions: frozenset[str]) -> dict[str, str]:
    """The ``results`` table (word -> action), each action checked against ``actions``."""
    results = data.get("results")
    if not isinstance(results, dict):
        raise WordsError(f"{WORDS_FILE.name}: 'results' must map words to actions")
    for word, action in results.items():
        if action not in actions:
            raise WordsError(
                f"{WORDS_FILE.name}: results.{word} names {action!r}, not an action; use one "
                f"of {', '.join(sorted(actions))}"
            )
    return {str(word).lower(): str(action) for word, action in results.items()}


def _add_catalogue(
    verbs: dict[tuple[str, ...], tuple[str, str]], says: dict[str, str]
) -> dict[tuple[str, ...], tuple[str, tuple[str, ...]]]:
    """Put the skill catalogue's unsupported skills over the grammar's own.

    The catalogue is :func:`~knowledge.language.unsupported_skills.unsupported_skills` (its
    ValueError names the file when it cannot be read). Returns the verbs it took from a
    capability, for a skill that says what it is done to: verb -> (capability, acts_on).
    """
    shared = {}
    for skill in unsupported_skills():
        name = f"catalogue:{skill.name}"
        for verb in skill.verbs:
            phrase = _phrase(verb)
            kind, key = verbs.get(phrase, ("", ""))
            if kind == ACTIONS and skill.acts_on:
                shared[phrase] = (key, skill.acts_on)
            verbs[phrase] = ("unsupported", name)
        says[name] = skill.missing
    return shared


def _done_to(phrase: ObjectPhrase, acts_on: tuple[str, ...]) -> bool:
    """Whether ``phrase`` names a thing of ``acts_on`` ("the kitchen": a room, by its sense).

    A word of it, a type above its own, or a word the dictionary puts above its head's first
    sense.
    """
    taxonomy, nouns = household_taxonomy(), shipped_nouns()
    words = {*phrase.modifiers, phrase.head, singular(phrase.head)}
    kind = taxonomy.type_named(phrase.text) or taxonomy.type_named(phrase.head)
    said = tuple(word for word in acts_on if word.islower())
    return (
        bool(words & set(acts_on))
        or (kind is not None and any(kind == name or taxonomy.is_a(kind, name) for name in acts_on))
        or (nouns is not None and nouns.first_is(singular(phrase.head), ARTEFACTS, said))
    )


def says_no(text: str) -> bool:
    """Whether ``text`` says no, by the grammar's negations.

    It holds one ("no longer", "avoid"), a word that begins with a one-word one ("nope",
    "nothing") or a verb's "n't" ("don't", "isn't"): reading too much as a no is the safe side.
    """
    said = tuple(re.findall(r"[a-z0-9']+", text.lower().replace("\u2019", "'")))
    negations = request_words().negations
    starts = tuple(negation[0] for negation in negations if len(negation) == 1)
    if any(word.startswith(starts) or word.endswith("n't") for word in said):
        return True
    return any(said[at : at + len(no)] == no for no in negations for at in range(len(said)))
