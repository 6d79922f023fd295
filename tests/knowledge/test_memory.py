"""The memory store (JANUS H/C/A): bounds, revision, coherence, persistence and failures."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from cogtree.knowledge.memory.archive import MIN_FRESH
from cogtree.knowledge.memory.db import SCHEMA_VERSION, MemoryDatabase
from cogtree.knowledge.memory.model import Claim, Fact, FactKind, FactSource, TurnTrace
from cogtree.knowledge.memory.store import (
    MemoryConfig,
    MemoryStore,
    MemoryStoreError,
    extract_facts,
)

OpenStore = Callable[..., MemoryStore]


def claim(
    text: str,
    kind: FactKind = "other",
    slot: str | None = None,
    source: FactSource = "stated",
    *,
    correction: bool = False,
) -> Claim:
    return Claim(text=text, kind=kind, slot=slot, source=source, correction=correction)


def turn(user: str, *claims: Claim, robot: str = "", domain: str = "general") -> TurnTrace:
    return TurnTrace(user=user, robot=robot, domain=domain, claims=claims)


def texts(facts: Sequence[Fact]) -> list[str]:
    return [fact.text for fact in facts]


def dump(path: Path) -> list[str]:
    """Every row of the database, through a separate connection."""
    connection = sqlite3.connect(path)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.sqlite3"


@pytest.fixture
def open_store(db_path: Path) -> Iterator[OpenStore]:
    """Open stores on ``db_path`` (config fields as keywords); all closed after the test."""
    opened: list[MemoryStore] = []

    def make(*, summariser: Any = None, embedder: Any = None, **config: Any) -> MemoryStore:
        store = MemoryStore(
            db_path,
            config=MemoryConfig.model_validate(config),
            summariser=summariser,
            embedder=embedder,
        )
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.close()


# -- H: recent history ----------------------------------------------------------------------------


def test_history_keeps_the_newest_turns_up_to_its_capacity(open_store: OpenStore) -> None:
    store = open_store(history_capacity=3)
    for number in range(1, 8):
        stored = store.write(turn(f"utterance {number}"))
        assert stored.turn == number
        assert len(store.history) == min(number, 3)
    assert [trace.user for trace in store.history] == [f"utterance {n}" for n in (5, 6, 7)]
    assert [trace.turn for trace in store.history] == [5, 6, 7]


# -- C: core facts, budget, priorities ------------------------------------------------------------


def test_consolidation_moves_stated_and_confirmed_facts_from_old_turns_into_core(
    open_store: OpenStore,
) -> None:
    store = open_store(history_capacity=2)
    store.write(turn("I'm Ana", claim("The user is called Ana.", "identifier", "user.name")))
    store.write(turn("yes, the blue one", claim("Her mug is the blue one.", source="confirmed")))
    assert not store.core  # both turns still fit in H
    store.write(turn("thanks"))
    assert texts(store.core) == ["The user is called Ana."]
    store.write(turn("bye"))
    assert texts(store.core) == ["The user is called Ana.", "Her mug is the blue one."]
    assert [fact.turn for fact in store.core] == [1, 2]
    assert store.core[1].source == "confirmed"


def test_eviction_moves_lowest_priority_then_oldest_facts_to_the_archive(
    open_store: OpenStore,
) -> None:
    store = open_store(history_capacity=1, core_budget_chars=30)
    plan = [
        claim("other 0001", "other"),
        claim("prefer 002", "preference"),
        claim("other 0003", "other"),
        claim("hard 00004", "hard_constraint"),
        claim("ident 0005", "identifier"),
        claim("prefer 006", "preference"),
    ]
    evicted: list[str] = []
    for item in [*plan, None]:  # the last write consolidates the last fact
        before = {record.id for record in store.archive}
        store.write(turn("...", *([item] if item else [])))
        evicted += [r.fact.text for r in store.archive if r.id not in before]
        assert store.core_chars <= 30
    assert evicted == ["other 0001", "other 0003", "prefer 002"]
    assert texts(store.core) == ["hard 00004", "ident 0005", "prefer 006"]
    assert not any(record.superseded for record in store.archive)


def test_a_fact_longer_than_the_whole_budget_goes_straight_to_the_archive(
    open_store: OpenStore,
) -> None:
    store = open_store(history_capacity=1, core_budget_chars=20)
    store.write(
        turn("...", claim("An identifier that is far too long for core memory.", "identifier"))
    )
    store.write(turn("..."))
    assert not store.core
    assert texts([record.fact for record in store.archive]) == [
        "An identifier that is far too long for core memory."
    ]


def test_a_smaller_core_budget_applies_at_the_next_write(open_store: OpenStore) -> None:
    store = open_store(history_capacity=1, core_budget_chars=100)
    store.write(turn("a", claim("Name: Ana.", "identifier")))
    store.write(turn("b", claim("Likes jazz.", "preference")))
    store.write(turn("c"))
    assert store.core_chars == 21
    store.close()
    smaller = open_store(history_capacity=1, core_budget_chars=15)
    smaller.write(turn("d"))
    assert texts(smaller.core) == ["Name: Ana."]
    assert [record.fact.text for record in smaller.archive] == ["Likes jazz."]


def test_one_store_serves_every_domain(open_store: OpenStore) -> None:
    store = open_store(history_capacity=1)
    store.write(turn("nuts", claim("Allergic to nuts.", "hard_constraint"), domain="advisor"))
    store.write(turn("mug", claim("Her mug is blue.", slot="mug"), domain="household"))
    store.write(turn("ok", domain="household"))
    assert [(fact.text, fact.domain) for fact in store.core] == [
        ("Allergic to nuts.", "advisor"),
        ("Her mug is blue.", "household"),
    ]
    assert [trace.domain for trace in store.history] == ["household"]
    assert texts(store.read("bring my mug").facts) == ["Allergic to nuts.", "Her mug is blue."]


KINDS: tuple[FactKind, ...] = ("identifier", "hard_constraint", "preference", "other")
SOURCES: tuple[FactSource, ...] = ("stated", "confirmed", "inferred")
claims_strategy = st.builds(
    claim,
    text=st.text(alphabet="abcdef xyz.👍", min_size=1, max_size=40).filter(str.strip),
    kind=st.sampled_from(KINDS),
    slot=st.one_of(st.none(), st.sampled_from(["drink", "name", "allergy.nut", "room"])),
    source=st.sampled_from(SOURCES),
    correction=st.booleans(),
)
traces_strategy = st.lists(
    st.builds(
        lambda user, claims: turn(user, *claims),
        st.text(max_size=30),
        st.lists(claims_strategy, max_size=3),
    ),
    max_size=14,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    traces=traces_strategy,
    capacity=st.integers(1, 4),
    core_budget=st.integers(1, 80),
    context_budget=st.integers(0, 300),
)
def test_any_sequence_of_writes_keeps_every_bound_and_invariant(
    traces: list[TurnTrace], capacity: int, core_budget: int, context_budget: int
) -> None:
    config = MemoryConfig(history_capacity=capacity, core_budget_chars=core_budget)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.db"
        with MemoryStore(path, config=config) as store:
            for trace in traces:
                store.write(trace)
                core, archive = store.core, store.archive
                assert len(store.history) <= capacity
                assert store.core_chars == sum(len(fact.text) for fact in core) <= core_budget
                kept = [*core, *(record.fact for record in archive)]
                assert all(fact.source in ("stated", "confirmed") for fact in kept)
                believed = [*core, *(r.fact for r in archive if not r.superseded)]
                assert len({fact.key for fact in believed}) == len(believed)
                context = store.read("drink nut room", budget=context_budget)
                assert len(context.text) <= context_budget
                shown = [*context.facts, *(recall.fact for recall in context.recalled)]
                assert len({fact.key for fact in shown}) == len(shown)
            state = (store.history, store.core, store.archive)
        with MemoryStore(path, config=config) as reopened:
            assert (reopened.history, reopened.core, reopened.archive) == state


# -- the revision rule and guesses ----------------------------------------------------------------


def test_a_correction_replaces_the_older_fact_which_is_archived_as_superseded(
    open_store: OpenStore,
) -> None:
    store = open_store(history_capacity=1)
    store.write(turn("I like tea", claim("Likes tea.", "preference", "drink")))
    store.write(turn("no, coffee", claim("Likes coffee.", "preference", "drink", correction=True)))
    store.write(turn("ok"))
    assert texts(store.core) == ["Likes coffee."]
    (old,) = store.archive
    assert old.fact.text == "Likes tea."
    assert old.superseded
    assert store.search_archive("tea", 3) == []
    (recall,) = store.search_archive("tea", 3, include_superseded=True)
    assert recall.fact.text == "Likes tea."
    assert recall.superseded


@pytest.mark.parametrize("source", ["stated", "confirmed"])
def test_a_correction_lifts_a_hard_constraint_only_once_the_user_confirmed_it(
    open_store: OpenStore, source: FactSource
) -> None:
    # "Actually I just dislike them" would lift a safety constraint: the user's yes to the
    # robot's question (source confirmed) is what lets it; a stated correction alone does not
    store = open_store(history_capacity=1)
    store.write(turn("no nuts", claim("Allergic to nuts.", "hard_constraint", "allergy.nut")))
    lifted = claim("Dislikes nuts (not allergic).", "preference", "allergy.nut", source)
    store.write(
        turn("actually I just dislike them", lifted.model_copy(update={"correction": True}))
    )
    assert texts(store.read("nuts").facts) == [
        "Dislikes nuts (not allergic)." if source == "confirmed" else "Allergic to nuts."
    ]
    store.write(turn("ok"))
    kept, dropped = (
        ("Dislikes nuts (not allergic).", "Allergic to nuts.")
        if source == "confirmed"
        else ("Allergic to nuts.", "Dislikes nuts (not allergic).")
    )
    assert texts(store.core) == [kept]
    assert [r.fact.text for r in store.archive if r.superseded] == [dropped]


def test_a_hard_constraint_replaces_another_without_asking(open_store: OpenStore) -> None:
    # a constraint restated in other terms lifts nothing: "I can't have nuts" after "I'm
    # allergic to nuts" keeps the slot a hard constraint
    store = open_store(history_capacity=1)
    store.write(turn("nut allergy", claim("Allergic to nuts.", "hard_constraint", "food.nuts")))
    restated = claim("Does not want nuts.", "hard_constraint", "food.nuts", correction=True)
    store.write(turn("actually I just can't have them", restated))
    store.write(turn("ok"))
    assert texts(store.core) == ["Does not want nuts."]


def test_a_soft_statement_without_correction_does_not_replace_a_hard_constraint(
    open_store: OpenStore,
) -> None:
    store = open_store(history_capacity=1)
    store.write(turn("lactose", claim("Lactose intolerant: no milk.", "hard_constraint", "milk")))
    store.write(turn("milk please", claim("Wants milk in coffee.", "preference", "milk")))
    store.write(turn("ok"))
    assert texts(store.core) == ["Lactose intolerant: no milk."]
    (loser,) = store.archive
    assert loser.fact.text == "Wants milk in coffee."
    assert loser.superseded


def test_the_robots_guesses_never_reach_core_memory_or_the_archive(open_store: OpenStore) -> None:
    store = open_store(history_capacity=1, core_budget_chars=10)
    store.write(
        turn(
            "bring my usual",
            claim("The usual is probably tea.", "preference", "drink", source="inferred"),
            claim("Wants a drink now.", source="stated"),
        )
    )
    assert texts(store.read("usual tea drink").facts) == ["Wants a drink now."]
    store.write(turn("ok"))
    store.write(turn("ok"))
    kept = [*store.core, *(record.fact for record in store.archive)]
    assert texts(kept) == ["Wants a drink now."]
    assert "probably tea" not in store.read("usual tea drink").text


def test_the_guard_filters_what_an_injected_summariser_returns(open_store: OpenStore) -> None:
    def summariser(traces: Sequence[TurnTrace]) -> list[object]:
        (trace,) = traces
        base = {"turn": trace.turn, "timestamp": 0.0, "domain": "general"}
        return [
            Fact(text="Summarised: wants tea.", kind="preference", source="stated", **base),
            Fact(text="Guess: is sleepy.", source="inferred", **base),
            Fact(text="From a turn not given.", source="stated", turn=99, timestamp=0, domain="x"),
            "not a fact",
        ]

    store = open_store(history_capacity=1, summariser=summariser)
    store.write(turn("tea please", claim("Wants tea.", "preference")))
    store.write(turn("ok"))
    assert texts(store.core) == ["Summarised: wants tea."]
    assert not store.archive


def test_a_failing_summariser_falls_back_to_extracting_the_stated_facts(
    open_store: OpenStore,
) -> None:
    def summariser(traces: Sequence[TurnTrace]) -> list[Fact]:
        raise TimeoutError("model too slow")

    store = open_store(history_capacity=1, summariser=summariser)
    store.write(turn("I'm Bo", claim("Name: Bo.", "identifier", "user.name")))
    store.write(turn("ok"))
    assert texts(store.core) == ["Name: Bo."]


# -- an unidentified speaker ---------------------------------------------------------------------


def test_an_unidentified_speakers_facts_hold_for_their_conversation_only(
    open_store: OpenStore, db_path: Path
) -> None:
    store = open_store(history_capacity=1)
    allergy = claim("The user is allergic to peanuts.", "hard_constraint", "food.Peanuts")
    stored = store.write(turn("I'm allergic to peanuts", allergy), speaker_known=False)
    assert stored.claims == (allergy,) and store.history[-1].claims == ()
    store.write(turn("thanks"), speaker_known=False)  # H moves on: still heeded
    assert texts(store.read("peanuts").facts) == ["The user is allergic to peanuts."]
    assert store.core == ()
    with MemoryStore(db_path) as other:  # nothing of it is in the file
        assert texts(other.read("peanuts").facts) == []
    store.begin_conversation()
    assert texts(store.read("peanuts").facts) == []


def test_an_unidentified_speaker_never_takes_away_the_users_facts(open_store: OpenStore) -> None:
    store = open_store(history_capacity=1)
    store.write(turn("no nuts", claim("Allergic to nuts.", "hard_constraint", "allergy.nut")))
    store.write(turn("ok"))
    liked = claim("Likes nuts.", "preference", "allergy.nut", "confirmed", correction=True)
    allergy = claim("Allergic to nuts.", "hard_constraint", "allergy.nut", "confirmed")
    for said in (liked, allergy.withdrawn()):
        store.write(turn("I'm no longer allergic to nuts", said), speaker_known=False)
    vegan = claim("Vegan.", "hard_constraint", "diet.vegan")
    store.write(turn("and I'm vegan", vegan), speaker_known=False)
    assert sorted(texts(store.read("nuts vegan").facts)) == ["Allergic to nuts.", "Vegan."]


# -- A: archive retrieval -------------------------------------------------------------------------

TOPICS = [
    "Allergic to peanuts and peanut butter.",
    "Prefers jasmine tea in the afternoon.",
    "Keeps the reading glasses on the bedside table.",
    "Daughter Mia visits on Sundays.",
    "Takes blood pressure tablets after breakfast.",
    "Likes the window open at night.",
    "Favourite football team is Napoli.",
    "Waters the basil on the kitchen windowsill.",
]


def fill_archive(store: MemoryStore, facts: Sequence[str]) -> None:
    """Archive every fact: with a 1-character core budget nothing stays in C."""
    for text in facts:
        store.write(turn("...", claim(text)))
    store.write(turn("..."))


def test_archive_search_returns_the_k_most_relevant_facts_best_first(open_store: OpenStore) -> None:
    store = open_store(history_capacity=1, core_budget_chars=1)
    fill_archive(store, TOPICS)
    assert len(store.archive) == len(TOPICS)
    (best,) = store.search_archive("can she eat peanut butter?", 1)
    assert best.fact.text == TOPICS[0]
    top = store.search_archive("tea in the kitchen", 3)
    assert {recall.fact.text for recall in top} == {TOPICS[1], TOPICS[7]}  # no other overlap
    assert [recall.score for recall in top] == sorted((r.score for r in top), reverse=True)
    assert store.search_archive("quantum chromodynamics", 3) == []


def test_archive_search_finds_facts_whether_settled_or_freshly_archived(
    open_store: OpenStore,
) -> None:
    store = open_store(history_capacity=1, core_budget_chars=1)
    filler = [f"routine note {n} about chores number {n}" for n in range(MIN_FRESH + 10)]
    fill_archive(store, [TOPICS[2], *filler])  # more than the fresh tier holds: merged
    fill_archive(store, [TOPICS[5]])  # archived after the merge: in the fresh tier
    assert store.search_archive("where are my reading glasses", 1)[0].fact.text == TOPICS[2]
    assert store.search_archive("open the window at night", 1)[0].fact.text == TOPICS[5]


class KeywordEmbedder:
    """A deterministic stand-in for an embedding model: one dimension per keyword."""

    WORDS = ("peanut", "tea", "glasses", "window", "basil", "mia")

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def __call__(self, texts: Sequence[str]) -> list[list[float]]:
        self.embedded += texts
        return [[float(word in text.lower()) + 0.01 for word in self.WORDS] for text in texts]


def test_an_injected_embedder_replaces_tfidf_and_embeds_each_archived_fact_once(
    open_store: OpenStore,
) -> None:
    embedder = KeywordEmbedder()
    store = open_store(history_capacity=1, core_budget_chars=1, embedder=embedder)
    fill_archive(store, TOPICS + [f"filler {n}" for n in range(MIN_FRESH + 5)])
    archived = [record.fact.text for record in store.archive]
    assert len(archived) == len(set(archived)) == len(TOPICS) + MIN_FRESH + 5
    assert sorted(embedder.embedded) == sorted(archived)  # once each, though the tiers merged
    embedder.embedded.clear()
    assert store.search_archive("glasses", 1)[0].fact.text == TOPICS[2]
    assert embedder.embedded == ["glasses"]  # the query, once for both tiers


def test_a_failing_embedder_fails_the_write_and_changes_nothing(
    open_store: OpenStore, db_path: Path
) -> None:
    calls = {"n": 0}

    def embedder(texts: Sequence[str]) -> list[list[float]]:
        calls["n"] += 1
        if calls["n"] > 1:
            raise ConnectionError("ollama is not running")
        return [[1.0] for _ in texts]

    store = open_store(history_capacity=1, core_budget_chars=1, embedder=embedder)
    fill_archive(store, ["first fact"])
    store.write(turn("...", claim("second fact")))
    before = dump(db_path)
    with pytest.raises(MemoryStoreError, match="embedder"):
        store.write(turn("..."))
    assert dump(db_path) == before
    assert [trace.user for trace in store.history] == ["..."]
    assert [record.fact.text for record in store.archive] == ["first fact"]


# -- read(): the working context ------------------------------------------------------------------


def test_read_gives_facts_recent_turns_and_relevant_archived_facts(open_store: OpenStore) -> None:
    store = open_store(history_capacity=2, core_budget_chars=60)
    store.write(turn("I'm Ana", claim("The user is Ana.", "identifier", "user.name")))
    for text in TOPICS:
        store.write(turn("...", claim(text)))
    store.write(turn("hello", robot="Hello Ana!"))
    context = store.read("can I have peanut butter?", k=2)
    assert context.text.startswith("Known facts:\n- [identifier] The user is Ana.")
    assert "Recent turns:" in context.text
    assert "- user: hello | robot: Hello Ana!" in context.text
    assert [recall.fact.text for recall in context.recalled] == [TOPICS[0]]
    assert f"Recalled from earlier:\n- [other] {TOPICS[0]}" in context.text
    assert [trace.user for trace in context.history] == ["...", "hello"]
    assert context.chars == len(context.text) <= 2000


def test_read_applies_a_correction_still_in_recent_history(open_store: OpenStore) -> None:
    store = open_store(history_capacity=2)
    store.write(turn("tea", claim("Likes tea.", "preference", "drink")))
    store.write(turn("x"))
    store.write(turn("x"))  # "Likes tea." is now core
    store.write(turn("no, coffee", claim("Likes coffee.", "preference", "drink", correction=True)))
    assert texts(store.core) == ["Likes tea."]  # not consolidated yet
    context = store.read("what do I drink?")
    assert texts(context.facts) == ["Likes coffee."]
    assert "Likes tea" not in context.text


def test_read_prefers_a_hard_constraint_over_a_newer_soft_wish(open_store: OpenStore) -> None:
    store = open_store(history_capacity=3)
    store.write(turn("lactose", claim("Lactose intolerant: no milk.", "hard_constraint", "milk")))
    store.write(turn("milk", claim("Would love milk in the coffee.", "preference", "milk")))
    context = store.read("coffee with milk")
    assert texts(context.facts) == ["Lactose intolerant: no milk."]


def test_read_weighs_an_archived_rival_the_request_did_not_retrieve(open_store: OpenStore) -> None:
    store = open_store(history_capacity=1, core_budget_chars=1)
    store.write(turn("nuts", claim("Severe nut allergy.", "hard_constraint", "allergy.nut")))
    store.write(turn("snack", claim("Fancies a walnut cake.", "preference", "allergy.nut")))
    context = store.read("something sweet", k=0)
    assert texts(context.facts) == []
    assert [recall.fact.text for recall in context.recalled] == ["Severe nut allergy."]


@pytest.mark.parametrize("core_budget", [200, 25], ids=["all-in-core", "some-archived"])
def test_read_never_repeats_a_fact(open_store: OpenStore, core_budget: int) -> None:
    store = open_store(history_capacity=2, core_budget_chars=core_budget)
    store.write(turn("a", claim("Prefers the window open.")))
    store.write(turn("b", claim("prefers the window OPEN")))  # same text, loosely
    store.write(turn("c", claim("Waters the basil daily.", slot="plants")))
    store.write(turn("d", claim("waters the basil daily", slot="chores")))  # other key, same text
    store.write(turn("e"))
    store.write(turn("f"))
    context = store.read("open window basil", k=5)
    shown = texts(context.facts) + [recall.fact.text for recall in context.recalled]
    assert sorted(s.lower().rstrip(".") for s in shown) == [
        "prefers the window open",
        "waters the basil daily",
    ]


def test_read_never_exceeds_the_budget_and_keeps_the_most_important_items(
    open_store: OpenStore,
) -> None:
    store = open_store(history_capacity=2, core_budget_chars=200)
    store.write(turn("pref", claim("Likes jazz.", "preference")))
    store.write(turn("name", claim("Name: Ana.", "identifier")))
    store.write(turn("nuts", claim("No nuts ever.", "hard_constraint")))
    store.write(turn("a long request " * 20, robot="a long answer " * 20))
    store.write(turn("x"))
    full = store.read("jazz")
    assert texts(full.facts) == ["Name: Ana.", "No nuts ever.", "Likes jazz."]
    for budget in range(len(full.text) + 5):
        context = store.read("jazz", budget=budget)
        assert len(context.text) <= budget
        assert set(texts(context.facts)) <= set(texts(full.facts))
        assert len(context.facts) + len(context.history) + context.omitted == 5
    assert store.read("jazz", budget=len(full.text)).text == full.text
    small = store.read("jazz", budget=len("Known facts:\n- [identifier] Name: Ana."))
    assert texts(small.facts) == ["Name: Ana."]
    assert small.omitted > 0
    assert store.read("jazz", budget=0).text == ""


def test_long_turns_are_clipped_in_the_context(open_store: OpenStore) -> None:
    store = open_store(history_line_chars=20)
    store.write(turn("word " * 50, robot="reply " * 50))
    line = store.read("").text.splitlines()[1]
    assert line == "- user: word word word word… | robot: reply reply reply r…"


# -- persistence ----------------------------------------------------------------------------------

WRITER = """
import sys
from cogtree.knowledge.memory.store import MemoryConfig, MemoryStore
from cogtree.knowledge.memory.model import Claim, TurnTrace

