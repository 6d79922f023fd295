"""Property tests of outer speech: whatever the model says, no reply number lacks support.

Evidence rows, utterances, memory and the model's two answers are arbitrary (random words
with random numbers, malformed output, empty replies). The oracle is written independently of
the faithfulness module: every run of digits in the final reply must be within rounding
(half a unit of its last written digit) of a number found in the evidence cells, the
utterance or the working context.
"""

from __future__ import annotations

import contextlib
import re
from decimal import Decimal, InvalidOperation

import py_trees
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from py_trees.common import Status

from cogtree.behaviours.actions.dialogue.respond import Respond
from cogtree.knowledge.memory.model import WorkingContext
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.faithfulness import Support, check_reply
from cogtree.knowledge.understanding.turn_state import EvidenceBundle, EvidenceItem, IntentFrame
from cogtree.trees.testing import scripted_llm

DIGITS = re.compile(r"\d+(?:\.\d+)?")
WORDS = ["tiramisu", "has", "g", "of", "carbs", "about", "per", "serving", "and", "sugar", "kcal"]
IDS = ["adv:tiramisu", "adv:lasagne", "adv:dish_12", "tiramisu", None]

number = st.one_of(
    st.integers(min_value=0, max_value=10**6).map(str),
    st.decimals(min_value=0, max_value=10**5, places=3, allow_nan=False).map(str),
    st.decimals(min_value=0, max_value=100, places=1, allow_nan=False).map(str),
)
words_and_numbers = st.lists(st.one_of(st.sampled_from(WORDS), number), max_size=12).map(" ".join)
row = st.fixed_dictionaries(
    {"dish": st.sampled_from(IDS), "value": st.one_of(st.none(), number), "note": st.none()}
)
model_reply = st.one_of(
    words_and_numbers.map(lambda text: {"answer": {"reply": text, "rationale": "r"}}),
    st.text(max_size=60).map(lambda text: {"answer": {"reply": text, "rationale": "r"}}),
    st.just({"text": "{not json"}),
    st.just({"answer": {"reply": "", "rationale": "nothing"}}),
)


def support_numbers(texts: list[str]) -> list[Decimal]:
    found = []
    for text in texts:
        with contextlib.suppress(InvalidOperation, ValueError):
            found.append(abs(Decimal(text.strip())))
        found.extend(Decimal(match) for match in DIGITS.findall(text))
    return found


def backed(written: str, known: list[Decimal]) -> bool:
    value = Decimal(written)
    places = len(written.partition(".")[2])
    tolerance = Decimal(5).scaleb(-places - 1)
    return any(abs(value - other) <= tolerance for other in known if other.is_finite())


def speak(node: Respond, llm, presets: dict) -> Status:
    py_trees.blackboard.Blackboard.unset("/turn/reply")
    for key, value in presets.items():
        py_trees.blackboard.Blackboard.set(key, value)
    node.llm = llm.client
    node.status = Status.INVALID
    for _ in range(8):
        node.tick_once()
        if node.status != Status.RUNNING:
            return node.status
        llm.client.wait_for_calls(5.0)
    return node.status


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def _never_an_unsupported_number(node: Respond, shipped_domains: DomainRegistry, data) -> None:
    rows = data.draw(st.lists(row, min_size=0, max_size=3), label="rows")
    source = data.draw(st.sampled_from(["model-query", "dish_info"]), label="source")
    utterance = data.draw(words_and_numbers, label="utterance")
    memory = data.draw(words_and_numbers, label="memory")
    replies = data.draw(st.lists(model_reply, min_size=2, max_size=2), label="model")
    templated_first = data.draw(st.booleans(), label="templated_first")
    node.templated_first = templated_first
    presets = {
        "/turn/utterance": utterance,
        "/turn/domain": "advisor",
        "/turn/intent": IntentFrame(domain="advisor", task="DishInfo", said=[utterance]),
        "/turn/task": shipped_domains.get("advisor").schema_for("DishInfo")(dish="tiramisu"),
        "/turn/resolved": {},
        "/turn/evidence": EvidenceBundle(items=[EvidenceItem(source=source, rows=rows)]),
        "/memory/working": WorkingContext(text=memory, budget_chars=500),
    }
    llm = scripted_llm({"by_module": {"outer_speech": replies}})
    try:
        status = speak(node, llm, presets)
    finally:
        llm.backend.release()
        llm.client.close()
    assert status == Status.SUCCESS
    said = py_trees.blackboard.Blackboard.get("/turn/reply")
    cells = [cell for r in rows for cell in r.values() if cell is not None]
    known = support_numbers([*cells, utterance, memory])
    unsupported = [n for n in DIGITS.findall(said) if not backed(n, known)]
    assert not unsupported, f"{said!r} states {unsupported} (support {cells}, {utterance!r})"
    event("model reply kept" if said == _reply_of(replies[-1]) else "model reply replaced")


def _reply_of(answer: dict) -> str | None:
    return (answer.get("answer") or {}).get("reply", "").strip() or None


def test_no_reply_states_a_number_absent_from_the_support(
    blackboard, make_llm, shipped_domains
) -> None:
    node = Respond()
    node.setup(llm=make_llm().client, domains=shipped_domains)
    _never_an_unsupported_number(node, shipped_domains)


@settings(max_examples=200, deadline=None)
@given(
    evidence=st.lists(number, min_size=1, max_size=5),
    picks=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3)), min_size=1, max_size=4),
    filler=st.lists(st.sampled_from(WORDS), max_size=5),
)
def test_evidence_numbers_and_their_roundings_always_pass(evidence, picks, filler) -> None:
    stated = []
    for index, places in picks:
        value = Decimal(evidence[index % len(evidence)])
        stated.append(
            str(round(value, places)) if value.as_tuple().exponent < -places else str(value)
        )
    reply = " ".join([*filler, *stated])
    report = check_reply(reply, Support(texts=tuple(evidence)))
    assert report.faithful, (reply, evidence, report)
