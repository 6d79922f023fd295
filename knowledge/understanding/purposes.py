"""A thing asked for by what it is for: "I need something to open this wine".

The grammar reads "to open this wine" after "something" as a clause of its own (a purpose:
why), which would make the request one to open the wine. When what comes before it asks for
an indefinite thing ("I need something", "could you get me something", "bring me something"),
the clause describes that thing instead: the request is to bring something whose use fits
(referent resolution reads "something to open" through the taxonomy's ``cog:usedFor``: a
corkscrew). The indefinite is then no pronoun: its purpose names the thing (also where the
grammar kept the purpose with it: "fetch me something to open the bottle with"). A
question of having that is for the speaker ("do you have a plum for me", "have you got some
fruit I could eat") asks for the thing too: bring it.
:func:`with_purposes` rewrites the frame so, once, when it is parsed.
"""

from __future__ import annotations

import re
from dataclasses import replace

from cogtree.knowledge.language.closing_tags import as_read
from cogtree.knowledge.language.grammar.object_phrase import SPEAKER, ObjectPhrase
from cogtree.knowledge.language.grammar.words import ACTIONS, request_words, says_no
from cogtree.knowledge.language.request_frame import RequestFrame, Step

BRING = "bring"
"""The capability a thing asked for is brought by."""

HAVING = "have"
"""The capability of a question of having ("do you have", "is there")."""

FIND = "find"
"""The capability of finding a thing ("find me something to put them in")."""

SPEAKER_SUBJECT = "i"
"""The speaker as a clause's subject ("some fruit I could eat": the speaker would have it)."""


def with_purposes(frame: RequestFrame) -> RequestFrame:
    """``frame`` with an indefinite thing's purpose clause read as part of the thing."""
    steps = list(frame.steps)
    context = list(frame.context)
    if steps and steps[0].purpose and context and _asks_for_a_thing(context[-1]):
        asked = context.pop()
        steps[0] = _bring(asked, steps[0])
    for index in range(len(steps) - 1):
        step, following = steps[index], steps[index + 1]
        if following.purpose and step.action == BRING and _only_indefinite(step):
            steps[index : index + 2] = [_described_by(step, following)]
            break
    steps = _told_by_use(frame.text, [_named_by_use(_asked_to_have(step)) for step in steps])
    if steps and not frame.steps:  # the clause of the thing told by its use is no context
        told = _words(steps[0].text)
        context = [clause for clause in context if told not in _words(clause)]
    if steps == list(frame.steps):
        return frame
    return replace(frame, steps=tuple(steps), context=tuple(context))


USE_CLAUSE = re.compile(
    r"\b(?:some|any|no)thing(?:\s+(?!to\b)[a-z]+){0,2}?\s+(?:to|(?:i|we|you)\s+(?:can|could))\s+"
    r"[a-z][a-z' ]*?"
    r"(?=\s*(?:[,.;:!?]|$|\b(?:before|so|because|while|since|as|when|if)\b))",
    re.IGNORECASE,
)
"""An indefinite thing, what it is like ("something warm"), and the clause that says what it is
for, to where the clause ends."""


ASKING_FOR_A_THING = frozenset([BRING, HAVING, FIND])
"""What a step around a thing told by its use may ask: to bring it, whether there is one, or
to find one; each asks for the thing (as does no step at all: "anything I can see with?")."""


def _told_by_use(text: str, steps: list[Step]) -> list[Step]:
    """A request for a thing told by its use, however the grammar split its clause.

    "pass us something to write with before I forget this number", "hand me something to
    wipe them on", "have we got anything I can open this wine with?", "find me something to
    put them in", "got anything to pull it out with?", "get me something to wedge it open":
    the request is to bring the speaker the thing the whole clause describes, its purpose's
    object and particle included (referent resolution reads them). What the step that holds
    the clause asks is read from its words before it (:func:`_read_before`: "wedge it open"
    opens nothing). Only a request whose other steps ask for a thing
    (:data:`ASKING_FOR_A_THING`; :func:`_asks`), at most one, or name no action ("my fingers
    are sticky") is read so; with no such step, only a clause asked bare ("anything I can see
    with?", "got anything to ...?"). A clause that says the thing is lacking ("nothing to
    stir it with") describes the bare indefinite a request asks for ("could you fetch me
    something"). Never when a negation comes before it ("I don't need anything to cut with"),
    nor when the thing is for someone else ("find Tom something to cut with",
    "... for Tom"): who gets it is then not the speaker's to guess.
    """
    said = as_read(text)
    clause = USE_CLAUSE.search(said)
    if clause is None or _destination(clause.group(0)) or says_no(said[: clause.start()]):
        return steps
    described = clause.group(0).lower()
    indefinite = described.split()[0]
    lacking = indefinite not in request_words().indefinites  # "nothing to stir it with"
    around = [_read_before(s, described) for s in steps if s.text.lower() not in described]
    asking = [s for s in around if described in s.text.lower() or _asks(s)]
    if len(asking) > 1 or any(step.action not in ASKING_FOR_A_THING for step in asking):
        return steps
    if (not asking and (lacking or not _asked_bare(said[: clause.start()]))) or (
        "for" in described.split()
    ):
        return steps
    if asking and any(_someone_else(phrase, described) for phrase in asking[0].objects):
        return steps
    if lacking and not (asking and asking[0].action == BRING and _only_indefinite(asking[0])):
        return steps
    thing = ObjectPhrase(text=clause.group(0), head=indefinite)
    me = ObjectPhrase(text="me", head="me", pronoun=True, person=SPEAKER)
    step = asking[0] if asking else Step(text=clause.group(0))
    said_before = text[: clause.start()]
    tool = step.tool if step.tool is not None and step.tool.text in said_before else None
    recipient = step.recipient if step.action == BRING and step.recipient else me
    return [
        replace(step, verb=BRING, action=BRING, objects=(thing,), tool=tool, recipient=recipient)
    ]


