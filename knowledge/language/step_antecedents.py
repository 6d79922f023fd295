"""What "it" / "them" in a step of a request stands for: what the step before named.

A request of several steps names a thing once and then refers back to it ("take the mug and
put it in the sink"). :func:`with_antecedents` puts the thing named before in place of the
pronoun, as the step's object ("switch it on") or its landmark ("wipe the tray, then set the
cup on it"); :func:`folds_into_next` says when a step only picks up the thing the next step
is about ("grab the bowl and put the pear in it"): the next step's task reaches it anyway.

A thing may also be named first, as a clause of its own, and the request point back at it or
leave it out: "the crisp packets on his desk - bin them", "those soggy teabags on the saucer,
compost please". :func:`with_topic` gives a first step that names no thing that thing, when
the part of the frame's context clause after its last comma or dash is one noun phrase opened
by a determiner, with no verb in it ("the tea's gone cold, bin please" is a remark).

A request may also leave out what the one before said and only add to it: "bring the salt
to the table" - "and the pepper too", "his slippers too", "do Alfie's as well", "same
again". :func:`with_earlier_request` reads such a follow-up as the earlier request's action on
the things it names now, with the earlier places, people and tools.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

from cogtree.knowledge.language.closing_tags import clauses_with_marks
from cogtree.knowledge.language.grammar.object_phrase import ObjectPhrase
from cogtree.knowledge.language.grammar.words import request_words
from cogtree.knowledge.language.pronouns import OBJECT_OR_PERSON, PLURAL_PRONOUNS, THING_PRONOUNS
from cogtree.knowledge.language.request_frame import RequestFrame, Step
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.wording import ONES, PLACE_WORDS, POINTING, POSSESSIVES, singular
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas

REFERS_TO_CONTAINER: Final = frozenset(["switch_on", "switch_off", "open", "close"])
"""Actions whose "it" is the container the step before put a thing in ("...and switch it on")."""


def with_antecedents(steps: Sequence[Step]) -> list[Step]:
    """``steps`` with each "it" / "them" replaced by what the step before named.

    As the object ("switch it on") or as the landmark ("wipe the tray, then set the cup on
    it": the tray).
    """
    done: list[Step] = []
    for step in steps:
        named = _named_before(done[-1], step) if done and _refers_back(step) else ()
        if named:
            step = replace(step, objects=(*named, *step.excluded))
        elif done and step.landmark is not None and step.landmark.head in THING_PRONOUNS:
            before = [phrase for phrase in done[-1].wanted if not phrase.pronoun]
            if len(before) == 1:
                landmark = replace(before[0], preposition=step.landmark.preposition)
                step = replace(step, landmark=landmark)
        done.append(step)
    return done


def folds_into_next(step: Step, following: Step | None) -> bool:
    """Whether ``step`` only picks up a thing ``following`` is about ("take the mug and ...")."""
    return following is not None and _only_picks_up(step) and _about_before(following)


def _named_before(previous: Step, step: Step) -> tuple[ObjectPhrase, ...]:
    """What "it" (one thing) or "them" (all) in ``step`` stands for, from ``previous``."""
    objects = [_from_source(phrase, previous) for phrase in previous.wanted if not phrase.pronoun]
    landmark = [] if previous.landmark is None or previous.landmark.pronoun else [previous.landmark]
    into = previous.relation == "in" and step.action in REFERS_TO_CONTAINER
    ordered = [*landmark, *objects] if into else [*objects, *landmark]
    if not ordered:
        return ()
    plural = any(phrase.head in PLURAL_PRONOUNS for phrase in step.wanted)
    return tuple(objects) if plural and len(objects) > 1 and not into else (ordered[0],)


def _from_source(phrase: ObjectPhrase, step: Step) -> ObjectPhrase:
    """``phrase`` with the place ``step`` takes it from ("the roll out of the toaster")."""
    if step.source is None:
        return phrase
    where = f"{phrase.where} {step.source.preposition} {step.source.described}".strip()
    return replace(phrase, where=where)


def _refers_back(step: Step) -> bool:
    """The step's only object is a pronoun for a thing ("switch it on"), not a person.

    "them", "him", "her" may be either: after a step that named someone or something, it
    is what that step named ("pick up Leo and drop him in the bin": Leo, whom the safety
    rules then judge as a person to move).
    """
    wanted = step.wanted
    return bool(wanted) and all(
        phrase.pronoun and (not phrase.person or phrase.head in OBJECT_OR_PERSON)
        for phrase in wanted
    )


def _about_before(step: Step) -> bool:
    """The step's object or place is "it": what the step before named."""
    landmark = step.landmark
    return _refers_back(step) or (landmark is not None and landmark.head in THING_PRONOUNS)


def _only_picks_up(step: Step) -> bool:
    """A bring step that names a thing but no one, nowhere and no tool ("take the mug")."""
    return (
        step.action == "bring"
        and step.recipient is None
        and step.landmark is None
        and step.tool is None
        and any(not phrase.pronoun for phrase in step.wanted)
    )


def with_topic(frame: RequestFrame) -> RequestFrame:
    """``frame`` with its first step, when it names no thing, given the thing named before it.

    Only a first step with no object of its own ("compost please") or only a pronoun that
    points ("the book on the pile - could you bring that over?": the book, where it is, is
    what is brought; never "on the pile" as where it goes). A remark before "it" is no topic
    ("the mug isn't mine, bin it"), and a later step may point at the step before.
    """
    if not frame.steps or not frame.steps[0].action:
        return frame
    objects = frame.steps[0].objects
    pointing = len(objects) == 1 and objects[0].pronoun and objects[0].head in POINTING
    if objects and not (pointing and _only_pointer(frame.steps[0])):
        return frame
    step, lowered = frame.steps[0], frame.text.lower()
    at = lowered.find(step.text.lower())
    parts = [PART_END.split(clause) for clause in frame.context]
    before = [said for said in parts if 0 <= _found(lowered, said[-1]) < at]
    if not before or at < 0:
        return frame
    *earlier, last = before[-1]
    if earlier and _topic(earlier[-1].strip()) is not None:
        return frame  # "the mug, the plate, bin please": which is not one thing
    topic = _topic(last.strip())
    if topic is None:
        return frame
    if objects and (objects[0].head in PLURAL_PRONOUNS) != (singular(topic.head) != topic.head):
        return frame  # "the kettle, bin them": "them" is not the one thing said
    if objects and objects[0].person and not _a_lifeless_thing(topic):
        return frame  # "the kids, take them to school": "them" may be people
    return replace(frame, steps=(replace(step, objects=(topic,)), *frame.steps[1:]))


def _a_lifeless_thing(topic: ObjectPhrase) -> bool:
    """Whether ``topic`` names a type of thing that is not alive ("those old batteries")."""
    taxonomy = household_taxonomy()
    named = taxonomy.type_named(" ".join((*topic.modifiers, topic.head)))
    return named is not None and not taxonomy.alive(named)


PLACE_POINTED: Final = re.compile(
    r"\bthere\b|\b(?:in|on|into|onto|inside|under)\s+here\b"
    r"|\b(?:in|on|into|onto|down|inside|under)\W*(?:please|pls|thanks)?\W*$",
    re.IGNORECASE,
)
"""A place said by pointing or left unsaid ("put that over there", "chuck that in", "put it
down please"): the thing said before may be that place ("bring it here" is the speaker)."""


def _only_pointer(step: Step) -> bool:
    """Whether the step's one pronoun is its object, with no place pointed at.

    "the shelf - put this on it", "the fridge, put that in there": the thing said first may be
    where this goes.
    """
    pronouns = [phrase for phrase in step.phrases() if phrase.pronoun]
    return len(pronouns) == 1 and not PLACE_POINTED.search(step.text)


def _found(lowered: str, part: str) -> int:
    """Where ``part`` is said in ``lowered``; -1 when it is empty or not said."""
    return lowered.find(part.strip().lower()) if part.strip() else -1


PART_END: Final = re.compile(r"[,;:]|\s[-\u2013\u2014]\s")
"""What ends a part of a clause before a topic ("oh, and while you're up - those teabags");
a dash inside a word ("T-shirt") ends none."""

CONTRACTIONS: Final = ("'s", "n't", "'re", "'ll", "'ve", "'d", "'m")
"""Endings of a verb run into the word before it ("the tea's gone cold"): a clause."""

AUXILIARIES: Final = frozenset(
    ["is", "are", "was", "were", "am", "be", "been", "has", "have", "had", "do", "does", "did",
     "can", "could", "will", "would", "shall", "should", "may", "might", "must"]
)  # fmt: skip
"""Verbs of being and having and the modals: a clause, however its other words read."""

JOINING: Final = frozenset(["and", "or", "but", "of"])
"""Words that join two things or clauses, or a thing to what it is of: no one plain noun
phrase ("the stove smells of gas" is a remark)."""


def _topic(said: str) -> ObjectPhrase | None:
    """``said`` as one noun phrase with a determiner and where it is, or None.

    Every word but its determiners and place words is a noun or an adjective, none a verb of
    being, having or a modal ("the pills are nana's"), none only a verb's inflected form ("the
    glass broke"), none run into a verb ("isn't"); nothing is "of" anything.
    """
    words = said.split()
    lowered = [word.lower() for word in words]
    opening = request_words().determiners | POSSESSIVES | POINTING
    if len(words) < 2 or lowered[0] not in opening or (JOINING | AUXILIARIES) & set(lowered):
        return None
    place = next((at for at in range(2, len(words)) if lowered[at] in PLACE_WORDS), len(words))
    told = [word for word in lowered[1:] if word not in opening | PLACE_WORDS]
    if not all(map(_naming_word, told)):
        return None
    return ObjectPhrase(
        text=" ".join(words[:place]),
        head=lowered[place - 1],
        modifiers=tuple(lowered[1 : place - 1]),
        determiner=lowered[0],
        where=" ".join(words[place:]),
    )


def _naming_word(word: str) -> bool:
    """Whether ``word`` may name or describe a thing: a noun or an adjective."""
    lemmas = shipped_lemmas()
    if lemmas is None or word.endswith(CONTRACTIONS):
        return False
    noun = lemmas.lemma_of(word, "noun")
    if lemmas.lemma_of(word, "verb") not in (None, word):
        return noun is not None  # "spilled", "broke": a verb said of it; "crusts" a noun
    return bool(noun or lemmas.lemma_of(word, "adj"))


ADDING: Final = (("as", "well"), ("too",), ("also",), ("again",))
"""Words that say a request adds to the one before ("the pepper too", "same again")."""
ADDING_OPENERS: Final = frozenset(["and", "also", "plus"])
"""Words that open an addition ("and the one in the hall"), beside the grammar's openers."""
PRO_VERB: Final = "do"
"""The verb that stands for the earlier one ("do Alfie's as well")."""
SAME: Final = re.compile(r"^(?:the )?same(?: thing)?(?: (?:for|with) (?P<thing>.+))?$")
"""What repeats the earlier request: whole ("same again"), or on a thing ("the same for X")."""
STOPPING: Final = frozenset(["stop", "cancel", "forget", "wait", "hang", "hold", "nope", "nah"])
"""Words that call a request off ("same again? no, forget it"): no follow-up is read, nor
beside a "not" of any verb ("I don't want it")."""
CHANGING: Final = frozenset(["but", "or", "except", "instead", "only", "if", "unless", "when",
                             "and", "as", "plus"])  # fmt: skip
"""Words opening another part that changes or adds to what is added ("the same, but the green
one", "..., if it's ripe", "..., as well as the jam"): no follow-up is read."""


def with_earlier_request(
    frame: RequestFrame, earlier: RequestFrame | None, read: Callable[[str], RequestFrame]
) -> RequestFrame:
    """``frame`` as ``earlier``'s action on the things it names, when it only adds to it.

    It does when it asks for no action of its own (no step, or only a thing said alone), one
    part of it says it adds (:func:`_added`: "too", "as well", "also", "again", or opens with
    "and" but asks nothing) and names things (read by ``read``, the request parser) or says
    "same": "same again" is ``earlier``'s steps whole, "the same for X" its first step on X.
    Else ``earlier`` must act on one thing in its first step, which the new ones replace ("the
    one in the hall": the one is a lamp, as before; "do Alfie's": Alfie's, of the same kind).
    Places, people and tools stay as they were said, a place of the thing's own ("the one on
    the counter") replacing where it came from. ``said_before`` holds what the follow-up is
    read as (the earlier request, or its step said of the new things), so those words are
    said; nothing more. A follow-up that says no, calls something off or asks a question
    anywhere is left as it is, as is anything else: ``frame`` unchanged.
    """
    if earlier is None or not earlier.steps or not earlier.steps[0].action:
        return frame
    own = [step for step in frame.steps if not step.bare and step.verb != PRO_VERB]
    said = _added(frame.text) if not own else None
    if said is None:
        return frame
    same = SAME.match(said.lower())
    if same is not None and same.group("thing") is None:
        return replace(frame, steps=earlier.steps, said_before=(*earlier.said_before, earlier.text))
    first = earlier.steps[0]
    before = [phrase for phrase in first.wanted if not phrase.pronoun and not phrase.person]
    things = _things_added(said[same.start("thing") :] if same else said, before, read)
    if len(before) != 1 or not things or before[0].text not in first.text:
        return frame
    now = " and ".join(thing.described for thing in things)
    source = None if any(thing.where for thing in things) else first.source  # its own place
    text = _without(_without(first.text, before[0].where), _role_said(first.source, source))
    people = tuple(phrase for phrase in first.wanted if phrase.person)  # "take Dad his ..."
    step = replace(first, text=text.replace(before[0].text, now, 1), source=source)
    step = replace(step, objects=(*people, *things))
    return replace(frame, steps=(step, *earlier.steps[1:]), said_before=(step.text,))


def _without(text: str, words: str) -> str:
    """``text`` without ``words`` (none: as it is)."""
    return text.replace(f" {words}", "", 1) if words else text


def _role_said(phrase: ObjectPhrase | None, kept: ObjectPhrase | None) -> str:
    """How ``phrase`` was said with its preposition, when it is not ``kept``; else ""."""
    return f"{phrase.preposition} {phrase.described}" if phrase and phrase is not kept else ""


def _added(text: str) -> str | None:
    """What the part of ``text`` that adds names, its adding words left out; else None.

    Other parts may only thank or remark ("Ta.", "his feet get cold out there"): none may say
    no or call it off, and none but the adding part may ask; a part opened with "and" and no
    adding word adds only when it asks nothing ("and the remote?" may be a question).
    """
    lexicon = request_words()
    lowered = [word.strip(".,!?;:-") for word in text.lower().split()]
    if any((w,) in lexicon.negations or w in STOPPING or w.endswith("n't") for w in lowered):
        return None
    found: str | None = None
    for part, mark in clauses_with_marks(text):  # "Ta. And the pepper too.": two parts
        asked, words = "?" in mark, part.split()
        first = words[0].lower() if words else ""
        opened = first in ADDING_OPENERS
        while words and (
            (words[0].lower(),) in lexicon.openers or words[0].lower() in ADDING_OPENERS
        ):
            words = words[1:]
        while words and (words[-1].lower(),) in lexicon.tags:  # "..., please", "ta"
            words = words[:-1]
        tail = tuple(word.lower() for word in words)
        ending = next((end for end in ADDING if tail[-len(end) :] == end), ())
        words = words[: len(words) - len(ending)]
        rest = " ".join(words[1:]).lower()
        if words[:1] and words[0].lower() == PRO_VERB and (SAME.match(rest) or _owner(rest)):
            words = words[1:]  # "do the same for X", "do Alfie's": not "do the washing up"
        repeats = SAME.match(" ".join(words).lower()) is not None
        inside = {word.lower() for word in words} & {end[-1] for end in ADDING}  # "too in an hour"
        adds = bool(words) and not inside and (bool(ending) or repeats or (opened and not asked))
        if adds and found is None:
            found = " ".join(words)
        elif asked or first in CHANGING or (words and words[0].lower() in CHANGING):
            return None  # "and the tangerine, is it ripe?", "the same, but the green one"
    return found


def _things_added(
    said: str, before: list[ObjectPhrase], read: Callable[[str], RequestFrame]
) -> tuple[ObjectPhrase, ...]:
    """The things ``said`` names, "one" of ``before``'s kind; an owner alone names their own."""
    if len(before) != 1:
        return ()
    kind = before[0].head
    if _owner(said):  # "Alfie's": Alfie's, as before
        return (ObjectPhrase(text=said, head=kind, modifiers=(said,)),)
    steps = read(said).steps
    if len(steps) != 1 or not steps[0].bare:
        return ()
    covered = {word.lower() for phrase in steps[0].objects for word in phrase.described.split()}
    if {word.lower() for word in said.split()} - covered:
        return ()  # "one for Dad": words no thing holds say more than a new thing
    return tuple(
        _of_kind(phrase, kind) if _one(phrase) else phrase
        for phrase in steps[0].objects
        if not phrase.pronoun or _one(phrase)
    )


def _owner(said: str) -> bool:
    """Whether ``said`` is an owner alone ("Alfie's")."""
    return re.fullmatch(r"\w+'s", said) is not None


def _of_kind(phrase: ObjectPhrase, head: str) -> ObjectPhrase:
    """The phrase "the one" as "the lamp", when the kind named before is a lamp."""
    text = re.sub(r"\bones?\b", head, phrase.text, count=1)
    return replace(phrase, text=text, head=head, quantity="", pronoun=False)


def _one(phrase: ObjectPhrase) -> bool:
    """Whether the phrase is "one" / "ones", of the kind named before ("the one in the hall")."""
    return phrase.pronoun and ONES & {phrase.head, phrase.quantity} != set()
