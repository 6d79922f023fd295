"""The office pack against the office scenarios' beliefs: lexicons and slots."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogtree.knowledge.packs.domain_pack import DomainPack
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.lexicon import Lexicon, build_lexicons
from cogtree.knowledge.understanding.slot_filling import fill_slots
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario


@pytest.fixture(scope="module")
def pack() -> DomainPack:
    return DomainRegistry.discover(only=["office"]).get("office")


def scenario_lexicons(pack: DomainPack, name: str) -> Iterator[dict[str, Lexicon]]:
    executor = SimExecutor.from_scenario(load_scenario(name))
    assert executor.belief is not None
    yield build_lexicons(pack, executor.belief)
    executor.close()


@pytest.fixture(scope="module")
def print_agenda(pack: DomainPack) -> Iterator[dict[str, Lexicon]]:
    yield from scenario_lexicons(pack, "print_agenda")


@pytest.fixture(scope="module")
def signer_busy(pack: DomainPack) -> Iterator[dict[str, Lexicon]]:
    yield from scenario_lexicons(pack, "signer_busy")


def test_tasks_slots_and_plans_are_the_contract(pack: DomainPack) -> None:
    required = {
        task.name: [
            n for n, f in pack.schema_for(task.name).model_fields.items() if f.is_required()
        ]
        for task in pack.tasks
    }
    assert required == {
        "Deliver": ["item", "recipient"],
        "Print": ["document"],
        "GetSignature": ["document", "signer"],
        "Borrow": ["item"],
        "Assist": ["need"],
    }
    assert {task.name: list(task.slots) for task in pack.tasks} == {
        "Deliver": ["item", "recipient"],
        "Print": ["document", "helper", "destination"],
        "GetSignature": ["document", "signer"],
        "Borrow": ["item", "owner"],
        "Assist": ["need"],
    }
    deliver = pack.task("Deliver").plan
    assert deliver is not None and (deliver.task, deliver.args) == (
        "bring",
        {"object": "item", "to": "recipient"},
    )
    assert all(
        pack.task(name).plan is None for name in ("Print", "GetSignature", "Borrow", "Assist")
    )
    assert pack.task("Print").slots["document"].resolve == "text"
    assert pack.task("Borrow").slots["item"].resolve == "text"
    for task in pack.tasks:
        assert task.grounding == "physical" and task.reply and len(task.examples) >= 6
        for name, field in pack.schema_for(task.name).model_fields.items():
            assert field.description, (task.name, name)


def test_the_print_agenda_request(pack: DomainPack, print_agenda: dict[str, Lexicon]) -> None:
    request = load_scenario("print_agenda").request.text
    assert fill_slots(pack.task("Print"), request, print_agenda).slots == {
        "document": "agenda",
        "helper": "Priya",
        "destination": "the meeting room table",
    }


def test_the_signer_busy_request(pack: DomainPack, signer_busy: dict[str, Lexicon]) -> None:
    request = load_scenario("signer_busy").request.text
    assert fill_slots(pack.task("GetSignature"), request, signer_busy).slots == {
        "document": "this contract",
        "signer": "Dr Weber",
    }
    assert fill_slots(pack.task("Deliver"), request, signer_busy).slots == {
        "item": "this contract",
        "recipient": "Dr Weber",
    }


@pytest.mark.parametrize(
    ("task", "utterance", "expected"),
    [
        ("Deliver", "deliver the folder to Tom", {"item": "the folder", "recipient": "Tom"}),
        ("Deliver", "bring Marco the keys", {"recipient": "Marco"}),
        ("Deliver", "take this parcel to Priya", {"item": "this parcel", "recipient": "Priya"}),
        (
            "Print",
            "have Marco print out the budget, please",
            {"document": "budget", "helper": "Marco"},
        ),
        ("Print", "I need two copies of the minutes printed", {"document": "minutes"}),
        (
            "Print",
            "can you get the slides printed and put them on the meeting table",
            {"document": "slides", "destination": "the meeting table"},
        ),
        (
            "GetSignature",
            "ask Tom to sign the delivery note",
            {"document": "the delivery note", "signer": "Tom"},
        ),
        ("Borrow", "can I borrow Marco's charger", {"item": "charger", "owner": "Marco"}),
        (
            "Borrow",
            "go and borrow the stapler from Priya, thanks",
            {"item": "stapler", "owner": "Priya"},
        ),
        ("Borrow", "see if someone can lend me a phone charger", {"item": "phone charger"}),
    ],
)
def test_example_slots(
    pack: DomainPack,
    print_agenda: dict[str, Lexicon],
    task: str,
    utterance: str,
    expected: dict[str, object],
) -> None:
    assert utterance in pack.task(task).examples
    assert fill_slots(pack.task(task), utterance, print_agenda).slots == expected


def test_pronouns_fill_nothing(pack: DomainPack, print_agenda: dict[str, Lexicon]) -> None:
    assert fill_slots(pack.task("Print"), "print it for him", print_agenda).slots == {}
    assert fill_slots(pack.task("Deliver"), "take that to her", print_agenda).slots == {}


def test_signer_in_the_signer_busy_scene(pack: DomainPack, signer_busy: dict[str, Lexicon]) -> None:
    spec = pack.task("GetSignature")
    assert fill_slots(spec, "get the contract signed by Dr Weber", signer_busy).slots == {
        "document": "the contract",
        "signer": "Dr Weber",
    }
    assert fill_slots(spec, "could Weber sign the pen", signer_busy).slots == {
        "document": "the pen",
        "signer": "Weber",
    }
