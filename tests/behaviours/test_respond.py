"""Respond: outer speech from the evidence, templated first, the model held to the evidence.

Includes JANUS's Figure 4 through GenerateQuery -> RunQuery -> Respond on the advisor pack.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from py_trees.composites import Sequence

from cogtree.behaviours.actions.dialogue.respond import Respond
from cogtree.behaviours.actions.grounding.query_generation import GenerateQuery
from cogtree.behaviours.actions.grounding.run_query import RunQuery
from cogtree.knowledge.memory.model import WorkingContext
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.faithfulness import stated_numbers
from cogtree.knowledge.understanding.turn_state import (
    EvidenceBundle,
    EvidenceItem,
    IntentFrame,
    SlotResolution,
)
from cogtree.trees.testing import TreeHarness

FIGURE_4 = "How many carbohydrates are in tiramisu?"


def reply(text: str) -> dict:
    return {"answer": {"reply": text, "rationale": "from the evidence"}}


def dish_info(shipped_domains: DomainRegistry, utterance: str = FIGURE_4, **task) -> dict:
    return {
        "/turn/utterance": utterance,
        "/turn/domain": "advisor",
        "/turn/intent": IntentFrame(
            domain="advisor", task="DishInfo", slots={"dish": "tiramisu", "aspect": "carbs"}
        ),
        "/turn/resolved": {
            "dish": SlotResolution(slot="dish", said="tiramisu", kind="kg", ids=["tiramisu"]),
            "aspect": SlotResolution(
                slot="aspect", said="carbs", kind="value", ids=["carbohydrate"]
            ),
        },
        "/turn/task": shipped_domains.get("advisor").schema_for("DishInfo")(
            **({"dish": "tiramisu", "aspect": "carbohydrate"} | task)
        ),
    }


def model_rows(*rows: dict) -> EvidenceBundle:
    return EvidenceBundle(items=[EvidenceItem(source="model-query", query="SELECT", rows=rows)])


def respond(blackboard, llm, shipped_domains, presets, *, scene=None, ticks=1, **options):
    for key, value in presets.items():
        blackboard.set(key, value)
    node = Respond(**options)
    handles = {"domains": shipped_domains, **({"scene_graph": scene} if scene else {})}
    harness = TreeHarness(node, llm=llm.client, handles=handles)
    harness.tick(ticks)
    return harness.trace.letters("Respond"), blackboard.get("/rationale/respond")


def numbers(text: str) -> list[Decimal]:
    return [number.value for number in stated_numbers(text)]


# -- JANUS Figure 4 ------------------------------------------------------------------------------


def figure_4(blackboard, llm, shipped_domains, workers, **respond_options):
    for key, value in dish_info(shipped_domains).items():
        blackboard.set(key, value)
    root = Sequence("Inform", memory=True)
    root.add_children([GenerateQuery(), RunQuery(), Respond(**respond_options)])
    handles = {"domains": shipped_domains, "workers": workers}
    harness = TreeHarness(root, llm=llm.client, handles=handles)
    harness.tick_until(max_ticks=2000, period_s=0.005)
    assert harness.trace.letters("Inform").endswith("S")
    return harness


def test_figure_4_states_the_retrieved_value_and_only_that(
    blackboard, make_llm, shipped_domains, workers
):
    llm = make_llm()
    figure_4(blackboard, llm, shipped_domains, workers)
    assert llm.calls == []  # template, query and reply: no model at all
    query = blackboard.get("/turn/query")
    assert (query.source, query.template) == ("template", "dish_info")
    (item,) = blackboard.get("/turn/evidence").items
    (row,) = item.rows
    assert (item.source, row["topic"], row["dish"]) == ("dish_info", "carbohydrate", "adv:tiramisu")
    said = blackboard.get("/turn/reply")
    assert numbers(said) == [Decimal(row["value"])]
    assert said == f"Tiramisu has {row['value']} g of carbohydrate per serving."


def test_figure_4_an_invented_number_is_caught_revised_then_templated(
    blackboard, make_llm, shipped_domains, workers
):
    llm = make_llm(
        {
            "by_module": {
                "outer_speech": [
                    reply("Tiramisu has 32.7 g of carbohydrate, 12 g of it sugar."),
                    reply("Tiramisu has 32.7 g of carbohydrate, about 40 g in a large bowl."),
                ]
            }
        }
    )
    figure_4(blackboard, llm, shipped_domains, workers, templated_first=False)
    value = Decimal(blackboard.get("/turn/evidence").items[0].rows[0]["value"])
    assert value == Decimal("32.7")
    said = blackboard.get("/turn/reply")
    assert numbers(said) == [value]
    assert said == "Tiramisu has 32.7 g of carbohydrate per serving."
    assert [call.module for call in llm.calls] == ["outer_speech", "outer_speech"]
    feedback = llm.backend.requests[1].messages[-1].content
    assert "numbers 12" in feedback and "sugar" in feedback
    why = blackboard.get("/rationale/respond")
    assert why.vetoed and "numbers 40" in why.rationale
    assert any("asked the model to revise" in note for note in why.notes)


def test_figure_4_a_faithful_model_reply_is_kept(
    blackboard, make_llm, shipped_domains, workers
) -> None:
    text = "A serving of tiramisu has about 33 g of carbs."
    llm = make_llm({"by_module": {"outer_speech": [reply(text)]}})
    figure_4(blackboard, llm, shipped_domains, workers, templated_first=False)
    assert blackboard.get("/turn/reply") == text
    why = blackboard.get("/rationale/respond")
    assert why.source == "model" and not why.vetoed


# -- templated answers ---------------------------------------------------------------------------


def test_where_is_is_said_with_labels(blackboard, make_llm, shipped_domains, scene) -> None:
    rows = [{"object": "scene:mug_red", "label": "red mug", "where": "on the kitchen counter"}]
    presets = {
        "/turn/utterance": "where is my red mug",
        "/turn/domain": "household",
        "/turn/intent": IntentFrame(domain="household", task="WhereIs"),
        "/turn/task": shipped_domains.get("household").schema_for("WhereIs")(object=["mug_red"]),
        "/turn/evidence": EvidenceBundle(items=[EvidenceItem(source="where_is", rows=rows)]),
    }
    status, why = respond(blackboard, make_llm(), shipped_domains, presets, scene=scene)
    assert status == "S" and why.source == "fast_path"
    assert blackboard.get("/turn/reply") == "The red mug is on the kitchen counter."


def test_nothing_found_names_what_was_asked(blackboard, make_llm, shipped_domains, scene) -> None:
    presets = {
        "/turn/utterance": "where is my red mug",
        "/turn/domain": "household",
        "/turn/intent": IntentFrame(domain="household", task="WhereIs"),
        "/turn/task": shipped_domains.get("household").schema_for("WhereIs")(object=["mug_red"]),
        "/turn/evidence": EvidenceBundle(items=[EvidenceItem(source="where_is", query="q")]),
    }
    status, _ = respond(blackboard, make_llm(), shipped_domains, presets, scene=scene)
    assert status == "S"
    assert blackboard.get("/turn/reply") == "I could not find anything for object: the red mug."


def test_no_evidence_for_a_question_says_it_could_not_look(blackboard, make_llm, shipped_domains):
    status, _ = respond(blackboard, make_llm(), shipped_domains, dish_info(shipped_domains))
    assert status == "S"
    assert blackboard.get("/turn/reply") == (
        "I could not look that up (dish: tiramisu, aspect: carbohydrate)."
    )


def test_memory_evidence_is_noted_with_the_pack_template(blackboard, make_llm, shipped_domains):
    noted = EvidenceItem(source="memory", text="Anna is allergic to peanuts.")
    presets = {
        "/turn/utterance": "I'm allergic to peanuts",
        "/turn/domain": "advisor",
        "/turn/intent": IntentFrame(domain="advisor", task="AddToDatabase"),
        "/turn/evidence": EvidenceBundle(items=[noted]),
    }
    status, _ = respond(blackboard, make_llm(), shipped_domains, presets)
    assert status == "S"
    assert blackboard.get("/turn/reply") == "Noted. Anna is allergic to peanuts."


def test_a_plan_that_was_carried_out_is_said_with_the_pack_template(
    blackboard, make_llm, shipped_domains
) -> None:
    done = EvidenceItem(source="plan", text="Done: GOTO(kitchen), PICK(mug_red).", ok=True)
    presets = {
        "/turn/domain": "household",
        "/turn/intent": IntentFrame(domain="household", task="Fetch", slots={"object": "mug"}),
        "/turn/task": shipped_domains.get("household").schema_for("Fetch")(object="mug"),
        "/turn/evidence": EvidenceBundle(items=[done]),
    }
    status, _ = respond(blackboard, make_llm(), shipped_domains, presets)
    assert status == "S" and blackboard.get("/turn/reply") == "I brought you the mug."


BROUGHT_BY_OTHERS = EvidenceItem(
    source="plan",
    text="Done by me: I am in the bedroom. Not done: the bottle is not on the bedroom table.",
    ok=False,
    unclaimed=["bottle", "table_2"],
)
"""The outcome of RoBee's bottle when someone else carried it: the robot never held it."""