config = MemoryConfig(history_capacity=2, core_budget_chars=40)
with MemoryStore(sys.argv[1], config=config) as store:
    store.write(TurnTrace(user="I'm Ana", domain="advisor", claims=(
        Claim(text="The user is Ana.", kind="identifier", slot="user.name", source="stated"),)))
    store.write(TurnTrace(user="tea", claims=(
        Claim(text="Likes tea.", kind="preference", slot="drink", source="stated"),)))
    store.write(TurnTrace(user="nuts", claims=(
        Claim(text="Allergic to peanuts.", kind="hard_constraint", source="stated"),)))
    store.write(TurnTrace(user="coffee", claims=(
        Claim(text="Likes coffee.", kind="preference", slot="drink", source="stated",
              correction=True),)))
    store.write(TurnTrace(user="plants", claims=(
        Claim(text="Waters the basil daily.", source="stated"),)))
    store.write(TurnTrace(user="bye", robot="See you!"))
"""

READER = """
import json, sys
from cogtree.knowledge.memory.store import MemoryConfig, MemoryStore

config = MemoryConfig(history_capacity=2, core_budget_chars=40)
with MemoryStore(sys.argv[1], config=config) as store:
    print(json.dumps({
        "history": [[t.turn, t.user, t.robot] for t in store.history],
        "core": [[f.text, f.domain] for f in store.core],
        "archive": [[r.fact.text, r.superseded] for r in store.archive],
        "recall": [r.fact.text for r in store.search_archive("coffee or tea", 3)],
        "context": store.read("which coffee do I like?").text,
    }))
