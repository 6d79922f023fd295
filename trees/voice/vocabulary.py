"""The words the robot knows, as sentences a language model is estimated from.

Four sources, all the robot's own: the domain packs' descriptions and task examples (how
people ask for what the robot can do) with the answers to "Did you say ...?"
(:data:`~trees.voice.confirmation.ANSWER_SENTENCES`), every name in the belief (rdfs:label
and cog:synonym of the scene's things, rooms, people and the household taxonomy's types),
every name in the packs' own lexicons (the advisor's dishes, ingredients and allergens, read
from its knowledge graph) and the request grammar's verbs, openers ("could you") and wants
("can I have") from ``knowledge/language/request_words.yaml``. The packs' sentences say how
people ask and count :data:`PACK_WEIGHT` times; each name is a sentence of its own (its
words in order), and a verb is put before "the" and "me the".
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator
from itertools import pairwise
from typing import Final

from rdflib import RDFS, Graph, URIRef

from cogtree.knowledge.language.grammar.words import WORDS_FILE, WordsError, request_words
from cogtree.knowledge.packs.domain_profile import DomainProfile
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_graph import SCENE
from cogtree.knowledge.understanding.lexicon import build_lexicons
from cogtree.knowledge.yaml_files import read_yaml_mapping
from cogtree.trees.voice.confirmation import ANSWER_SENTENCES

SYNONYM = URIRef("https://cogtree.dev/ontology#synonym")

PACK_WEIGHT = 3
"""How many times the packs' sentences count: how people ask matters more than the list of
names (chosen on sentences of our own, not on the benchmark's: docs/voice.md)."""

WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


def words_of(text: str) -> list[str]:
    """The lower-case words of ``text`` (letters and inner apostrophes; digits dropped)."""
    return WORD.findall(text.lower().replace("\u2019", "'"))


def pack_sentences(domains: DomainRegistry) -> Iterator[str]:
    """Every pack's description and task examples."""
    for pack in domains.packs:
        yield from DomainProfile.from_pack(pack).scope_texts()


def lexicon_names(domains: DomainRegistry) -> set[str]:
    """Every form of the packs' own lexicons (their scene lexicons are the belief's names)."""
    return {
        form
        for pack in domains.packs
        for lexicon in build_lexicons(pack, None).values()
        for entry in lexicon.ids
        for form in lexicon.forms(entry)
    }


def graph_names(graph: Graph) -> set[str]:
    """Every label and synonym in ``graph`` (the belief: scene, people, taxonomy)."""
    return {
        str(name).strip().lower()
        for predicate in (RDFS.label, SYNONYM)
        for name in graph.objects(None, predicate)
        if str(name).strip()
    }


def scene_names(graph: Graph) -> list[str]:
    """The labels and synonyms of the scene's own things, rooms and people.

    Not the taxonomy's types: what a request here names, in the graph's order, each once.
    """
    names = (
        str(name).strip().lower()
        for subject in graph.subjects(RDFS.label, None, unique=True)
        if str(subject).startswith(str(SCENE))
        for predicate in (RDFS.label, SYNONYM)
        for name in graph.objects(subject, predicate)
    )
    return list(dict.fromkeys(name for name in names if name))


PROMPT_NAMES: Final = 60
"""The most scene names a prompt holds (about two tokens each, beside the verbs' 40 or so)."""


def prompt_of(graph: Graph | None) -> str:
    """The text a recogniser that reads a prompt (Whisper) is told was said before a clip.

    The names of the scene's things (the first :data:`PROMPT_NAMES`), then the head verb of
    each of the robot's capabilities. Whisper leans towards the words of the text before a
    clip; these are the words a request to this robot here is made of. Whisper keeps only the
    last 223 tokens of a prompt, so the verbs come last and the names are capped.
    """
    heads: dict[str, str] = {}
    for words, (kind, key) in request_words().verbs.items():
        if kind == "actions":
            heads.setdefault(key, " ".join(words))
    names = scene_names(graph)[:PROMPT_NAMES] if graph is not None else []
    verbs = ", ".join(heads.values())
    return f"{', '.join(names)}: {verbs}." if names else f"{verbs}."


def robot_sentences(domains: DomainRegistry, graph: Graph | None) -> list[str]:
    """The robot's language model's sentences: packs, answers (weighted), names, verbs."""
    sentences = [*pack_sentences(domains), *ANSWER_SENTENCES] * PACK_WEIGHT
    sentences += sorted(lexicon_names(domains))
    sentences += sorted(graph_names(graph)) if graph is not None else []
    sentences += [
        f"{opener} {verb} {rest}"
        for verb in request_phrases()
        for opener, rest in (("", "the"), ("please", "me the"))
    ]
    return sentences


def known_words(domains: DomainRegistry, graph: Graph | None) -> frozenset[str]:
    """Every word of :func:`robot_sentences` (PocketSphinx's model's words).

    The words a Whisper hypothesis is re-ranked by (:func:`~trees.voice.whisper_engine.rerank`).
    """
    return frozenset(word for words in corpus(robot_sentences(domains, graph)) for word in words)


def request_phrases() -> list[str]:
    """The request grammar's verbs (``*`` read as "the"), openers and wants."""
    words = read_yaml_mapping(WORDS_FILE, WordsError, expected="the request grammar's words")
    actions = words["actions"].values()
    verbs = [
        verb for action in actions for verb in [*action["verbs"], *action.get("throw_verbs", [])]
    ]
    phrases = [*verbs, *words["openers"], *words["wants"]]
    return sorted({str(phrase).replace("*", "the") for phrase in phrases})


def corpus(sentences: Iterable[str]) -> list[list[str]]:
    """``sentences`` as word lists, the empty ones left out."""
    return [words for words in map(words_of, sentences) if words]


SAID_WORD: Final = re.compile(r"[A-Za-z]+(?:['\u2019][A-Za-z]+)?")


def mended(text: str, known: Collection[str], english: Collection[str]) -> str:
    """``text`` with a word a recogniser split in two joined again into the robot's word.

    A recogniser that does not know a name may split it ("spaghetti car bonara"). Two words
    side by side, one space apart, of which one is no English word (not in ``english``, a
    pronouncing dictionary), become the word of ``known`` they join into exactly. Nothing else
    is changed: English words, words with an apostrophe ("kettle's"), names it merely spells
    its own way (a drug's name is never guessed into another's), and the capital of the first.
    """
    if not known or not english:
        return text  # without a dictionary nothing can be told to be no word
    spans = [  # a word with an apostrophe is said as it is
        (m.start(), m.end(), m.group())
        for m in SAID_WORD.finditer(text)
        if "'" not in m.group() and "\u2019" not in m.group()
    ]
    pieces, at = [], 0
    for (start, end, word), (after, stop, other) in pairwise(spans):
        joined = (word + other).lower()
        if start < at or text[end:after] != " " or joined not in known:
            continue
        if word.lower() not in english or other.lower() not in english:  # "car bonara"
            pieces += [text[at:start], joined.capitalize() if word[0].isupper() else joined]
            at = stop
    return "".join([*pieces, text[at:]])