SIGNED_BY_ANOTHER = EvidenceItem(
    source="plan",
    text="Done by carlos: carlos did sign. Planned at first, not done: lena did not sign.",
    ok=True,
    unclaimed=["lena"],
)
"""The outcome of a signature Carlos gave when Lena was asked first."""


def bring_presets(shipped_domains, item: EvidenceItem) -> dict:
    task = shipped_domains.get("household").schema_for("Bring")(
        object="bottle", destination="table_2"
    )
    return {
        "/turn/utterance": "put the bottle on the table in the bedroom",
        "/turn/domain": "household",
        "/turn/intent": IntentFrame(domain="household", task="Bring"),
        "/turn/task": task,
        "/turn/evidence": EvidenceBundle(items=[item]),
    }


def test_a_goal_someone_else_met_is_not_said_as_done(blackboard, make_llm, shipped_domains) -> None:
    status, _ = respond(
        blackboard, make_llm(), shipped_domains, bring_presets(shipped_domains, BROUGHT_BY_OTHERS)
    )
    said = blackboard.get("/turn/reply")
    assert status == "S" and "I brought" not in said
    assert said == BROUGHT_BY_OTHERS.text


def test_a_model_reply_claiming_the_task_done_is_refused(
    blackboard, make_llm, shipped_domains
) -> None:
    boast = "I brought the bottle to the bedroom table."
    llm = make_llm({"by_module": {"outer_speech": [reply(boast), reply(boast)]}})
    presets = bring_presets(shipped_domains, BROUGHT_BY_OTHERS)
    status, why = respond(blackboard, llm, shipped_domains, presets, ticks=3, templated_first=False)
    assert status.endswith("S") and blackboard.get("/turn/reply") == BROUGHT_BY_OTHERS.text
    assert why.vetoed and "claims the outcome or the scene does not back" in why.rationale