"""


def run_python(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120
    )


def test_a_new_process_restores_history_core_and_archive(db_path: Path) -> None:
    written = run_python(WRITER, str(db_path))
    assert written.returncode == 0, written.stderr
    read = run_python(READER, str(db_path))
    assert read.returncode == 0, read.stderr
    state = json.loads(read.stdout)
    assert state["history"] == [[5, "plants", ""], [6, "bye", "See you!"]]
    assert state["core"] == [["The user is Ana.", "advisor"], ["Allergic to peanuts.", "general"]]
    # the correction superseded tea; coffee then lost its place in C to firmer facts
    assert state["archive"] == [["Likes tea.", True], ["Likes coffee.", False]]
    assert state["recall"] == ["Likes coffee."]
    assert state["context"].splitlines() == [
        "Known facts:",
        "- [identifier] The user is Ana.",
        "- [hard constraint] Allergic to peanuts.",
        "- [other] Waters the basil daily.",  # still in H, not yet consolidated
        "Recent turns:",
        "- user: plants",
        "- user: bye | robot: See you!",
        "Recalled from earlier:",
        "- [preference] Likes coffee.",
    ]


CRASHER = """
import os, sys
from cogtree.knowledge.memory import db as memory_db
from cogtree.knowledge.memory.store import MemoryConfig, MemoryStore
from cogtree.knowledge.memory.model import Claim, TurnTrace