def _read_before(step: Step, described: str) -> Step:
    """``step`` asking what its words before the clause ``described`` ask, when it holds it.

    The clause describes a thing; its words ask nothing: "get me something to wedge it open"
    asks to be brought something (what "get me" asks), not to open anything.
    """
    text = step.text.lower()
    if described not in text or step.action in ASKING_FOR_A_THING:
        return step
    before = tuple(_words(text[: text.index(described)]).split())
    words = request_words()
    while before and before[-1] in words.speaker:
        before = before[:-1]
    asked = next((key for at in range(len(before)) if (key := _action(before[at:]))), None)
    return replace(step, action=asked) if asked in ASKING_FOR_A_THING else step


def _action(verb: tuple[str, ...]) -> str | None:
    """The capability the words ``verb`` name as a verb ("get": bring), if any."""
    kind, key = request_words().verbs.get(verb, ("", ""))
    return key if kind == ACTIONS else None


def _asks(step: Step) -> bool:
    """Whether ``step`` asks for something to be done.

    Not a want that names no thing ("I'd like to see if it fits"), nor a clause that says what
    another is for ("to check the shelf is level").
    """
    if step.purpose or (step.action == BRING and not step.objects):
        return False
    return bool(step.action or step.unsupported)


def _asked_bare(before: str) -> bool:
    """Whether a thing told by its use is asked alone ("anything I can see with?").

    Nothing may come before it in its clause but a word of having ("got anything to ...?").
    """
    opening = tuple(_words(re.split(r"[,.;:!?]", before)[-1]).split())
    return (
        not opening
        or opening == ("got",)
        or request_words().verbs.get(opening)
        == (
            ACTIONS,
            HAVING,
        )
    )


def _someone_else(phrase: ObjectPhrase, described: str) -> bool:
    """Whether ``phrase`` is someone other than the speaker, outside the thing's clause.

    "find Tom something to cut with": Tom gets it, and the speaker may not say for him.
    """
    inside = phrase.text.lower() in described or phrase.text.lower() in request_words().indefinites
    return not inside and phrase.person != SPEAKER


def _destination(clause: str) -> bool:
    """Whether "to" opens a place, not a use ("something to my profile": a determiner)."""
    words = clause.lower().split()
    after = words[words.index("to") + 1 : words.index("to") + 2] if "to" in words else []
    return bool(after) and after[0] in request_words().determiners


def _words(text: str) -> str:
    """``text``'s words, lower case, one space apart (no punctuation)."""
    return " ".join(re.findall(r"[a-z0-9']+", text.lower()))


def _asks_for_a_thing(clause: str) -> bool:
    """A clause that wants a thing it does not name ("I need something")."""
    words = request_words()
    said = tuple(clause.lower().split())
    if not said or said[-1] not in words.indefinites:
        return False
    asked = said[:-1]
    return any(asked[-len(want) :] == want for want in words.wants) or _bring_verb(asked)


def _bring_verb(said: tuple[str, ...]) -> bool:
    """A verb of bringing to the speaker ("could you get me", "bring me")."""
    words = request_words()
    if not said or said[-1] not in words.speaker:
        return False
    return any(
        kind == ACTIONS and key == BRING and said[-1 - len(verb) : -1] == verb
        for verb, (kind, key) in words.verbs.items()
    )


def _only_indefinite(step: Step) -> bool:
    wanted = step.wanted
    return len(wanted) == 1 and wanted[0].head in request_words().indefinites


def _bring(asked: str, purpose: Step) -> Step:
    """The thing ``asked`` for, described by what ``purpose`` says it is for."""
    indefinite = asked.split()[-1]
    thing = ObjectPhrase(text=indefinite, head=indefinite, where=f"to {purpose.text}")
    me = ObjectPhrase(text="me", head="me", pronoun=True, person=SPEAKER)
    return Step(
        text=f"{asked} to {purpose.text}", verb=BRING, action=BRING, objects=(thing,), recipient=me
    )


def _asked_to_have(step: Step) -> Step:
    """A question of having that is for the speaker asks to be given the thing.

    "do you have a plum for me" names the speaker as who gets it; "have you got some fruit
    I could eat" says what the speaker would do with it: both ask to bring it (the thing
    without the clause about the speaker). Other questions of having stay questions.
    """
    if step.action != HAVING or len(step.wanted) != 1:
        return step
    phrase = step.wanted[0]
    relative = phrase.relative.lower().split()
    by_speaker = SPEAKER_SUBJECT in relative[:2]  # "I could eat", "that I like"
    for_speaker = step.recipient is not None and step.recipient.person == SPEAKER
    if not (for_speaker or by_speaker):
        return step
    me = step.recipient or ObjectPhrase(text="me", head="me", pronoun=True, person=SPEAKER)
    return replace(step, verb=BRING, action=BRING, objects=(phrase,), recipient=me)


def _named_by_use(step: Step) -> Step:
    """An indefinite the grammar kept with its purpose: a thing, no pronoun."""
    objects = tuple(
        replace(phrase, pronoun=False)
        if phrase.pronoun
        and phrase.head in request_words().indefinites
        and phrase.where.startswith("to ")
        else phrase
        for phrase in step.objects
    )
    return replace(step, objects=objects) if objects != step.objects else step


def _described_by(step: Step, purpose: Step) -> Step:
    thing = step.wanted[0]
    where = f"{thing.where} to {purpose.text}".strip()
    return replace(
        step,
        text=f"{step.text} to {purpose.text}",
        objects=(replace(thing, where=where, pronoun=False),),
    )
