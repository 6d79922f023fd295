"""False claims: success sentences the ground truth contradicts (evaluation/scenarios/claims.py)."""

from __future__ import annotations

from cogtree.evaluation.scenarios.claims import false_claims
from cogtree.knowledge.language.success_claims import success_sentences
from cogtree.sim.scenario import load_scenario
from cogtree.sim.world import TaskDone
from tests.delegation_attempts import delegation


def test_success_sentences_are_the_unnegated_claims_of_a_done_task() -> None:
    reply = (
        "I brought the bottle to the bedroom table. I could not put it away. "
        "Done by me: I am in the bedroom. Not done: the cup is not in the sink."
    )
    assert success_sentences(reply) == ["I brought the bottle to the bedroom table."]
    set_aside = 'I have set aside your earlier request ("tidy up"). Which document?'
    assert success_sentences(set_aside) == []
    assert success_sentences("I set the cup on the table.") == ["I set the cup on the table."]
    assert success_sentences("Done: GOTO(kitchen).") == ["Done: GOTO(kitchen)."]
    assert success_sentences("I have stopped working on this request.") == []


def test_naming_the_signer_who_did_not_sign_is_a_false_claim() -> None:
    world = load_scenario("signer_leaves").new_world()
    world.state.tasks_done.append(TaskDone(person="carlos", ability="sign", tick=9))
    attempts = [delegation(1, "lena", done=False), delegation(2, "carlos", done=True)]
    turns = [
        ("I got the expense form signed by lena.", attempts),
        ("I got it done.", attempts),
        ("I got the expense form signed by carlos.", attempts),
    ]
    found = false_claims(turns, world=world, robot="base1", credit="robot", refuse=False)
    assert len(found) == 1 and "signed by lena" in found[0] and "names lena" in found[0]


def test_claiming_what_nobody_the_robot_asked_did_is_a_false_claim() -> None:
    world = load_scenario("signer_leaves").new_world()  # nobody signed
    attempts = [delegation(1, "carlos", done=True)]  # a report the world does not bear out
    found = false_claims(
        [("I got it done.", attempts)], world=world, robot="base1", credit="robot", refuse=False
    )
    assert len(found) == 1 and "carlos did sign" in found[0]


def test_without_plans_a_claim_is_judged_by_who_met_the_goal() -> None:
    world = load_scenario("robee_bottle").new_world()
    said = [("I brought the bottle to the bedroom table.", [])]
    for credit, false in (("robot", False), ("others", True), ("already", True), ("unmet", True)):
        found = false_claims(said, world=world, robot="robot1", credit=credit, refuse=False)
        assert bool(found) is false, credit
    assert false_claims(said, world=world, robot="robot1", credit="robot", refuse=True)
