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
from difflib import SequenceMatcher
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


MENDING_LIKENESS: Final = 0.85
"""How alike (difflib's ratio) a non-word must be to a word of the robot's to be mended into
it: "carbonare" for "carbonara" (0.89), never "reander" for "coriander" (0.75)."""

SAID_WORD: Final = re.compile(r"[A-Za-z]+(?:['\u2019][A-Za-z]+)?")


def mended(text: str, known: Collection[str], english: Collection[str]) -> str:
    """``text`` with the non-words a recogniser wrote mended into the robot's ``known`` words.

    A recogniser that does not know a name splits it or spells it its own way ("spaghetti car
    bonara"). Two words side by side of which one is no English word (not in ``english``, a
    pronouncing dictionary) become the known word they join into, or one at least
    :data:`MENDING_LIKENESS` alike that starts with the same letter; a lone non-word likewise.
    English words are never changed ("car park" stays), nor a word with an apostrophe ("the
    kettle's still hot", "Okafor's"), and nothing is mended into a word the robot does not
    know. A capital stays.
    """
    spans = [  # a word with an apostrophe ("kettle's", "Okafor's") is said as it is
        (m.start(), m.end(), m.group().lower())
        for m in SAID_WORD.finditer(text)
        if "'" not in m.group() and "\u2019" not in m.group()
    ]
    if not known or not english or not any(word not in english for _, _, word in spans):
        return text  # without a dictionary nothing can be told to be no word
    pieces, at, index = [], 0, 0
    while index < len(spans):
        start, end, word = spans[index]
        pair = spans[index + 1] if index + 1 < len(spans) else None
        joinable = pair is not None and text[end : pair[0]] == " "  # not "car, bonara"
        if pair is not None and joinable and (word not in english or pair[2] not in english):
            joined = _known_like(word + pair[2], known)
            if joined:
                pieces += [text[at:start], _cased(joined, text[start])]
                at, index = pair[1], index + 2
                continue
        alone = _known_like(word, known) if word not in english and word not in known else None
        if alone:
            pieces += [text[at:start], _cased(alone, text[start])]
            at = end
        index += 1
    return "".join([*pieces, text[at:]])


def _cased(word: str, first: str) -> str:
    """``word`` with a capital when the word it mends began with one ("Carbonara")."""
    return word[:1].upper() + word[1:] if first.isupper() else word


def _known_like(word: str, known: Collection[str]) -> str | None:
    """The word of ``known`` that ``word`` is, or is most like (see :func:`mended`), or None."""
    if word in known:
        return word
    alike = [
        (SequenceMatcher(None, word, candidate).ratio(), candidate)
        for candidate in known
        if candidate[:1] == word[:1] and abs(len(candidate) - len(word)) <= 2
    ]
    ratio, best = max(alike, default=(0.0, ""))
    return best if ratio >= MENDING_LIKENESS else None