def test_a_model_reply_naming_the_wrong_signer_is_refused(
    blackboard, make_llm, shipped_domains
) -> None:
    wrong = "I got the expense form signed by lena."
    llm = make_llm({"by_module": {"outer_speech": [reply(wrong), reply(wrong)]}})
    presets = bring_presets(shipped_domains, SIGNED_BY_ANOTHER)
    status, why = respond(blackboard, llm, shipped_domains, presets, ticks=3, templated_first=False)
    assert status.endswith("S") and "signed by lena" not in blackboard.get("/turn/reply")
    assert why.vetoed


def test_a_failed_plan_is_said_as_it_is(blackboard, make_llm, shipped_domains) -> None:
    done = EvidenceItem(source="plan", text="I could not finish: PICK(mug_red) failed.", ok=False)
    presets = {
        "/turn/domain": "household",
        "/turn/intent": IntentFrame(domain="household", task="Fetch"),
        "/turn/evidence": EvidenceBundle(items=[done]),
    }
    status, _ = respond(blackboard, make_llm(), shipped_domains, presets)
    assert status == "S" and blackboard.get("/turn/reply") == done.text


def test_nothing_to_say_fails(blackboard, make_llm, shipped_domains) -> None:
    llm = make_llm()
    status, why = respond(blackboard, llm, shipped_domains, {"/turn/utterance": "hm"})
    assert status == "F" and llm.calls == []
    assert "nothing to say" in why.rationale and blackboard.get("/turn/reply") is None