def die(self, records):
    os._exit(7)  # the process dies inside the transaction, after the trace was inserted

with MemoryStore(sys.argv[1], config=MemoryConfig(history_capacity=1)) as store:
    store.write(TurnTrace(user="first", claims=(Claim(text="Name: Ana.", source="stated"),)))
    memory_db.MemoryDatabase._upsert_facts = die
    store.write(TurnTrace(user="second"))
"""


def test_a_crash_in_the_middle_of_a_write_loses_only_that_turn(
    db_path: Path, open_store: OpenStore
) -> None:
    crashed = run_python(CRASHER, str(db_path))
    assert crashed.returncode == 7, crashed.stderr
    store = open_store(history_capacity=1)
    assert [(trace.turn, trace.user) for trace in store.history] == [(1, "first")]
    assert not store.core
    assert store.write(turn("again")).turn == 2


def test_an_error_in_the_middle_of_a_write_leaves_file_and_store_as_before(
    open_store: OpenStore, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store(history_capacity=1, core_budget_chars=12)
    store.write(turn("one", claim("Name: Ana.", "identifier")))
    store.write(turn("two", claim("Likes jazz.", "preference")))
    before = dump(db_path)
    state = (store.history, store.core, store.archive)

    def fail(self: MemoryDatabase, records: object) -> None:
        raise RuntimeError("injected failure")

    monkeypatch.setattr(MemoryDatabase, "_upsert_facts", fail)
    with pytest.raises(RuntimeError, match="injected"):
        store.write(turn("three"))
    assert dump(db_path) == before
    assert (store.history, store.core, store.archive) == state
    monkeypatch.undo()
    assert store.write(turn("three")).turn == 3
    assert texts(store.core) == ["Name: Ana."]


def test_two_stores_on_one_file_lose_nothing_and_number_turns_in_order(
    open_store: OpenStore,
) -> None:
    first = open_store(history_capacity=2)
    second = open_store(history_capacity=2)
    for index in range(3):
        first.write(turn(f"a{index}", claim(f"Fact a{index}.")))
        second.write(turn(f"b{index}", claim(f"Fact b{index}.")))
    assert [trace.turn for trace in second.history] == [5, 6]
    fresh = open_store(history_capacity=2)
    assert [(trace.turn, trace.user) for trace in fresh.history] == [(5, "a2"), (6, "b2")]
    assert texts(fresh.core) == [f"Fact {side}{index}." for index in (0, 1) for side in "ab"]
    assert first.write(turn("a3")).turn == 7


CONCURRENT_WRITER = """
import pathlib, sys, time
from cogtree.knowledge.memory.store import MemoryConfig, MemoryStore
from cogtree.knowledge.memory.model import Claim, TurnTrace

