"""The memory agent's store (JANUS): recent history H, core facts C, archive A, in SQLite.

- **H** holds the last ``history_capacity`` turn traces, verbatim.
- **C** holds the facts the user stated or confirmed, within ``core_budget_chars``
  characters of fact text, ranked identifiers > hard constraints > preferences > other.
- **A** holds the facts that left C: evicted for space, or superseded by a newer fact on the
  same key. It is searched by similarity: an injected embedder (an embedding model), else
  TF-IDF over the texts and, weighed less, their synonyms and categories
  (:mod:`knowledge.language.term_expansion`).

:meth:`MemoryStore.write` appends a turn to H; when H overflows, the oldest traces are
consolidated into C by the summariser (extractive by default; an LLM summariser can be
injected, since ``knowledge/`` never imports ``behaviours/``), the revision rule of
:mod:`knowledge.memory.revision` decides between facts on the same key, and while C is over
budget its lowest-priority, then oldest, facts move to A. A guard admits only stated or
confirmed facts, whatever the summariser returns: the robot's guesses never reach C. The whole
turn is one SQLite transaction (:mod:`knowledge.memory.db`).

:meth:`MemoryStore.read` returns a :class:`~knowledge.memory.model.WorkingContext`: the
current facts of C and of the turns still in H (one per key, the revision rule applied), the
recent turns, and the archived facts most relevant to the request (plus the archived fact
on any key a recent turn speaks about, so the rule can weigh it), never more than the budget
in characters (:mod:`knowledge.memory.context`).

One store serves every domain: traces and facts record their domain, and reads see them all.

The store is the memory of the user it serves. A turn whose speaker nobody identified
(``write(trace, speaker_known=False)``: a visitor, a voice on an intercom) is not theirs: its
facts hold for that conversation only. They are kept beside the store, never written (the
turn goes to H without its claims), and every read of the conversation sees them, so an
allergy said stays heeded until :meth:`MemoryStore.begin_conversation` starts the next one.
Such a speaker may add facts for the conversation, never take away the user's: a withdrawal,
or a fact that would lift a hard constraint the memory holds on its key
(:func:`~knowledge.memory.revision.lifts`), is not kept.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from cogtree.knowledge.closing import Closeable
from cogtree.knowledge.language.similarity import Embedder, SimilarityIndex
from cogtree.knowledge.language.term_expansion import TermExpander
from cogtree.knowledge.memory.archive import ArchiveIndex
from cogtree.knowledge.memory.context import build_context
from cogtree.knowledge.memory.db import MemoryDatabase, MemoryStoreError, MemoryWrite, Snapshot
from cogtree.knowledge.memory.ledger import FactLedger
from cogtree.knowledge.memory.model import (
    TRUSTED_SOURCES,
    Claim,
    Fact,
    FactRecord,
    Recall,
    TurnTrace,
    WorkingContext,
)
from cogtree.knowledge.memory.polarity import inadmissible
from cogtree.knowledge.memory.revision import lifts, reconcile
from cogtree.knowledge.memory.summariser import Summariser, extract_facts

log = logging.getLogger(__name__)

__all__ = [
    "Claim",
    "Fact",
    "FactRecord",
    "MemoryConfig",
    "MemoryStore",
    "MemoryStoreError",
    "Recall",
    "Summariser",
    "TurnTrace",
    "WorkingContext",
    "extract_facts",
]


class MemoryConfig(BaseModel):
    """Capacities and budgets of the memory store (sizes in characters: code points).

    Reopening a store with a smaller capacity or core budget takes effect at the next write.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    history_capacity: int = Field(8, ge=1, description="turns kept verbatim in H")
    core_budget_chars: int = Field(1200, ge=1, description="characters of fact text in C")
    context_budget_chars: int = Field(
        2000, ge=0, description="default size of the working context text read() returns"
    )
    archive_k: int = Field(3, ge=0, description="default number of archived facts recalled")
    history_line_chars: int = Field(
        200, ge=20, description="each side of a recent turn is clipped to this in the context"
    )
    busy_timeout_s: float = Field(
        2.0, gt=0, description="how long a write waits for another connection's lock"
    )