def test_list_answers_are_joined_naturally(blackboard, make_llm, shipped_domains) -> None:
    rows = [
        {"dish": "adv:tiramisu", "dish_label": "tiramisu", "suggestion_label": "fruit salad"},
        {"dish": "adv:tiramisu", "dish_label": "tiramisu", "suggestion_label": "lemon sorbet"},
        {"dish": "adv:tiramisu", "dish_label": "tiramisu", "suggestion_label": "panna cotta"},
    ]
    presets = {
        "/turn/utterance": "What could I have instead of tiramisu?",
        "/turn/domain": "advisor",
        "/turn/intent": IntentFrame(domain="advisor", task="SubstituteDish"),
        "/turn/task": shipped_domains.get("advisor").schema_for("SubstituteDish")(dish="tiramisu"),
        "/turn/evidence": EvidenceBundle(items=[EvidenceItem(source="substitute_dish", rows=rows)]),
    }
    status, _ = respond(blackboard, make_llm(), shipped_domains, presets)
    assert status == "S"
    assert blackboard.get("/turn/reply").startswith(
        "Instead of tiramisu, you could have fruit salad, lemon sorbet and panna cotta"
    )


def test_ids_are_said_as_labels(blackboard, shipped_domains) -> None:
    from cogtree.knowledge.llm.client import LLMClient
    from cogtree.knowledge.llm.config import LLMConfig

    presets = dish_info(shipped_domains)
    presets["/turn/evidence"] = model_rows(
        {"suggestion": "adv:panna_cotta", "suggestion_label": "Panna cotta della casa"},
        {"suggestion": "adv:chicken_tikka_masala", "course_label": "main", "kcal": "431.27"},
    )
    client = LLMClient(LLMConfig.load().with_backend("none"))
    status, why = respond(blackboard, _Offline(client), shipped_domains, presets)
    client.close()
    assert status == "S" and why.source == "safe_default"
    assert blackboard.get("/turn/reply") == (
        "Here is what I found: suggestion Panna cotta della casa; "
        "suggestion chicken tikka masala with rice, course label main, kcal 431.3."
    )


class _Offline:
    """A client with no model behind it, in the shape respond() takes."""

    def __init__(self, client) -> None:
        self.client = client


# -- the model and the guard ---------------------------------------------------------------------


def model_turn(shipped_domains: DomainRegistry) -> dict:
    presets = dish_info(shipped_domains)
    presets["/turn/evidence"] = model_rows({"dish": "adv:tiramisu", "carbs": "32.71"})
    return presets


def test_rows_of_a_model_query_are_worded_by_the_model(
    blackboard, make_llm, shipped_domains
) -> None:
    llm = make_llm({"by_module": {"outer_speech": [reply("Tiramisu has 32.7 g of carbs.")]}})
    status, why = respond(blackboard, llm, shipped_domains, model_turn(shipped_domains), ticks=2)
    assert status == "RS" and why.source == "model"
    assert blackboard.get("/turn/reply") == "Tiramisu has 32.7 g of carbs."
    prompt = llm.backend.requests[0].prompt_text()
    assert FIGURE_4 in prompt and '"carbs": "32.71"' in prompt and "Draft answer" in prompt


def test_an_unsupported_name_is_sent_back_once(blackboard, make_llm, shipped_domains) -> None:
    llm = make_llm(
        {
            "by_module": {
                "outer_speech": [
                    reply("Tiramisu has 32.7 g of carbs, mostly from mascarpone."),
                    reply("Tiramisu has 32.7 g of carbohydrate."),
                ]
            }
        }
    )
    status, why = respond(blackboard, llm, shipped_domains, model_turn(shipped_domains), ticks=3)
    assert status == "RRS" and not why.vetoed
    assert "names mascarpone" in llm.backend.requests[1].messages[-1].content
    assert blackboard.get("/turn/reply") == "Tiramisu has 32.7 g of carbohydrate."


def test_unfaithful_twice_falls_back_to_the_templated_answer(blackboard, make_llm, shipped_domains):
    llm = make_llm({"by_module": {"outer_speech": [reply("It has 50 g."), reply("It has 51 g.")]}})
    status, why = respond(blackboard, llm, shipped_domains, model_turn(shipped_domains), ticks=3)
    assert status == "RRS" and why.vetoed and "numbers 51" in why.rationale
    assert blackboard.get("/turn/reply") == "Here is what I found: dish tiramisu, carbs 32.7."


