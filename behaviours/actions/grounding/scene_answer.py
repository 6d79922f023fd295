"""``AnswerFromScene``: answer a question about the scene from the scene index, no SPARQL.

A knowledge task whose pack names a ``perception`` (a question of
:mod:`knowledge.scene.scene_questions`: "how many mugs are there", "is there milk", "what is
on the table") is answered by that question over the belief's
:class:`~knowledge.scene.scene_index.SceneIndex`: it costs what it finds, never what the
belief holds, and it runs on the ``workers`` pool, never on the tick. Its row is evidence
like a template's rows, and the reply is held to it the same way.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from py_trees.common import Status
from pydantic import BaseModel

from cogtree.behaviours import keys
from cogtree.behaviours.answer_node import task_on_blackboard
from cogtree.behaviours.background import BackgroundWork
from cogtree.behaviours.setup_handles import optional_handle, require_handle
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_questions import SCENE_QUESTIONS, SceneRow
from cogtree.knowledge.understanding.turn_state import EvidenceBundle, EvidenceItem
from cogtree.knowledge.worker_pool import WorkerPool


class AnswerFromScene(keys.DeclaredKeys, BackgroundWork[SceneRow]):
    """Answer the turn's scene question from the scene index and keep the row as evidence.

    Handles: ``domains``, ``workers``; ``scene_graph`` (optional: without it no question about
    the scene is answered here). Reads ``/turn/domain``,
    ``/turn/intent``, ``/turn/task`` (the slots ``kind`` and ``place``, blank when unsaid),
    ``/turn/evidence``. Writes ``/turn/evidence``: the bundle so far plus one
    :class:`EvidenceItem` whose source is the question's name.
    SUCCESS: the question was answered (nothing found is an answer too). FAILURE: the turn's
    task asks no scene question (the query path answers it), there is no task, or no scene
    graph; the evidence is left as it was. RUNNING: the index is being read on a worker.
    """

    first_poll_next_tick = False
    reads = (keys.DOMAIN, keys.INTENT, keys.TASK, keys.EVIDENCE)
    writes = (keys.EVIDENCE,)

    def __init__(self, name: str = "AnswerFromScene") -> None:
        super().__init__(name)
        self.domains: DomainRegistry | None = None
        self.scene: SceneGraph | None = None
        self.domain_key = self.key_of(keys.DOMAIN)
        self.intent_key = self.key_of(keys.INTENT)
        self.task_key = self.key_of(keys.TASK)
        self.evidence_key = self.key_of(keys.EVIDENCE)
        self._question = ""

    def setup(self, **kwargs: Any) -> None:
        """Take ``domains``, ``workers`` and the optional ``scene_graph``."""
        super().setup(**kwargs)
        self.domains = require_handle(self, kwargs, "domains", DomainRegistry)
        self.scene = optional_handle(self, kwargs, "scene_graph", SceneGraph)
        self.workers = require_handle(self, kwargs, "workers", WorkerPool)

    def start(self) -> Future[SceneRow] | Status:
        """Submit the question with the task's slots; FAILURE at once when there is none."""
        try:
            task = task_on_blackboard(
                self.domains, self.blackboard, self.domain_key, self.intent_key
            )
        except LookupError as problem:
            return self._fail(str(problem))
        question = task.spec.perception
        if question is None:
            return self._fail(f"{task.spec.name} asks no question about the scene")
        if self.scene is None:
            return self._fail(f"{task.spec.name} asks about the scene, and no `scene_graph` handle")
        instance = keys.read_optional(self.blackboard, self.task_key, BaseModel)
        kind, place = _slot(instance, "kind"), _slot(instance, "place")
        self._question = question
        self.feedback_message = f"{question}({kind!r}, {place!r})"
        return self.submit(SCENE_QUESTIONS[question], self.scene.index, kind, place)

    def finish(self, result: SceneRow) -> Status:
        """SUCCESS: the row joins the turn's evidence."""
        item = EvidenceItem(source=self._question, query=self.feedback_message, rows=[result])
        bundle = keys.read(self.blackboard, self.evidence_key)
        items = list(bundle.items) if isinstance(bundle, EvidenceBundle) else []
        self.blackboard.set(self.evidence_key, EvidenceBundle(items=[*items, item]))
        self.feedback_message = f"{self.feedback_message}: {result.get('count')} thing(s)"
        return Status.SUCCESS

    def _fail(self, reason: str) -> Status:
        self.feedback_message = reason
        return Status.FAILURE


def _slot(instance: BaseModel | None, name: str) -> str:
    value = getattr(instance, name, None) if instance is not None else None
    return value.strip() if isinstance(value, str) else ""