name, turns, start = sys.argv[2], int(sys.argv[3]), pathlib.Path(sys.argv[4])
config = MemoryConfig(history_capacity=3, core_budget_chars=100_000, busy_timeout_s=30)
with MemoryStore(sys.argv[1], config=config) as store:
    print("open", flush=True)  # both stores have read the file before either writes
    while not start.exists():
        time.sleep(0.01)
    for index in range(turns):
        claim = Claim(text=f"Fact {name}{index}.", source="stated")
        store.write(TurnTrace(user=f"{name}{index}", claims=(claim,)))
        time.sleep(0.005)  # let the other process in between
"""


def test_two_processes_writing_one_file_lose_nothing(
    db_path: Path, open_store: OpenStore, tmp_path: Path
) -> None:
    start = tmp_path / "start"
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", CONCURRENT_WRITER, str(db_path), name, "25", str(start)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("a", "b")
    ]
    for writer in writers:
        assert writer.stdout is not None and writer.stderr is not None
        line = writer.stdout.readline()
        assert line == "open\n", writer.stderr.read()  # a writer that could not open says why
    start.touch()
    for writer in writers:
        _, errors = writer.communicate(timeout=120)
        assert writer.returncode == 0, errors
    store = open_store(history_capacity=3, core_budget_chars=100_000)
    turns = [trace.turn for trace in store.history]
    assert turns == [48, 49, 50]
    facts = texts(store.core) + [fact.text for fact in extract_facts(store.history)]
    assert sorted(facts) == sorted(f"Fact {name}{index}." for name in "ab" for index in range(25))


# -- locked and corrupt databases -----------------------------------------------------------------


def _busy() -> sqlite3.OperationalError:
    """What SQLite raises at once, without its busy timeout, while another opener holds the file."""
    error = sqlite3.OperationalError("database is locked")
    error.sqlite_errorname = "SQLITE_BUSY"  # type: ignore[attr-defined]
    return error


def test_opening_tries_again_while_another_opener_holds_the_file(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tries: list[int] = []
    prepare = MemoryDatabase._prepare

    def busy_once(database: MemoryDatabase) -> None:
        tries.append(1)
        if len(tries) == 1:
            raise _busy()
        prepare(database)

    monkeypatch.setattr(MemoryDatabase, "_prepare", busy_once)
    database = MemoryDatabase(db_path, busy_timeout_s=5.0)
    try:
        assert len(tries) == 2 and database.load().last_turn == 0
    finally:
        database.close()


def test_opening_a_file_held_past_the_busy_timeout_fails_clearly(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def always_busy(database: MemoryDatabase) -> None:
        raise _busy()

    monkeypatch.setattr(MemoryDatabase, "_prepare", always_busy)
    with pytest.raises(MemoryStoreError, match="locked by another connection"):
        MemoryDatabase(db_path, busy_timeout_s=0.1)


def test_a_locked_database_fails_the_write_clearly_and_writes_nothing(
    open_store: OpenStore, db_path: Path
) -> None:
    store = open_store(busy_timeout_s=0.05)
    store.write(turn("first"))
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # holds the write lock
    try:
        with pytest.raises(MemoryStoreError) as raised:
            store.write(turn("second"))
    finally:
        other.execute("ROLLBACK")
        other.close()
    message = str(raised.value)
    assert str(db_path) in message
    assert "locked" in message
    assert "busy_timeout_s" in message
    assert [trace.user for trace in store.history] == ["first"]
    assert store.write(turn("second")).turn == 2
    assert [trace.user for trace in open_store().history] == ["first", "second"]


def test_a_file_that_is_not_a_database_is_refused_and_left_untouched(db_path: Path) -> None:
    db_path.write_bytes(b"these are my notes, not a database\n" * 200)
    with pytest.raises(MemoryStoreError) as raised:
        MemoryStore(db_path)
    assert str(db_path) in str(raised.value)
    assert "move the file aside" in str(raised.value)
    assert db_path.read_bytes() == b"these are my notes, not a database\n" * 200


def test_a_database_failing_the_integrity_check_is_refused(db_path: Path) -> None:
    with MemoryStore(db_path, config=MemoryConfig(history_capacity=1)) as store:
        store.write(turn("hi", claim("Name: Ana.")))
        store.write(turn("ok"))
    connection = sqlite3.connect(db_path)
    connection.execute("CREATE INDEX by_turn ON facts(turn)")
    connection.execute("PRAGMA writable_schema=ON")  # make the index disagree with its table
    connection.execute(
        "UPDATE sqlite_master SET sql = 'CREATE INDEX by_turn ON facts(domain)' "
        "WHERE name = 'by_turn'"
    )
    connection.commit()
    connection.close()
    with pytest.raises(MemoryStoreError, match="integrity_check") as raised:
        MemoryStore(db_path)
    assert str(db_path) in str(raised.value)


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        ("CREATE TABLE notes (body TEXT)", "not a cogtree memory store"),
        (f"PRAGMA user_version = {SCHEMA_VERSION + 1}", "schema version"),
        (f"CREATE TABLE facts (id INTEGER); PRAGMA user_version = {SCHEMA_VERSION}", "columns"),
    ],
)
def test_a_database_with_another_schema_is_refused(
    db_path: Path, setup: str, expected: str
) -> None:
    connection = sqlite3.connect(db_path)
    connection.executescript(f"CREATE TABLE IF NOT EXISTS x (y); {setup};")
    connection.close()
    with pytest.raises(MemoryStoreError, match=expected) as raised:
        MemoryStore(db_path)
    assert str(db_path) in str(raised.value)


def test_a_row_edited_outside_cogtree_is_refused(open_store: OpenStore, db_path: Path) -> None:
    store = open_store(history_capacity=1)
    store.write(turn("hi", claim("Name: Ana.", "identifier")))
    store.write(turn("ok"))
    store.close()
    connection = sqlite3.connect(db_path)
    connection.execute("UPDATE facts SET kind = 'rumour'")
    connection.commit()
    connection.close()
    with pytest.raises(MemoryStoreError, match="id 1 of table facts is invalid"):
        MemoryStore(db_path)


def test_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(MemoryStoreError, match="folder exists"):
        MemoryStore(tmp_path / "no" / "such" / "memory.db")


# -- bad input ------------------------------------------------------------------------------------


def test_bad_inputs_are_refused_with_a_reason(open_store: OpenStore) -> None:
    store = open_store()
    store.write(turn("hi"))
    with pytest.raises(ValueError, match="leave turn unset"):
        store.write(TurnTrace(user="replayed", turn=1))
    with pytest.raises(ValueError, match="must not be negative"):
        store.read("x", budget=-1)
    with pytest.raises(ValidationError):
        claim("   ")
    with pytest.raises(ValidationError):
        MemoryConfig(history_capacity=0)
    assert store.read("").recalled == ()
    store.close()
    with pytest.raises(MemoryStoreError, match="closed"):
        store.read("x")