def test_memory_and_the_utterance_support_a_reply(blackboard, make_llm, shipped_domains) -> None:
    presets = model_turn(shipped_domains)
    presets["/turn/utterance"] = "Is tiramisu fine if I eat 2 portions?"
    presets["/memory/working"] = WorkingContext(
        text="Known facts:\n- [preference] Anna eats 1500 kcal a day.", budget_chars=200
    )
    text = "Anna, 2 portions of tiramisu have twice 32.7 g; your target is 1500 kcal."
    llm = make_llm({"by_module": {"outer_speech": [reply(text)]}})
    status, why = respond(blackboard, llm, shipped_domains, presets, ticks=2)
    assert status == "RS" and not why.vetoed
    assert blackboard.get("/turn/reply") == text


@pytest.mark.parametrize(("bad", "trace"), [(reply("   "), "RS"), ({"text": "{x"}, "RRS")])
def test_an_empty_or_failed_model_reply_is_templated(
    blackboard, make_llm, shipped_domains, bad, trace
) -> None:
    llm = make_llm({"by_module": {"outer_speech": [bad, bad]}})
    status, _ = respond(
        blackboard, llm, shipped_domains, model_turn(shipped_domains), ticks=len(trace)
    )
    assert status == trace
    assert blackboard.get("/turn/reply") == "Here is what I found: dish tiramisu, carbs 32.7."


def test_a_substitution_end_to_end_never_suggests_the_excluded(
    blackboard, make_llm, shipped_domains, workers
):
    presets = {
        "/turn/utterance": "What could I have instead of tiramisu without eggs?",
        "/turn/domain": "advisor",
        "/turn/intent": IntentFrame(domain="advisor", task="SubstituteDish"),
        "/turn/task": shipped_domains.get("advisor").schema_for("SubstituteDish")(
            dish="tiramisu", excluded=["egg"]
        ),
    }
    for key, value in presets.items():
        blackboard.set(key, value)
    root = Sequence("Inform", memory=True)
    root.add_children([GenerateQuery(), RunQuery(), Respond()])
    handles = {"domains": shipped_domains, "workers": workers}
    harness = TreeHarness(root, llm=make_llm().client, handles=handles)
    harness.tick_until(max_ticks=2000, period_s=0.005)
    assert harness.trace.letters("Inform").endswith("S")
    rows = blackboard.get("/turn/evidence").items[0].rows
    suggestions = [row["suggestion_label"] for row in rows]
    assert suggestions and all(label in blackboard.get("/turn/reply") for label in suggestions)
    assert blackboard.get("/turn/reply").startswith("Instead of tiramisu, you could have ")


def test_closed_word_sets_are_not_entities(blackboard, make_llm, shipped_domains) -> None:
    text = "Would you like to know more? Tiramisu has 32.7 g of carbohydrate."
    llm = make_llm({"by_module": {"outer_speech": [reply(text)]}})
    status, why = respond(blackboard, llm, shipped_domains, model_turn(shipped_domains), ticks=2)
    assert status == "RS" and not why.vetoed  # "like" is a relation word, not a thing
    assert blackboard.get("/turn/reply") == text


def test_a_model_reply_stating_a_state_the_scene_lacks_is_refused(
    blackboard, make_llm, shipped_domains
) -> None:
    """Checked to fail before Respond held states to the scene (the reply was said)."""
    from cogtree.sim.executor import SimExecutor
    from cogtree.sim.scenario import load_scenario

    scenario = load_scenario("kitchen_hazard_plastic_on_hob").model_copy(update={"events": ()})
    done = EvidenceItem(source="plan", text="Done by me: the lunch box is on the counter.", ok=True)
    presets = {
        "/turn/utterance": "is it safe to wipe the hob?",
        "/turn/domain": "household",
        "/turn/intent": IntentFrame(domain="household", task="Fetch"),
        "/turn/evidence": EvidenceBundle(items=[done]),
    }
    for said, refused in (
        ("The hob is off now, it is safe to touch.", True),
        ("Careful: the hob is on.", False),
    ):
        llm = make_llm({"by_module": {"outer_speech": [reply(said), reply(said)]}})
        with SimExecutor.from_scenario(scenario) as sim:
            status, why = respond(
                blackboard,
                llm,
                shipped_domains,
                presets,
                scene=sim.belief,
                ticks=3,
                templated_first=False,
            )
        assert "S" in status
        assert (blackboard.get("/turn/reply") != said) is refused, blackboard.get("/turn/reply")
        if refused:
            assert why.vetoed and "the belief says the stove is on" in why.rationale
            assert "heat source and may still be hot" in why.rationale
