"""A conversation with the assistant tree: one tree, many turns, memory and world kept between.

:class:`AssistantSession` owns the turn tree and its runner. :meth:`AssistantSession.turn`
puts the utterance on the blackboard, ticks until the tree has answered, and returns what the
robot said with every gate's decision and rationale. Before each turn every key the catalogue
(:mod:`behaviours.keys`) gives a ``turn`` lifetime is unset; ``session`` keys (a pending
clarification, the working memory) and the memory store persist. When inner speech decides
SwitchDomain, the session switches and runs the same utterance once more in the new domain, so
the user never has to repeat themselves.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import py_trees
from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.knowledge.closing import Closeable
from cogtree.knowledge.collector import collector_paused
from cogtree.knowledge.language.english import looks_english
from cogtree.knowledge.language.request_frame import MAX_PARSE_CHARS
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.memory.store import MemoryStore
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.answer_kinds import particle_answered
from cogtree.knowledge.understanding.lexicon_book import LexiconBook
from cogtree.knowledge.understanding.turn_state import GateRationale, PendingTask
from cogtree.knowledge.wording import clip
from cogtree.trees.assistant import create_root
from cogtree.trees.recording.tick_log import TickEntry
from cogtree.trees.runner import TreeRunner

log = logging.getLogger(__name__)

NOTHING_HEARD = "I did not catch that. Could you say it again?"
"""The reply to blank input, which never reaches the tree."""

MAX_UTTERANCE_CHARS = MAX_PARSE_CHARS
"""The longest utterance a turn takes (1,000 characters, all of which the request's parse
reads): the one limit on what the user says, held at the turn's input
(:meth:`AssistantSession.turn`, the path of ``cogtree chat``, ``ask`` and the ROS host; ``cogtree
tick --say`` checks it too), so a longer text never reaches the tree, a prompt or memory. A
spoken request is a few hundred characters. Longer text is refused, not cut, so the robot never
acts on part of what was said; and what a tick does with the text grows with its length, so the
bound keeps every tick of the longest request under a second
(``benchmarks/largest_input.py``)."""

TOO_LONG = (
    "That was too long for me ({count} characters); please say it in fewer words "
    f"(at most {MAX_UTTERANCE_CHARS:,} characters)."
)
"""The reply to an utterance over :data:`MAX_UTTERANCE_CHARS`, which never reaches the tree."""

ONLY_ENGLISH = "Sorry, I only understand English for now."
"""The reply to an utterance in another language, which never reaches the tree."""

TURN_LIMIT_S = 200.0
"""How long a turn may take before it is stopped and reported: several slow model calls fit."""

MAX_TICKS_PER_TURN = round(TURN_LIMIT_S * 100)
"""The turn limit in ticks at the default 100 Hz; a session ticking at another rate passes
``max_ticks_per_turn`` (see :func:`ticks_per_turn`)."""


def ticks_per_turn(rate_hz: float) -> int:
    """The tick budget of one turn at ``rate_hz`` ticks per second (:data:`TURN_LIMIT_S`)."""
    return max(1, round(TURN_LIMIT_S * rate_hz))


@dataclass(frozen=True)
class TurnResult:
    """What one turn did: the reply, the decisions and why, and what it cost."""

    utterance: str
    reply: str
    domain: str | None
    control: str | None
    task: dict[str, Any] | None
    rationales: dict[str, GateRationale]
    status: str
    ticks: int
    switched: bool = False
    entries: list[TickEntry] = field(default_factory=list, repr=False)
    first_pass: TurnResult | None = field(default=None, repr=False)
    """After a domain switch: the pass that decided to switch (this result is the second)."""

    def explain(self) -> str:
        """Each gate's decision and rationale, one line per gate, in the order they ran.

        After a domain switch both passes are shown, the one that switched first.
        """
        if self.first_pass is None:
            return self._gate_lines()
        first = self.first_pass
        return "\n".join(
            [
                f"  pass 1 in {first.domain}: {first.control}",
                first._gate_lines(),
                f"  pass 2 in {self.domain}: {self.control}",
                self._gate_lines(),
            ]
        )

    def _gate_lines(self) -> str:
        lines = []
        for node, rationale in self.rationales.items():
            decision = ", ".join(
                f"{k}={clip(str(v), 80)}"
                for k, v in rationale.decision.items()
                if v not in (None, "", [], {}) and k != "rationale"
            )
            veto = " VETOED" if rationale.vetoed else ""
            lines.append(f"  {node} [{rationale.source}{veto}] {decision} -- {rationale.rationale}")
        return "\n".join(lines)


class AssistantSession(Closeable):
    """Runs the assistant turn tree turn after turn over shared handles.

    ``handles`` (built with :class:`~trees.handles.Handles`, ``as_kwargs()``) go to the
    tree's ``setup``; they must hold ``domains`` and ``memory``. ``scene_graph`` and
    ``executor`` are the robot's belief and the command executor (the simulator's for
    ``cogtree chat``); without them physical requests fail honestly. The session adds a
    ``lexicons`` book over the domains and the belief unless one is given, and builds its
    lexicons before the first turn.
    ``root_factory(robot)`` builds the tree (the assistant tree by default, or e.g. the ReAct
    tree). The session does not own the handles: close them yourself (it closes only its
    runner).
    """

    def __init__(
        self,
        *,
        llm: LLMClient,
        handles: Mapping[str, Any],
        speaker: str | None = None,
        robot: str = "robot1",
        log_path: str | Path | None = None,
        on_tick: Callable[[py_trees.behaviour.Behaviour, TickEntry], None] | None = None,
        before_tick: Callable[[], None] | None = None,
        rate_hz: float | None = 100.0,
        max_ticks_per_turn: int = MAX_TICKS_PER_TURN,
        root_factory: Callable[[str], py_trees.behaviour.Behaviour] = create_root,
        tree_name: str = "cogtree.trees.assistant:create_root",
    ) -> None:
        domains, memory = handles.get("domains"), handles.get("memory")
        if not isinstance(domains, DomainRegistry) or not isinstance(memory, MemoryStore):
            raise ValueError(
                "AssistantSession needs the `domains` and `memory` handles: build them with "
                "cogtree.trees.handles.Handles(domains=...) and open_memory()"
            )
        self.domains = domains
        self.memory = memory
        memory.begin_conversation()  # what an unidentified speaker said before is not heeded
        self.speaker = speaker
        self.rate_hz = rate_hz
        self.max_ticks_per_turn = max_ticks_per_turn
        given = dict(handles)
        book = given.setdefault("lexicons", LexiconBook(domains, given.get("scene_graph")))
        if isinstance(book, LexiconBook):
            # What exists now (the belief and its index, the packs) lives as long as the
            # session, and so do the lexicons: the first is frozen out of the collector's
            # walks and the collector waits while the second are built (they make no cycles),
            # or it walks them over and over as they grow (half the build at 30k objects).
            # The runner's setup freezes them too; its close unfreezes.
            gc.freeze()
            with collector_paused():
                book.prepare()  # once, here: no turn waits for the lexicons of a big belief
        self.runner = TreeRunner(
            root_factory(robot),
            llm=llm,
            handles=given,
            log_path=log_path,
            tree_name=tree_name,
            on_tick=on_tick,
            before_tick=before_tick,
        )
        self.runner.setup()

    def turn(self, text: str) -> TurnResult:
        """Run one turn for ``text`` and return what the robot said and why.

        Blank text is not a turn (the tree would wait for speech), nor is text over
        :data:`MAX_UTTERANCE_CHARS`, nor text in another language than English
        (:func:`~knowledge.language.english.looks_english`): the reply says why
        (:data:`NOTHING_HEARD`,
        :data:`TOO_LONG`, :data:`ONLY_ENGLISH`), and nothing is ticked or remembered. A bare
        particle that answers the robot's "on or off?" is the request it completes ("on":
        "switch on the kettle"; the result's ``utterance`` is that request).
        """
        if not text.strip():
            return _not_run(text, NOTHING_HEARD)
        if len(text) > MAX_UTTERANCE_CHARS:
            log.warning("refused an utterance of %d characters: %r", len(text), clip(text, 80))
            return _not_run(clip(text, 200), TOO_LONG.format(count=len(text)))
        if not looks_english(text):
            return _not_run(text, ONLY_ENGLISH)
        request = particle_answered(pending_question(), text)  # "on": "switch on the kettle"
        if request != text:
            py_trees.blackboard.Blackboard.unset(keys.PENDING.name)  # answered: asked whole
            text = request
        result = self._run(text)
        if result.control == "SwitchDomain":
            target = self.domains.active.name
            log.info("switched to %s; running the turn again there", target)
            again = self._run(text, domain=target)
            return TurnResult(**{**again.__dict__, "switched": True, "first_pass": result})
        return result

    def close(self) -> None:
        """Stop the tree and close the tick log."""
        self.runner.close()

    def _run(self, text: str, *, domain: str | None = None) -> TurnResult:
        keys.clear("turn")
        keys.preset(keys.UTTERANCE, text)
        if domain is not None:
            keys.preset(keys.DOMAIN, domain)
        if self.speaker:
            keys.preset(keys.SPEAKER, self.speaker)
        run = self.runner.run(max_ticks=self.max_ticks_per_turn, rate_hz=self.rate_hz)
        if run.status == Status.RUNNING:
            self.runner.root.stop(Status.INVALID)
            log.warning("turn %r stopped: %s", text, run.stopped_because)
        storage = py_trees.blackboard.Blackboard.storage
        task = storage.get(keys.TASK.name)
        heard = storage.get(keys.SPEAKER.name)
        if not self.speaker and isinstance(heard, str) and heard:
            self.speaker = heard  # identified during the turn: known for the rest of the session
        return TurnResult(
            utterance=text,
            reply=str(storage.get(keys.REPLY.name) or ""),
            domain=storage.get(keys.DOMAIN.name),
            control=storage.get(keys.CONTROL.name),
            task=task.model_dump(mode="json") if task is not None else None,
            rationales={
                value.node: value
                for key, value in storage.items()
                if keys.RATIONALE.matches(key) and isinstance(value, GateRationale)
            },
            status=run.status.value,
            ticks=len(run.entries),
            entries=run.entries,
        )


def pending_question() -> PendingTask | None:
    """The tree's question waiting for the user's answer (``/session/pending``), if any.

    The blackboard is the process's, so a voice input beside the session reads it too
    (``chat``'s :class:`~trees.voice.conversation.VoiceConversation`, ``ros --voice``'s
    ``SpeechIn``).
    """
    value = py_trees.blackboard.Blackboard.storage.get(keys.PENDING.name)
    return value if isinstance(value, PendingTask) else None


def _not_run(utterance: str, reply: str) -> TurnResult:
    """The result of input that never reached the tree: ``reply`` says why."""
    return TurnResult(
        utterance=utterance,
        reply=reply,
        domain=None,
        control=None,
        task=None,
        rationales={},
        status="NOT_RUN",
        ticks=0,
    )
