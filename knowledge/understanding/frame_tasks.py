"""From a request frame to the tasks of a domain pack, with their slots filled from the frame.

A step of a :class:`~knowledge.language.request_frame.RequestFrame` asks for a capability ("bring",
"place", "dispose", ...). The lexicon of the frame grammar lists, per capability, the
task-level names that serve it; a pack task serves a capability when its plan template's task
(or, for a task without a plan, its own name in snake case: ``WhereIs`` -> ``where_is``) is
one of them. :func:`pack_actions` lists what a pack can do; :func:`step_task` picks the pack
task that holds every phrase of a step and fills its slots by role:

- the object phrase(s) go to the task's first slot that names no other role (``object``,
  ``item``, ``container``, ``room``...; else its ``source`` slot, what a pour pours), with
  the place it was said to be in or come from ("the bottle from the fridge");
- the landmark goes to a destination slot (``destination``, ``landmark``, ``target``,
  ``place``...); a relation other than on / in / to needs a ``relation`` slot;
- a recipient goes to a recipient slot (``recipient``, ``person``), else to the destination;
  the speaker ("me") is served by a plan that acts for ``$speaker``;
- a tool goes to a ``tool`` slot; a source to a ``source`` slot, else it stays with the
  object phrase.

A task that cannot hold a phrase the user said is not picked: a said word is never dropped.
Slot values are words the user said, contiguous: the guards' grounding check holds them.

A frame of several steps becomes tasks as far as its steps do (:func:`doable_tasks`), in
order, "it" / "them" standing for a thing the step before named ("take the mug and put it in
the sink"); a bare pick-up whose object the next step refers back to is folded into it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from cogtree.knowledge.language.grammar.object_phrase import SPEAKER, ObjectPhrase
from cogtree.knowledge.language.grammar.question_clauses import asked_about
from cogtree.knowledge.language.grammar.words import request_words
from cogtree.knowledge.language.missing_steps import leaves_running
from cogtree.knowledge.language.pronouns import (
    PLURAL_PRONOUNS,
    PRONOUN_VALUES,
    TalkedAbout,
    antecedent,
    context_referent,
    plural_referent,
)
from cogtree.knowledge.language.request_frame import (
    RequestFrame,
    Step,
)
from cogtree.knowledge.language.step_antecedents import folds_into_next, with_antecedents
from cogtree.knowledge.packs.domain_pack import SPEAKER_ARGUMENT, DomainPack, SlotSpec, TaskSpec
from cogtree.knowledge.packs.slot_roles import (
    RECIPIENT_SLOTS,
    RELATION_SLOTS,
    SOURCE_SLOTS,
    TOOL_SLOTS,
    first_slot,
    theme_and_destination,
)
from cogtree.knowledge.packs.task_schema import required_slots
from cogtree.knowledge.understanding.contents import TAP_LIQUID, filled_from, water_as_fill
from cogtree.knowledge.understanding.lexicon import Lexicon
from cogtree.knowledge.understanding.slot_filling import SlotValue, is_grounded

PLAIN_RELATIONS: Final = frozenset(["", "to", "on", "in"])
"""Relations a destination slot holds alone (PLACE picks on or in by the target's kind)."""


def task_key(task: TaskSpec) -> str:
    """The task-level name of a pack task: its plan's task, else its name in snake case."""
    if task.plan is not None:
        return task.plan.task
    return re.sub(r"(?<!^)(?=[A-Z])", "_", task.name).lower()


def pack_actions(pack: DomainPack) -> frozenset[str]:
    """The capabilities some task of ``pack`` serves."""
    keys = {task_key(task) for task in pack.tasks}
    return frozenset(action for action, tasks in request_words().tasks.items() if keys & set(tasks))


@dataclass(frozen=True)
class StepTask:
    """A pack task for one step of a frame, with the slots the step fills and why."""

    task: str
    slots: dict[str, SlotValue] = field(default_factory=dict)
    missing: tuple[str, ...] = ()
    reason: str = ""
    said: str = ""
    """The clause of the request the step was read from ("switch it on")."""
    said_before: tuple[str, ...] = ()
    """Earlier utterances some slot's words come from ("it": what was talked about before)."""

    @property
    def complete(self) -> bool:
        """Every required slot of the task has a value from the step."""
        return not self.missing


def frame_tasks(frame: RequestFrame, pack: DomainPack, utterance: str) -> list[StepTask | None]:
    """The task of ``pack`` for each step of ``frame`` (None where no task holds the step)."""
    return [step_task(step, pack, utterance) for step in frame.steps]


def holds_every_step(frame: RequestFrame, pack: DomainPack, utterance: str) -> bool:
    """Whether a task of ``pack`` holds each step of ``frame`` whole.

    Every required slot filled from the words ("set the board down on the stove": Bring).
    """
    found = frame_tasks(frame, pack, utterance)
    return bool(found) and all(task is not None and task.complete for task in found)


def step_task(step: Step, pack: DomainPack, utterance: str) -> StepTask | None:
    """The task of ``pack`` that holds every phrase of ``step``, its slots filled; else None.

    Among the tasks serving the step's capability, a complete one (every required slot
    filled) wins over an incomplete one, then the one earlier in the capability's list.
    """
    if not step.action:
        return None
    step = source_as_object(back_to_a_place(filled_from(water_as_fill(step))))
    wanted = request_words().tasks.get(step.action, ())
    found: list[tuple[int, int, StepTask]] = []
    for index, task in enumerate(pack.tasks):
        key = task_key(task)
        if key not in wanted:
            continue
        filled = _fill(step, task, pack, utterance)
        if filled is not None:
            found.append((len(filled.missing), wanted.index(key) * 100 + index, filled))
    if not found:
        return None
    best = min(found, key=lambda item: (item[0], item[1]))[2]
    return replace(best, said=LINKING_WORDS.sub("", step.text).strip())


LINKING_WORDS: Final = re.compile(
    r"^(?:\s*(?:,|and|then|after that|afterwards|finally|next)\b)+|(?:\s*(?:,|and|then)\s*)+$",
    re.IGNORECASE,
)
"""Words that join a clause to its neighbours ("and", "then"), not part of what it asks."""


def back_to_a_place(step: Step) -> Step:
    """Putting a thing back on or in a place said is placing it there.

    "put the jam back in the larder" places the jam in the larder. Putting away with no place
    said is the home place's task; any other step is returned as it is.
    """
    if step.action != "put_away" or step.landmark is None or step.landmark.pronoun:
        return step
    if step.relation not in ("", "in", "on", "to"):
        return step
    return replace(step, action="place")


def source_as_object(step: Step) -> Step:
    """An ``acts_on_source`` step acts on what a thing is said to come off ("X off the door")."""
    source, acts = step.source, step.action in request_words().acts_on_source
    if acts and source is not None and source.preposition in ("off", "off of"):
        return replace(step, objects=(source,), source=None)
    return step


@dataclass(frozen=True)
class DoneInPart:
    """The tasks of a request's steps up to the first step no task holds, and what was left.

    ``left``: the clauses of that step and every step after it, as said; ``why``: why that
    step is no task, for the user ("I could not tell where to put it").
    """

    tasks: list[StepTask]
    left: list[str] = field(default_factory=list)
    why: str = ""


def doable_tasks(
    frame: RequestFrame,
    pack: DomainPack,
    utterance: str,
    known: Callable[[str], bool] | None = None,
    earlier: TalkedAbout | None = None,
) -> DoneInPart:
    """The tasks of ``pack`` for the steps of ``frame``, in order, up to one that has none.

    A step that says only "it" / "them" is about what the step before it named: its object
    ("take the mug and put it in the sink"), or the container it put something in when the
    step opens, closes or switches ("put the tray in the microwave and start it"). A step
    that only picks a thing up ("take the mug"), followed by a step about it (as its object
    or its place: "grab the bowl and put the pear in it"), is folded into that step, whose
    task reaches the thing anyway. A step about several things that no task holds at once
    ("put the milk and the juice in the fridge") is one task per thing, when ``known`` says
    each is a thing the robot knows (:func:`one_per_thing`). "It" that no step before names
    is what the previous turn talked about (``earlier``, :func:`with_referent`). The same
    task twice in a row is one. A step whose task the frame leaves incomplete is no task: it
    and every step after it are left (a later step may need what it would have done), and so
    is everything when a step before it powers or heats something
    (:func:`~knowledge.language.missing_steps.leaves_running`). A step whose task is filled
    with a bare pronoun ("hand it to him") leaves the whole request to the other paths, which
    read the pronoun against the whole utterance ("Mr Okafor's pill organiser ... to him").
    A step that says what another is for ("to clean the leaves") leaves the whole request.
    """
    if any(step.purpose for step in frame.steps):
        return DoneInPart([], [step.text for step in frame.steps], "")
    steps = with_antecedents([water_as_fill(step) for step in frame.steps])
    tasks: list[StepTask] = []
    for index, whole in enumerate(steps):
        if folds_into_next(whole, frame.steps[index + 1] if index + 1 < len(steps) else None):
            continue
        before = len(tasks)  # a clause is done whole or left whole
        for step in one_per_thing(whole, pack, utterance, known):
            unplaced = step.action == "place" and step.landmark is None  # "place a slice inside"
            found = None if unplaced else step_task(step, pack, utterance)
            if found is not None:  # "it" that no step before names: the last turn's
                found = with_referent(found, step, pack, earlier=earlier)
            if found is not None and found.complete and _pronoun_value(found):
                return DoneInPart([], [each.text for each in frame.steps], _why_not(step, found))
            if found is None or not found.complete:
                done = [] if any(map(leaves_running, steps[:index])) else tasks[:before]
                left = [LINKING_WORDS.sub("", later.text).strip() for later in frame.steps[index:]]
                return DoneInPart(done, left, _why_not(step, found))
            if tasks and _carried_further(tasks[-1], found):
                said = f"{tasks[-1].said} and {found.said}"
                tasks[-1] = replace(found, said=said)  # "take it to my room and put it on the bed"
            elif not tasks or (tasks[-1].task, tasks[-1].slots) != (found.task, found.slots):
                tasks.append(found)  # "I need the knife, pass it to me": one task, not two
    return DoneInPart(tasks)


def _why_not(step: Step, found: StepTask | None) -> str:
    """Why ``step`` is no task, for the user: what it could not tell, or do."""
    if step.action == "place" and step.landmark is None:
        return "I could not tell where to put it"
    if found is None:
        return "I don't know how to do that" if step.action else "I could not tell what to do"
    if found.missing:
        return f"I could not tell the {' or '.join(found.missing)}"
    return "I could not tell who or what it means"


def one_per_thing(
    step: Step, pack: DomainPack, utterance: str, known: Callable[[str], bool] | None
) -> list[Step]:
    """``step`` as one step per thing it names, when no task of ``pack`` holds them at once.

    "put the milk and the juice in the fridge": two puts, one thing each. Only when every thing
    is one the robot knows (``known`` of its words; None: never split): a thing it has not
    seen is the planner's to look for, so the request stays whole. Alternatives ("the cola or
    the ginger ale") are one choice, not several things, and stay whole; so does a step a
    task holds whole (a slot that takes several things).
    """
    wanted = step.wanted
    if (
        known is None
        or len(wanted) < 2
        or any(phrase.pronoun or phrase.alternative for phrase in wanted)
        or not all(known(phrase.text) for phrase in wanted)
    ):
        return [step]
    whole = step_task(step, pack, utterance)
    if whole is not None and whole.complete:
        return [step]
    return [
        replace(step, objects=(phrase, *step.excluded), text=f"{step.text.strip()}: {phrase.text}")
        for phrase in wanted
    ]


def _carried_further(before: StepTask, after: StepTask) -> bool:
    """Whether ``after`` takes the thing ``before`` moves on to another place, with nothing between.

    "take the bottle to my bedroom and put it on the bed": the bed is where it goes; the room
    on the way is no task of its own.
    """
    thing = before.slots.get("object")
    return (
        before.task == after.task
        and thing is not None
        and after.slots.get("object") == thing
        and "destination" in before.slots
        and "destination" in after.slots
    )


def _pronoun_value(found: StepTask) -> bool:
    """Whether a slot holds only a pronoun ("to him") or a thing of one ("its contents").

    Who or what that is, the frame cannot say.
    """
    values = [value.lower().split() for value in found.slots.values() if isinstance(value, str)]
    return any(
        words and (" ".join(words) in PRONOUN_VALUES or words[0] in ("its", "their"))
        for words in values
    )


def _fill(step: Step, task: TaskSpec, pack: DomainPack, utterance: str) -> StepTask | None:
    """The slots of ``task`` from ``step``, or None when the task cannot hold a phrase."""
    fields = list(pack.schema_for(task.name).model_fields)
    required = [
        name for name, info in pack.schema_for(task.name).model_fields.items() if info.is_required()
    ]
    slots: dict[str, SlotValue] = {}
    acts_for_speaker = task.plan is not None and SPEAKER_ARGUMENT in task.plan.args.values()
    theme, destination = theme_and_destination(fields, source_said=step.source is not None)
    recipient_slot = first_slot(fields, RECIPIENT_SLOTS)
    objects = [phrase for phrase in asked_about(step.wanted) if not phrase.pronoun]
    if objects and theme is None and step.source is not None and first_slot(fields, SOURCE_SLOTS):
        objects = []  # "pour some water from the jug": what is poured is what the source holds
    if step.excluded:
        # "the cola, not the ginger ale": the scene's referent resolution drops what is excluded
        theme_spec = task.slots.get(theme) if theme is not None else None
        folded = _with_exclusions(objects, step.excluded, utterance)
        if theme is None or theme_spec is None or theme_spec.resolve != "scene":
            return None
        if folded is None or theme_spec.many:
            return None
        slots[theme] = folded
    elif objects:
        if theme is None:
            return None
        many = _many(task.slots.get(theme))
        if len(objects) > 1 and not many:
            return None
        values = [_object_value(phrase, step, fields, utterance) for phrase in objects]
        if any(value is None for value in values):
            return None
        slots[theme] = [str(v) for v in values] if many else values[0]
    relation_slot = first_slot(fields, RELATION_SLOTS)
    if step.landmark is not None and (
        destination is None
        or (step.relation not in PLAIN_RELATIONS and not relation_slot)
        or (step.relation in PLAIN_RELATIONS and relation_slot in required)
    ):
        return None  # on / in / to go to a plain destination, not to a relative placement
    if step.landmark is not None and destination and not step.landmark.pronoun:
        value = _said(utterance, step.landmark.described, step.landmark.text)
        if value is None:
            return None
        slots[destination] = value
        if relation_slot and step.relation not in ("", "to"):
            preposition = _said(utterance, step.landmark.preposition)
            if preposition is None:
                return None
            slots[relation_slot] = preposition
    if (
        step.landmark is None
        and destination
        and request_words().names_destination(step.verb, step.action)
    ):
        value = _said(utterance, step.verb)
        if value is not None:
            slots[destination] = value  # "microwave the tray": in the microwave
    if step.recipient is not None and not _for_the_speaker(step):
        if step.recipient.person == SPEAKER:
            if not acts_for_speaker and recipient_slot is None:
                return None
        else:
            slot = recipient_slot or destination
            if slot is None or slot in slots:
                return None
            value = _said(utterance, step.recipient.text)
            if value is None:
                return None
            slots[slot] = value
    if (tool := _tool(step)) is not None:
        tool_slot = first_slot(fields, TOOL_SLOTS)
        value = _said(utterance, tool.described, tool.text)
        if tool_slot is None or value is None:
            return None
        slots[tool_slot] = value
    if step.source is not None and first_slot(fields, SOURCE_SLOTS):
        value = _said(utterance, step.source.described, step.source.text)
        if value is not None:
            slots[str(first_slot(fields, SOURCE_SLOTS))] = value
    missing = tuple(name for name in required if name not in slots)
    if step.action == PLACING and step.landmark is None:
        # "put the cards" says no place: a task with a destination asks where, never brings
        if destination is None:
            return None
        if destination not in slots and destination not in missing:
            missing += (destination,)
    held = ", ".join(f"{name}={value!r}" for name, value in slots.items())
    reason = f"the frame's {step.action} ({step.verb!r}) is {task.name}({held})"
    return StepTask(task=task.name, slots=slots, missing=missing, reason=reason)


PLACING: Final = "place"
"""The capability of put / place / move: a place to put the thing is the point of the request."""


def with_referent(
    found: StepTask,
    step: Step,
    pack: DomainPack,
    *,
    context: RequestFrame | None = None,
    earlier: TalkedAbout | None = None,
) -> StepTask:
    """``found`` with the slots the step says only as a pronoun filled by what they stand for.

    First from this request, ``context`` (its frame): what its one describing clause says "it"
    is (:func:`~knowledge.language.pronouns.context_referent`) fills one slot, the object when
    the step says it only as pronouns ("the mug is dirty, wipe it"), else the place when the
    landmark is "it" ("the toaster is smoking, tip the jug over it"); for "them" with no such
    clause, the one plural thing the context names (:func:`~knowledge.language.pronouns.
    plural_referent`: "the cat keeps sniffing the candles, move them"). Then from the previous
    turns, ``earlier``: the object (or the landmark) said only as a pronoun takes what the
    pronoun resolver (:func:`~knowledge.language.pronouns.antecedent`) picks among what they
    named: the first thing (a person, for "her" / "him") that the step does not name already;
    the task's ``said_before`` lists the utterances those words come from. A slot the step
    filled itself is never changed, and a pronoun with describing words of its own ("the green
    one") takes no earlier thing. A thing said alone that so takes an earlier thing asks the
    earlier question again when its slots fit it (:func:`_continued`).
    """
    fields = list(pack.schema_for(found.task).model_fields)
    theme, destination = theme_and_destination(fields, source_said=step.source is not None)
    slots = dict(found.slots)
    missing = list(found.missing)
    notes: list[str] = []
    landmark = step.landmark if step.landmark is not None and step.landmark.pronoun else None
    referent = context_referent(context) if context is not None else None
    plural = any(phrase.head in PLURAL_PRONOUNS for phrase in step.objects if phrase.pronoun)
    if referent is None and context is not None and plural:
        referent = plural_referent(context)
    if referent is not None:
        pronoun_only = bool(step.objects) and all(phrase.pronoun for phrase in step.objects)
        slot = theme if pronoun_only else (destination if landmark is not None else None)
        if slot is not None and slot in missing:
            slots[slot] = referent
            missing.remove(slot)
            notes.append(f"the pronoun is what the context says: {slot}={referent!r}")
    said_before = found.said_before
    if earlier is not None and missing:
        pronouns = [phrase for phrase in step.wanted if phrase.pronoun and not phrase.modifiers]
        wanted = [] if len(pronouns) < len(step.wanted) else pronouns
        for slot, phrase in ((theme, wanted[0] if wanted else None), (destination, landmark)):
            if slot is None or phrase is None or slot not in missing:
                continue
            thing = antecedent(
                phrase.head,
                earlier.things,
                earlier.people,
                taken=_named_in(slots),
                topic_first=True,
            )
            if thing is not None:
                slots[slot] = thing
                missing.remove(slot)
                notes.append(f"{phrase.text!r} is {thing!r}, talked about before")
                said_before = tuple(earlier.said)
    task = _continued(found.task, step, slots, pack, earlier) if said_before else found.task
    if task != found.task:
        notes.append(f"said alone, it is more of the earlier {task}")
    if not notes:
        return found
    reason, missed = f"{found.reason}; {'; '.join(notes)}", tuple(missing)
    return replace(
        found, task=task, slots=slots, missing=missed, reason=reason, said_before=said_before
    )


def _continued(task: str, step: Step, slots: Mapping[str, SlotValue], pack: DomainPack,
               earlier: TalkedAbout | None) -> str:  # fmt: skip
    """The earlier request's question, for a thing said alone that it names, when slots fit it.

    "that one" after "where did I put my glasses?" asks again where they are. Only a
    question of this pack (a knowledge query) is continued: a thing said alone never repeats
    an act on what the user may be setting apart from it ("the green one", after a disposal).
    """
    said = earlier.task if earlier is not None else None
    asked = next((spec for spec in pack.tasks if spec.name == said), None)
    if not step.bare or asked is None or asked.name == task or not asked.answers_only:
        return task
    schema = pack.schema_for(asked.name)
    fits = set(required_slots(schema)) <= set(slots) <= set(schema.model_fields)
    return asked.name if fits else task


def _named_in(slots: Mapping[str, SlotValue]) -> Callable[[str], bool]:
    """Whether words are part of a slot value already ("teapot" in "the teapot")."""
    named = " ".join(str(value).lower() for value in slots.values())
    return lambda words: words.lower() in named


def _for_the_speaker(step: Step) -> bool:
    """Whether "for me" asks for a favour ("microwave it for me"), not to be handed it."""
    recipient = step.recipient
    return (
        recipient is not None
        and recipient.person == SPEAKER
        and recipient.preposition == "for"
        and step.action != "bring"
    )


def _object_value(
    phrase: ObjectPhrase, step: Step, fields: Sequence[str], utterance: str
) -> str | None:
    """The object's words as said: with its source when no slot holds that, else alone."""
    choices = []
    if step.source is not None and not first_slot(fields, SOURCE_SLOTS):
        choices.append(f"{phrase.described} {step.source.preposition} {step.source.described}")
    choices += [phrase.described, phrase.text]
    return _said(utterance, *choices)


def _with_exclusions(
    wanted: Sequence[ObjectPhrase], excluded: Sequence[ObjectPhrase], utterance: str
) -> str | None:
    """One wanted thing with what is excluded, as said ("the cola, not the ginger ale")."""
    lowered, said = utterance.lower(), [p.text[len(p.determiner) :] for p in wanted[:1]]
    said = [text.strip().lower() for text in [p.text for p in wanted[:1]] + said if text.strip()]
    start = next((lowered.find(t) for t in said if t in lowered), -1) if len(wanted) == 1 else -1
    if start < 0:
        return None
    end = start
    for phrase in excluded:
        at = lowered.find(phrase.text.lower(), start)
        if at < 0:
            return None
        end = max(end, at + len(phrase.text))
    return utterance[start:end]


def _said(utterance: str, *choices: str) -> str | None:
    """The first of ``choices`` that is said, word for word, in ``utterance``."""
    return next((text for text in choices if text and is_grounded(text, utterance)), None)


def _many(spec: SlotSpec | None) -> bool:
    return spec is not None and spec.many


def known_phrases(frame: RequestFrame, lexicons: Mapping[str, Lexicon]) -> list[str]:
    """What ``frame`` names that a lexicon knows (the belief's things).

    Its phrases that name one, and the mentions in its clauses without an action ("the
    teapot is empty").
    """
    found = [
        phrase.text
        for phrase in frame.phrases()
        if not phrase.pronoun and any(lexicon.find(phrase.text) for lexicon in lexicons.values())
    ]
    for clause in frame.context:
        found += [mention.text for lexicon in lexicons.values() for mention in lexicon.find(clause)]
    return list(dict.fromkeys(found))


def tool_as_theme(
    frame: RequestFrame, fields: Sequence[str], slots: Mapping[str, SlotValue]
) -> str | None:
    """The theme slot in ``slots`` holding the tool of a step whose object is a pronoun, or None.

    "top it up with the jug by the sink": "it" is never the instrument of its own clause, so
    a theme value naming the tool's head ("the jug", "water jugs") is the tool taken for it.
    """
    for step in frame.steps:
        tool = _tool(step)
        if tool is None or not step.objects or not all(phrase.pronoun for phrase in step.objects):
            continue
        theme, _ = theme_and_destination(fields, source_said=step.source is not None)
        value = slots.get(theme) if theme is not None else None
        if isinstance(value, str) and is_grounded(tool.head, value):
            return theme
    return None


def _tool(step: Step) -> ObjectPhrase | None:
    """The step's tool, but for the water a fill fills with ("fill the glass with water")."""
    if step.tool is None or (step.action == "fill" and step.tool.head == TAP_LIQUID):
        return None
    return step.tool
