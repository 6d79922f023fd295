"""``AnswerFromMemory``: the grounding of a memory_query task: what memory holds, with its turns.

The answer is composed from the stored facts and turns only (:mod:`knowledge.memory.questions`)
and becomes the turn's evidence; Respond says it and holds it to the faithfulness guard like
any other evidence.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.background import BackgroundWork, Pending
from cogtree.behaviours.setup_handles import require_handle
from cogtree.knowledge.memory.failures import memory_failure
from cogtree.knowledge.memory.questions import MemoryAnswer, answer
from cogtree.knowledge.memory.store import MemoryStore
from cogtree.knowledge.understanding.turn_state import EvidenceBundle, EvidenceItem
from cogtree.knowledge.worker_pool import WorkerPool

MEMORY_ANSWER = "memory_answer"
"""The evidence source of an answer from memory."""

COULD_NOT_RECALL = "I could not look into my memory just now."
"""What the robot says when the memory could not be read (the reason goes to the feedback)."""


class AnswerFromMemory(keys.DeclaredKeys, BackgroundWork[MemoryAnswer]):
    """Answer the user's question about what the robot remembers, citing the turns.

    Handles: ``memory`` (:class:`~knowledge.memory.store.MemoryStore`), ``workers``. Reads memory
    for the question (``memory.read(utterance, k)``: core facts, recent turns, archive recall)
    on a worker and answers from it alone. ``k`` is how many archived facts are recalled for
    the question (default 5).

    Reads ``/turn/utterance``, ``/turn/evidence`` (kept, appended to). Writes
    ``/turn/evidence`` with one item of source ``memory_answer`` (the answer, or
    :data:`COULD_NOT_RECALL`). SUCCESS: answered (also "nothing that I know of"). FAILURE: no
    utterance, or the memory could not be read (the reason is the feedback). RUNNING: reading.
    """

    reads = (keys.UTTERANCE,)
    writes = (keys.EVIDENCE,)

    def __init__(self, name: str = "AnswerFromMemory", *, k: int = 5) -> None:
        super().__init__(name)
        self.k = k
        self.memory: MemoryStore | None = None
        self.utterance_key = self.key_of(keys.UTTERANCE)
        self.evidence_key = self.key_of(keys.EVIDENCE)

    def setup(self, **kwargs: Any) -> None:
        """Take the ``memory`` and ``workers`` handles."""
        super().setup(**kwargs)
        self.memory = require_handle(self, kwargs, "memory", MemoryStore)
        self.workers = require_handle(self, kwargs, "workers", WorkerPool)

    def start(self) -> Future[MemoryAnswer] | Status:
        """Start reading memory for the question; FAILURE at once without an utterance."""
        assert self.memory is not None
        question = keys.read_optional(self.blackboard, self.utterance_key, str) or ""
        if not question.strip():
            self.feedback_message = "no question this turn"
            return Status.FAILURE
        memory, k = self.memory, self.k
        return self.submit(lambda: answer(question, memory.read(question, k=k)))

    def waiting(self, waited: float) -> str:
        """Memory is read."""
        return "looking into memory"

    def finish(self, result: MemoryAnswer) -> Status:
        """SUCCESS: the answer is the evidence."""
        self._add_evidence(result.text)
        cited = ", ".join(str(turn) for turn in result.turns) or "none"
        self.feedback_message = f"answered from memory (turns cited: {cited})"
        return Status.SUCCESS

    def on_error(self, error: Exception) -> Status:
        """FAILURE: the memory could not be read; the robot says so."""
        self._add_evidence(COULD_NOT_RECALL)
        self.feedback_message = f"memory not read: {memory_failure(self.name, error)}"
        return Status.FAILURE

    def on_cancel(self, work: Pending[MemoryAnswer]) -> None:
        """Drop the read in flight."""
        work.cancel()
        self.feedback_message = "interrupted while looking into memory"

    def _add_evidence(self, text: str) -> None:
        held = keys.read_optional(self.blackboard, self.evidence_key, EvidenceBundle)
        items = [
            *(held.items if held is not None else []),
            EvidenceItem(source=MEMORY_ANSWER, text=text),
        ]
        self.blackboard.set(self.evidence_key, EvidenceBundle(items=items))
