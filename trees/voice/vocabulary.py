"""The words the robot knows, as sentences a language model is estimated from.

Three sources, all the robot's own: the domain packs' descriptions and task examples (how
people ask for what the robot can do), every name in the belief (rdfs:label and cog:synonym of
the scene's things, rooms, people and the household taxonomy's types) and the request grammar's
verbs, openers ("could you") and wants ("can I have") from
``knowledge/language/request_words.yaml``. Names alone say nothing of how they are used, so
each is also put in the few frames a request or a question about a thing is said in
(:data:`FRAMES`); a verb is put before "the" and "me the".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from rdflib import RDFS, Graph, URIRef

from cogtree.knowledge.language.request_frame import WORDS_FILE, WordsError
from cogtree.knowledge.packs.domain_profile import DomainProfile
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.yaml_files import read_yaml_mapping

SYNONYM = URIRef("https://cogtree.dev/ontology#synonym")

FRAMES = (
    "the {name}",
    "my {name}",
    "a {name}",
    "where is the {name}",
    "where are the {name}",
    "is there a {name}",
    "bring me the {name}",
    "put the {name} on the table",
    "the {name} in the kitchen",
)
"""Frames a thing's name is said in: written for cogtree, not drawn from any request set."""

WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


def words_of(text: str) -> list[str]:
    """The lower-case words of ``text`` (letters and inner apostrophes; digits dropped)."""
    return WORD.findall(text.lower().replace("\u2019", "'"))


def pack_sentences(domains: DomainRegistry) -> Iterator[str]:
    """Every pack's description and task examples."""
    for pack in domains.packs:
        yield from DomainProfile.from_pack(pack).scope_texts()


def graph_names(graph: Graph) -> set[str]:
    """Every label and synonym in ``graph`` (the belief: scene, people, taxonomy)."""
    return {
        str(name).strip().lower()
        for predicate in (RDFS.label, SYNONYM)
        for name in graph.objects(None, predicate)
        if str(name).strip()
    }


def robot_sentences(domains: DomainRegistry, graph: Graph | None) -> list[str]:
    """The sentences of the robot's language model: packs, names in frames, verbs."""
    sentences = list(pack_sentences(domains))
    names = sorted(graph_names(graph)) if graph is not None else []
    sentences += [frame.format(name=name) for name in names for frame in FRAMES]
    sentences += [
        f"{opener} {verb} {rest}"
        for verb in request_phrases()
        for opener, rest in (("", "the"), ("please", "me the"))
    ]
    return sentences


def request_phrases() -> list[str]:
    """The request grammar's verbs (``*`` read as "the"), openers and wants."""
    words = read_yaml_mapping(WORDS_FILE, WordsError, expected="the request grammar's words")
    verbs = [verb for action in words["actions"].values() for verb in action["verbs"]]
    phrases = [*verbs, *words["openers"], *words["wants"]]
    return sorted({str(phrase).replace("*", "the") for phrase in phrases})


def corpus(sentences: Iterable[str]) -> list[list[str]]:
    """``sentences`` as word lists, the empty ones left out."""
    return [words for words in map(words_of, sentences) if words]