class MemoryStore(Closeable):
    """H, C and A of one robot's memory, persisted in one SQLite file (module docstring).

    Opening restores H, C and A from the file and rebuilds the archive's similarity index;
    a file that is not a memory database, is corrupt or is locked raises
    :class:`MemoryStoreError`. Safe to share between threads.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        config: MemoryConfig | None = None,
        summariser: Summariser | None = None,
        embedder: Embedder | None = None,
        expander: TermExpander | None = None,
    ) -> None:
        self.config = config or MemoryConfig()
        self.summariser: Summariser = summariser or extract_facts
        self._lock = threading.Lock()
        self._db = MemoryDatabase(path, busy_timeout_s=self.config.busy_timeout_s)
        self._embedder = embedder
        if expander is None and embedder is None:
            expander = TermExpander()
        self._expander = expander
        self._history: tuple[TurnTrace, ...] = ()
        self._last_turn = 0
        self._ledger = FactLedger()
        self._archive = self._new_archive()
        self._conversation: tuple[Fact, ...] = ()
        """What an unidentified speaker stated in this conversation (module docstring)."""
        try:
            self._restore(self._db.load())
        except BaseException:
            self._db.close()
            raise
        self._closed = False
        log.info(
            "memory %s: %d recent turns, %d core facts, %d archived",
            self.path,
            len(self._history),
            len(self._ledger.core()),
            len(self._archive),
        )

    @property
    def path(self) -> Path:
        """The SQLite file."""
        return self._db.path

    def close(self) -> None:
        """Close the database; the store cannot be used afterwards."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._db.close()

    # -- what the memory holds ---------------------------------------------------------------

    @property
    def history(self) -> tuple[TurnTrace, ...]:
        """H: the recent turns, oldest first."""
        return self._history

    @property
    def core(self) -> tuple[Fact, ...]:
        """C: the core facts, in the order they entered."""
        return tuple(record.fact for record in self._ledger.core())

    @property
    def core_chars(self) -> int:
        """The size of C in characters of fact text (never above ``core_budget_chars``)."""
        return self._ledger.core_chars

    @property
    def archive(self) -> tuple[FactRecord, ...]:
        """A: the archived facts by id, each marked whether it was superseded."""
        return tuple(self._ledger.archive())

    # -- writing -----------------------------------------------------------------------------

    def begin_conversation(self) -> None:
        """Start a new conversation: forget what its unidentified speakers stated before."""
        with self._lock:
            self._conversation = ()

    def write(self, trace: TurnTrace, *, speaker_known: bool = True) -> TurnTrace:
        """Record one turn: append it to H, consolidate overflow into C, evict C into A.

        Unless ``speaker_known``, the turn's facts hold for this conversation only (module
        docstring): H gets the turn without its claims.

        Returns the trace as stored (numbered). One transaction: when it fails (a locked or
        broken database, or a failing embedder: :class:`MemoryStoreError`) the file does not
        change. When another process wrote to the file since this store last did, the store
        first reloads what is there, inside the same transaction, so nothing either wrote is
        lost and turns stay numbered in order. The summariser runs under the store's lock, so
        a slow model delays concurrent reads; call ``write`` off the tick thread.
        """
        with self._lock:
            self._check_open()
            with self._db.writing() as transaction:
                if transaction.last_turn() != self._last_turn:  # another process wrote
                    self._restore(transaction.snapshot())
                written = trace if speaker_known else trace.model_copy(update={"claims": ()})
                stored, adopt = self._plan_and_store(written, transaction)
            adopt()  # only once the transaction has committed
            if speaker_known:
                return stored
            said = trace.model_copy(update={"turn": stored.turn})
            held = reconcile(
                [*(record.fact for record in self._ledger.core()), *extract_facts(self._history)]
            )
            self._conversation += tuple(
                fact
                for fact in said.facts()
                if fact.holds and not self._lifts_held(fact, held.get(fact.key))
            )
            return said

    def _plan_and_store(
        self, trace: TurnTrace, transaction: MemoryWrite
    ) -> tuple[TurnTrace, Callable[[], None]]:
        """Plan the turn on a copy of the ledger and store it; return it and how to adopt it."""
        if trace.turn is not None and trace.turn <= self._last_turn:
            raise ValueError(
                f"trace turn {trace.turn} is not after the last stored turn "
                f"{self._last_turn}: leave turn unset and the memory numbers turns"
            )
        number = trace.turn or self._last_turn + 1
        stored = trace.model_copy(update={"turn": number})
        history = (*self._history, stored)
        overflow = history[: max(0, len(history) - self.config.history_capacity)]
        ledger = self._ledger.copy()
        if overflow:
            for fact in self._consolidate(overflow):
                held = ledger.current(fact.key)
                record = ledger.admit(fact)
                if not fact.holds:
                    log.info(
                        "memory: fact %d withdraws %s (%s by the user in turn %d, domain %s)",
                        record.id,
                        repr(held.fact.text) if held else f"nothing held on {fact.key}",
                        fact.source,
                        fact.turn,
                        fact.domain,
                    )
        ledger.evict_to_budget(self.config.core_budget_chars)
        touched = ledger.touched()
        newly_archived = [
            (record.id, record.fact.text)
            for record in touched
            if record.tier == "archive"
            and (record.id not in self._ledger or self._ledger[record.id].tier == "core")
        ]
        self._prepare_archive([text for _, text in newly_archived])
        transaction.commit_turn(
            stored,
            dropped_turns=[item.turn or 0 for item in overflow],
            records=touched,
        )

        def adopt() -> None:
            self._history = history[len(overflow) :]
            self._last_turn = number
            self._ledger = ledger
            self._archive.add(newly_archived)

        return stored, adopt

    def _lifts_held(self, fact: Fact, recent: Fact | None) -> bool:
        """Whether ``fact`` would lift a hard constraint the memory holds on its key."""
        record = self._ledger.current(fact.key)
        held = [item for item in (recent, record.fact if record else None) if item is not None]
        return any(lifts(fact, older) for older in held)

    def _restore(self, snapshot: Snapshot) -> None:
        """Take H, C and A from ``snapshot`` and rebuild the archive's similarity index."""
        self._history = snapshot.history
        self._last_turn = snapshot.last_turn
        self._ledger = FactLedger(snapshot.records)
        self._archive = self._new_archive()
        archived = [(record.id, record.fact.text) for record in self._ledger.archive()]
        self._prepare_archive([text for _, text in archived])
        self._archive.add(archived)

    def _new_archive(self) -> ArchiveIndex:
        return ArchiveIndex(self._embedder, expander=self._expander)

    @property
    def recall_method(self) -> str:
        """How the archive is searched: ``embedding`` or ``tf-idf + synonyms``."""
        if self._embedder is not None:
            return "embedding"
        return "tf-idf + synonyms" if self._expander is not None else "tf-idf"

    @property
    def expander(self) -> TermExpander | None:
        """The synonym expansion TF-IDF recall uses (None with an embedder)."""
        return self._expander

    def _prepare_archive(self, texts: list[str]) -> None:
        """Embed texts about to be archived; an embedder failure is a MemoryStoreError."""
        try:
            self._archive.prepare(texts)
        except Exception as error:  # an injected model client may fail in any way
            raise MemoryStoreError(
                f"memory {self.path}: the embedder failed on {len(texts)} archived facts "
                f"({type(error).__name__}: {error}); nothing was written: check the embedding "
                "model (for Ollama: the server is running and the model is pulled), or open "
                "the store without an embedder to use TF-IDF"
            ) from error

    def _consolidate(self, traces: tuple[TurnTrace, ...]) -> list[Fact]:
        """The facts the summariser keeps from ``traces``, after the guard."""
        try:
            produced = list(self.summariser(traces))
        except Exception as error:  # a model-backed summariser may fail in any way
            log.warning(
                "summariser failed (%s: %s); extracting the stated facts instead",
                type(error).__name__,
                error,
            )
            return extract_facts(traces)
        said = {trace.turn: trace.user for trace in traces}
        accepted = []
        for fact in produced:
            if not isinstance(fact, Fact):
                log.warning("summariser returned %r, not a Fact: ignored", fact)
            elif fact.source not in TRUSTED_SOURCES:
                log.info("not keeping a %s fact in core memory: %r", fact.source, fact.text)
            elif fact.turn not in said:
                log.warning(
                    "summariser fact %r cites turn %d, not consolidated", fact.text, fact.turn
                )
            elif (why := inadmissible(fact, [said[fact.turn]])) is not None:
                log.info("not keeping a summariser fact: %s", why)
            else:
                accepted.append(fact)
        return accepted

    # -- reading -----------------------------------------------------------------------------

    def read(
        self, request: str, *, budget: int | None = None, k: int | None = None
    ) -> WorkingContext:
        """The working context for ``request``: bounded, coherent, relevant (module docstring).

        ``budget`` (characters of the context text) and ``k`` (archived facts recalled)
        default to the config's ``context_budget_chars`` and ``archive_k``.
        """
        budget_chars = self.config.context_budget_chars if budget is None else budget
        top = self.config.archive_k if k is None else k
        if budget_chars < 0 or top < 0:
            raise ValueError(f"budget ({budget_chars}) and k ({top}) must not be negative")
        with self._lock:
            self._check_open()
            history = self._history
            pending = [*extract_facts(history), *self._conversation]
            believed = [record.fact for record in self._ledger.core()] + pending
            recalls = self._search(request, top, include_superseded=False)
            recalls += self._archived_rivals(pending, recalls)
        winners = reconcile([*believed, *(recall.fact for recall in recalls)])
        winning = {id(fact) for fact in winners.values()}
        return build_context(
            facts=[fact for fact in believed if id(fact) in winning],
            history=history,
            recalled=[recall for recall in recalls if id(recall.fact) in winning],
            budget_chars=budget_chars,
            line_chars=self.config.history_line_chars,
        )

    def _archived_rivals(self, pending: list[Fact], recalls: list[Recall]) -> list[Recall]:
        """Archived facts believed on the keys of recent facts, so the rule can weigh them.

        A recent soft statement must not hide an archived hard constraint on the same key
        just because the request did not happen to retrieve it. Score 0: not retrieved.
        """
        recalled = {recall.fact.key for recall in recalls}
        rivals = []
        for fact in pending:
            held = self._ledger.current(fact.key)
            if held is not None and held.tier == "archive" and fact.key not in recalled:
                recalled.add(fact.key)
                rivals.append(Recall(fact=held.fact, score=0.0))
        return rivals

    def relevance(self, request: str, texts: Sequence[str]) -> tuple[float, str]:
        """How close the closest of ``texts`` is to ``request``, by the archive's own measure.

        The same scores as archive recall (the embedder, else TF-IDF with the store's
        expansion), so the sufficiency gate and retrieval agree. Returns (cosine, that text);
        (0.0, "") when nothing is alike. Runs the embedder when there is one: call it off the
        tick thread.
        """
        index = SimilarityIndex(self._embedder, expander=self._expander)
        index.add([text for text in texts if text.strip()])
        best = index.top_k(request, 1)
        return (best[0].score, index.text(best[0].index)) if best else (0.0, "")

    def search_archive(
        self, query: str, k: int, *, include_superseded: bool = False
    ) -> list[Recall]:
        """The ``k`` archived facts most similar to ``query``, best first.

        Superseded facts (no longer believed) are left out unless ``include_superseded``.
        """
        with self._lock:
            self._check_open()
            return self._search(query, k, include_superseded=include_superseded)

    def _search(self, query: str, k: int, *, include_superseded: bool) -> list[Recall]:
        allowed = None if include_superseded else self._ledger.is_current
        return [
            Recall(
                fact=self._ledger[fact_id].fact,
                score=score,
                superseded=self._ledger[fact_id].superseded,
            )
            for fact_id, score in self._archive.top_k(query, k, allowed=allowed)
        ]

    def _check_open(self) -> None:
        if self._closed:
            raise MemoryStoreError(f"memory store {self.path} is closed: open a new MemoryStore")
