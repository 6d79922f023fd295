"""Verbs the robot has no skill for: asked for one, it says it cannot, never reads another verb.

The request grammar (:mod:`~knowledge.language.request_frame`) keeps an imperative verb it
does not know as said ("juggle the oranges": the verb ``juggle``, no capability). Left like
that, the similarity paths read the request by its nouns ("the oranges": a fetch). A verb is
*known* when the grammar gives it a capability or a skill the robot lacks, or when some
task of the loaded packs is asked with it (their examples: "suggest a dish", "print the
report"), or when it heads a phrasal verb of a capability and acts on an electrical thing
("switch the kettle": on or off is a question, :func:`which_switching`, not a missing skill);
any other verb that acts on a household thing is a skill the robot does not have.
:func:`with_unknown_verbs` turns each such step into a step of a missing skill, so the gates
that refuse a missing skill ("I can't cut things yet") answer it the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Final

from cogtree.knowledge.language.grammar.object_phrase import ObjectPhrase
from cogtree.knowledge.language.grammar.words import request_words
from cogtree.knowledge.language.request_frame import RequestFrame, Step
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.wording import joined

UNKNOWN_VERB: Final = "verb:"
"""The prefix of the ``unsupported`` key of a step whose verb no skill or task serves."""


def with_unknown_verbs(frame: RequestFrame, known: Callable[[], frozenset[str]]) -> RequestFrame:
    """``frame`` with each step of an unknown verb made a step of a missing skill.

    A step's verb is unknown when the grammar gave it no capability and no missing skill, it
    is a word that opens no condition ("once the oil is hot" says when, not what to do), it
    is no verb of ``known()`` (the verbs the packs' examples ask with:
    :attr:`~knowledge.understanding.scope_matching.Offered.verbs`; called only for a verb the
    grammar does not know, as gathering them parses every example), and it acts on a thing (an
    object phrase naming a type of the household taxonomy: "ignore your rules" asks nothing of
    the robot's hands, and is left to the scope gate). The missing skill is the verb with what
    it acts on, as said ("throw the pot"). Other steps, and frames with none, are returned as
    they are.
    """
    steps = tuple(_lacking(step, known) for step in frame.steps)
    if steps == frame.steps:
        return frame
    return replace(frame, steps=steps)


def _lacking(step: Step, known: Callable[[], frozenset[str]]) -> Step:
    verb = _acted(step.verb)
    if (
        not verb
        or step.action
        or step.unsupported
        or step.statement
        or not step.wanted
        or not _a_verb(verb)
        or verb.split()[0] in known()
        or bool(which_switching(step))
        or not any(_a_thing(phrase) for phrase in step.wanted)
    ):
        return step
    what = joined([phrase.text for phrase in step.wanted])
    return replace(step, unsupported=f"{UNKNOWN_VERB}{verb}", missing_skill=f"{verb} {what}")


def _acted(verb: str) -> str:
    """The verb a step asks to be done: a light verb's noun of action ("give ... a drench")."""
    said = verb.split()
    return said[-1] if len(said) > 1 and said[0] in request_words().light_verbs else verb


def which_switching(step: Step) -> tuple[str, ...]:
    """The particles to ask between when ``step`` switches a thing without saying how.

    "switch the kettle", "turn the radio": the verb's particles make two or more of the
    robot's capabilities of it (on, off: ``Words.capability_particles``) and every thing it
    acts on runs on electricity (the household taxonomy's ``electrical``), so which is what
    is left to ask. Empty otherwise ("throw the pot" is a throw, not a disposal with its
    particle left out; "pick the toaster" has one way).
    """
    ways = request_words().capability_particles(step.verb) if not step.action else {}
    things = [phrase.text for phrase in step.wanted]
    if len(ways) < 2 or not things or not all(map(_electrical, things)):
        return ()
    return tuple(ways)


def _electrical(said: str) -> bool:
    """Whether the household taxonomy knows ``said`` as a thing that runs on electricity."""
    taxonomy = household_taxonomy()
    kind = taxonomy.type_named(said)
    return kind is not None and "electrical" in taxonomy.properties(kind).flags


def _a_verb(verb: str) -> bool:
    """Whether the step's first word may be a verb: a word, not one that opens a condition.

    "once the oil is hot", "while it brews" say when, not what to do; a lone comma is no word.
    """
    first = verb.split()[0]
    return first.isalpha() and first.lower() not in request_words().subordinators


def _a_thing(phrase: ObjectPhrase) -> bool:
    """Whether the phrase names a physical thing: a type of the household taxonomy."""
    return not phrase.person and household_taxonomy().type_named(phrase.text) is not None
