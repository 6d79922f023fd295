"""Simulated people: they answer clarification questions and take on delegated tasks.

**Answers** come from the scenario's *hidden intent*: named slots, each with the value the
speaker has in mind and the words of a question that ask for it::

    hidden_intent:
      object: {value: the blue bottle, keywords: [which bottle, which one, colour]}
      destination: {value: the table in the bedroom, keywords: [where, which table]}
      drink: water                  # short for {value: water}: asked for by the word "drink"

A question is matched deterministically, word by word (lowercase, whole words):

1. Each slot scores the number of words of its cues found in the question, where the cues
   are the slot's name (``destination``; ``drink_size`` gives "drink size") and its keyword
   phrases. The best score wins; ties go to the slot written first.
2. A yes/no question ("Do you mean ...", "Should I ...") that no cue matches is matched to
   the first slot whose value's content words all appear in it.
3. The answer is the slot's value; to a yes/no question it is "Yes." when the question holds
   every content word of the value, else "No, <value>.". No match: "I don't know."

Only the speaker of the request knows the hidden intent; anyone else answers "I don't know."
A person answers when reachable and awake (a busy or away person still answers the phone).

**Delegated tasks** name one of the person's abilities. The person accepts when they are
reachable and available now, have the ability and do not refuse it; then they are busy for
the ability's number of ticks, and the task's future resolves when :meth:`People.step` reaches
that tick (``did(person, ability)`` holds from then on, so an event ``when: did(anna, print)``
can put the printout on the desk). A refusal resolves the future at once. A person who becomes
unreachable or leaves the home before finishing fails the task (``person_unavailable``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from cogtree.knowledge.scene.referents.description import FILLER_WORDS
from cogtree.sim.world import World
from cogtree.sim.world_spec import Id, SpecModel
from cogtree.skills.action_model.commands import Feedback, fail, ok

log = logging.getLogger(__name__)

DONT_KNOW = "I don't know."
"""What a person says when no slot of what they know matches the question."""

YES_NO_OPENERS = frozenset(
    ["do", "does", "did", "is", "are", "was", "should", "shall", "can", "could", "may", "would",
     "will", "want"]
)  # fmt: skip
"""First words that make a question a yes/no question."""

_WORD = re.compile(r"[a-z0-9]+")


class IntentSlot(SpecModel):
    """What the speaker has in mind for one slot, and the question words that ask for it."""

    value: str = Field(min_length=1)
    keywords: tuple[str, ...] = Field((), description="words or phrases that ask for the slot")


def _slot(value: Any) -> Any:
    return {"value": value} if isinstance(value, str) else value


HiddenIntent = dict[Id, Annotated[IntentSlot, BeforeValidator(_slot)]]
"""Slot name -> what the speaker means; a plain string is short for ``{value: ...}``."""


class Answer(BaseModel):
    """What a person said to a question (``reached`` False: they could not be asked)."""

    model_config = ConfigDict(frozen=True)

    person: str
    question: str
    text: str
    slot: str | None = Field(None, description="the hidden-intent slot the answer came from")
    reached: bool = True
    reason: str = Field("", description="why the person could not be asked")


class DelegatedTask(BaseModel):
    """A task for a person: one of their abilities, described in words."""

    model_config = ConfigDict(frozen=True)

    ability: str = Field(min_length=1)
    description: str = ""


@dataclass
class _Work:
    person: str
    task: DelegatedTask
    due: int
    future: Future[Feedback]
    was_home: bool


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _has_phrase(words: list[str], phrase: list[str]) -> bool:
    size = len(phrase)
    return size > 0 and any(words[i : i + size] == phrase for i in range(len(words) - size + 1))


def _content(text: str) -> set[str]:
    return {word for word in _words(text) if word not in FILLER_WORDS}


def answer_from(intent: Mapping[str, IntentSlot], question: str) -> tuple[str | None, str]:
    """The slot that ``question`` asks for, and the answer (see the module docs)."""
    words = _words(question)
    yes_no = bool(words) and words[0] in YES_NO_OPENERS
    best, best_score = None, 0
    for name, slot in intent.items():
        cues = [name.split("_"), *(_words(keyword) for keyword in slot.keywords)]
        score = sum(len(cue) for cue in cues if _has_phrase(words, cue))
        if score > best_score:
            best, best_score = name, score
    if best is None and yes_no:
        best = next(
            (
                name
                for name, slot in intent.items()
                if _content(slot.value) and _content(slot.value) <= set(words)
            ),
            None,
        )
    if best is None:
        return None, DONT_KNOW
    value = intent[best].value
    if not yes_no:
        return best, value
    return best, "Yes." if _content(value) <= set(words) else f"No, {value}."


class People:
    """The people of a world: ask them questions, delegate tasks to them, step their work.

    Args:
        world: the world they live in (availability, reachability and rooms come from it).
        speaker: the person who made the request; only they know ``hidden_intent``.
        hidden_intent: what the speaker has in mind, by slot.

    """

    def __init__(
        self,
        world: World,
        *,
        speaker: str | None = None,
        hidden_intent: Mapping[str, IntentSlot] | None = None,
    ) -> None:
        self.world = world
        self.speaker = speaker
        self.hidden_intent = dict(hidden_intent or {})
        self.questions: list[Answer] = []
        self._working: list[_Work] = []

    def ask(self, person: str, question: str) -> Answer:
        """Ask ``person`` a question; the answer comes at once (recorded in ``questions``)."""
        reason = self._unreachable(person, asleep_too=True)
        if reason:
            answer = Answer(person=person, question=question, text="", reached=False, reason=reason)
        else:
            intent = self.hidden_intent if person == self.speaker else {}
            slot, text = answer_from(intent, question)
            answer = Answer(person=person, question=question, text=text, slot=slot)
        self.questions.append(answer)
        self.world.note(
            f"asked {person}: {question!r} -> "
            + (repr(answer.text) if answer.reached else f"no answer ({answer.reason})")
        )
        return answer

    def _unreachable(self, person: str, *, asleep_too: bool) -> str:
        """Why ``person`` cannot be asked anything now ("" when they can)."""
        if self.world.kind_of(person) != "person":
            return f"no person {person!r} (people: {', '.join(self.world.spec.people) or 'none'})"
        if not self.world.state.people[person].reachable:
            return f"{person} does not respond"
        if asleep_too and self.world.availability(person) == "asleep":
            return f"{person} is asleep"
        return ""

    def delegate(self, person: str, task: DelegatedTask) -> Future[Feedback]:
        """Ask ``person`` to do ``task``; the future resolves when they finish or refuse."""
        future: Future[Feedback] = Future()
        refusal = self._refusal(person, task)
        if refusal is not None:
            self.world.note(f"{person} did not take on {task.ability}: {refusal.message}")
            future.set_result(refusal)
            return future
        due = self.world.tick + self.world.spec.people[person].abilities[task.ability]
        self.world.start_task(person, due)
        home = self.world.state.people[person].room is not None
        self._working.append(_Work(person, task, due, future, home))
        self.world.note(f"{person} took on {task.ability} until tick {due}")
        return future

    def _refusal(self, person: str, task: DelegatedTask) -> Feedback | None:
        if self.world.kind_of(person) != "person":
            return fail("object_not_found", self._unreachable(person, asleep_too=False))
        reason = self._unreachable(person, asleep_too=False)
        if reason:
            return fail("person_unavailable", reason)
        status = self.world.availability(person)
        if status != "available":
            return fail("person_unavailable", f"{person} is {status}")
        spec = self.world.spec.people[person]
        if task.ability not in spec.abilities:
            known = ", ".join(spec.abilities) or "none"
            return fail("person_refused", f"{person} cannot {task.ability} (abilities: {known})")
        if task.ability in spec.refuses:
            return fail("person_refused", f"{person} refuses to {task.ability}")
        return None

    @property
    def working(self) -> list[tuple[str, str, int]]:
        """Tasks in progress: (person, ability, tick they are due)."""
        return [(work.person, work.task.ability, work.due) for work in self._working]

    def cancel(self, future: Future[Feedback]) -> bool:
        """Withdraw a task in progress; the person is free again. False if it was not running."""
        work = next((w for w in self._working if w.future is future), None)
        if work is None:
            return False
        self._working.remove(work)
        self.world.state.people[work.person].busy_until = None
        self.world.note(f"{work.person} was told to stop {work.task.ability}")
        return future.cancel()

    def step(self) -> None:
        """Finish the tasks due at the world's tick (call after the clock advanced)."""
        due = [work for work in self._working if work.due <= self.world.tick]
        finished: list[tuple[Future[Feedback], Feedback]] = []
        for work in due:
            self._working.remove(work)
            state = self.world.state.people[work.person]
            if not state.reachable or (work.was_home and state.room is None):
                state.busy_until = None
                why = "stopped answering" if not state.reachable else "left"
                message = f"{work.person} {why} before finishing {work.task.ability}"
                self.world.note(message)
                finished.append((work.future, fail("person_unavailable", message)))
                continue
            self.world.finish_task(work.person, work.task.ability)
            done = f"{work.person} did {work.task.ability}"
            if work.task.description:
                done += f": {work.task.description}"
            finished.append((work.future, ok(done)))
        for future, feedback in finished:
            if not future.cancelled():
                future.set_result(feedback)
