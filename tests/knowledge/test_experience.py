from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, get_args

import pytest
import yaml

from cogtree.knowledge.memory.experience import (
    DEFAULT_SEED,
    ERROR_CODES,
    SKILLS,
    ErrorCode,
    ExperienceError,
    ExperienceStore,
    RecoveredProvenance,
    RecoveryStep,
    load_seed,
)

ROOT = Path(__file__).resolve().parents[2]


def entry(ident: str, skill: str, code: str, request: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": ident,
        "skill": skill,
        "error_code": code,
        "error_text": extra.pop("error_text", f"{skill} failed: {code}"),
        "request": request,
        "suggestion": extra.pop("suggestion", f"fix for {ident}"),
        **extra,
    }


def write_seed(path: Path, records: list[Any]) -> Path:
    path.write_text(yaml.safe_dump({"records": records}, sort_keys=False), encoding="utf-8")
    return path


SMALL = [
    entry(
        "bottle",
        "PICK",
        "object_not_visible",
        "pick up the bottle from the kitchen table",
        error_text="PICK(bottle_1) failed: bottle_1 not visible on kitchen_table_1",
    ),
    entry(
        "remote",
        "PICK",
        "object_not_visible",
        "bring the remote from the living room sofa",
        error_text="PICK(remote_1) failed: remote_1 occluded by cushion_2",
    ),
    entry("mugs", "PICK", "object_not_visible", "put the mugs from the sink in the cupboard"),
    entry("place-bottle", "PLACE", "object_not_visible", "place the bottle on the kitchen table"),
    entry("fridge", "PICK", "container_closed", "get the bottle from the kitchen fridge"),
]


@pytest.fixture
def seed(tmp_path: Path) -> Path:
    return write_seed(tmp_path / "small.yaml", SMALL)


def ids(results: list[Any]) -> list[str]:
    return [result.record.id for result in results]


def recovery(**overrides: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "skill": "PICK",
        "error_code": "object_not_visible",
        "error_text": "PICK(cup_1) failed: cup_1 not visible on counter_1",
        "request": "fetch my green cup from the counter",
        "suggestion": "GetObjectsInRoom(kitchen), LocateObject(cup_1), GOTO it, PICK(cup_1)",
        "run_id": "run-7",
        "scenario": "dynamic_cup_moved",
    }
    return {**fields, **overrides}


# --- the shipped seed -------------------------------------------------------------------


def test_shipped_seed_validates_and_covers_the_simulators_failure_modes() -> None:
    records = load_seed(DEFAULT_SEED)
    assert len(records) >= 25
    assert len({record.id for record in records}) == len(records)
    assert {record.provenance.kind for record in records} == {"seed"}
    required = {
        "object_not_visible",
        "object_not_found",
        "out_of_reach",
        "hand_full",
        "container_closed",
        "door_closed",
        "path_blocked",
        "person_unavailable",
        "person_refused",
        "grasp_slipped",
        "payload_exceeded",
        "wrong_object",
    }
    assert required <= {record.error_code for record in records}
    reach = [record.error_text for record in records if record.error_code == "out_of_reach"]
    assert any("above" in text for text in reach) and any("below" in text for text in reach)
    assert all(record.request.strip() for record in records)


def test_error_code_vocabulary_is_documented_once_for_each_code() -> None:
    assert list(ERROR_CODES) == list(get_args(ErrorCode))
    assert all(meaning.strip() for meaning in ERROR_CODES.values())
    assert "DELEGATE" in SKILLS and "PICK" in SKILLS


BOTTLE_ON_TABLE = {
    "object": "bottle",
    "object_type": "bottle",
    "room": "kitchen",
    "place": "table_1",
    "place_type": "table",
    "target": "bottle",
}


def test_the_shipped_seed_suggests_looking_where_a_moved_object_was_last_seen() -> None:
    store = ExperienceStore()
    results = store.retrieve(
        "PICK",
        "object_not_visible",
        "take the bottle from the kitchen table",
        error_text="PICK(bottle, right) failed at grasp: object_not_visible",
        context=BOTTLE_ON_TABLE,
    )
    assert results[0].record.id == "pick-not-visible-look-where-last-seen"
    assert "Look for it in kitchen, where it was last seen" in results[0].text
    assert [step.text() for step in results[0].recovery] == ["GOTO(kitchen)", "LOOK()"]
    # The records about a sofa and a sink do not fit a bottle on a table.
    assert ids(results) == ["pick-not-visible-look-where-last-seen"]
    fridge = store.retrieve("PICK", "container_closed", "get me the milk from the fridge", k=1)
    assert "OPEN(fridge_1) before PICK(milk_1)" in fridge[0].text


def test_no_seed_request_repeats_a_shipped_scenarios_request() -> None:
    shipped = {
        " ".join(str(yaml.safe_load(path.read_text())["request"]["text"]).lower().split())
        for path in (ROOT / "sim" / "scenarios").glob("*.yaml")
    }
    requests = {" ".join(record.request.lower().split()) for record in load_seed(DEFAULT_SEED)}
    assert not requests & shipped


def test_suggestions_speak_the_plan_vocabulary_not_perception_queries() -> None:
    queries = ("GetObjectsInRoom", "LocateObject", "ResolveReferent", "GetMapRooms")
    for record in load_seed(DEFAULT_SEED):
        assert not any(query in record.suggestion for query in queries), record.id


def test_a_closed_bedroom_door_gets_no_advice_about_bathrooms_or_garages() -> None:
    store = ExperienceStore()
    found = store.retrieve(
        "GOTO",
        "door_closed",
        "take the hot-water bottle to my bedroom and put it on the bed",
        error_text="GOTO(bed) failed at navigate: door_closed — bedroom_door",
        context={"room": "bedroom", "target": "bed"},
    )
    assert found == []
    bathroom = store.retrieve(
        "GOTO", "door_closed", "bring the soap", context={"room": "bathroom", "target": "sink"}
    )
    assert ids(bathroom) == ["goto-bathroom-door-closed"]


def test_a_learnt_record_fitting_more_facets_comes_before_the_generic_seed(tmp_path: Path) -> None:
    store = ExperienceStore(tmp_path / "experience.sqlite")
    learnt = store.add_recovery(
        skill="PICK",
        error_code="object_not_visible",
        error_text="PICK(car_keys, right) failed at grasp: object_not_visible",
        request="hand me my keys",
        context={"object_type": "keys", "room": "hallway"},
        suggestion="Last time the keys were in the kitchen.",
        recovery=[
            RecoveryStep(action="GOTO", args={"target": "kitchen"}),
            RecoveryStep(action="LOOK"),
        ],
        run_id="run-1",
    )
    keys = {"object": "car_keys", "object_type": "keys", "room": "hallway", "place_type": "table"}
    found = store.retrieve("PICK", "object_not_visible", "bring the keys", context=keys)
    assert ids(found) == [learnt.id, "pick-not-visible-look-where-last-seen"]
    assert [step.text() for step in found[0].recovery] == ["GOTO(kitchen)", "LOOK()"]
    # The lesson about keys is dropped for a bottle, however similar the words.
    bottle = store.retrieve("PICK", "object_not_visible", "bring the keys", context=BOTTLE_ON_TABLE)
    assert learnt.id not in ids(bottle)
    store.close()
    # It persists, context, recovery and provenance included.
    reopened = ExperienceStore(tmp_path / "experience.sqlite")
    (again,) = [record for record in reopened.records if record.learnt]
    assert again == learnt
    assert again.provenance.run_id == "run-1"
    reopened.close()


def test_a_version_1_database_is_upgraded_and_its_records_kept(seed: Path, tmp_path: Path) -> None:
    db = tmp_path / "experience.db"
    with sqlite3.connect(db) as old:
        old.execute(
            "CREATE TABLE experience (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL"
            " UNIQUE, skill TEXT NOT NULL, error_code TEXT NOT NULL, error_text TEXT NOT NULL,"
            " request TEXT NOT NULL, suggestion TEXT NOT NULL, provenance TEXT NOT NULL)"
        )
        provenance = RecoveredProvenance(
            run_id="old", recorded_at=datetime(2025, 1, 1, tzinfo=timezone.utc)
        )
        old.execute(
            "INSERT INTO experience (id, skill, error_code, error_text, request, suggestion,"
            " provenance) VALUES ('recovered-old', 'PICK', 'grasp_slipped', 'slipped', 'cup',"
            " 'retry', ?)",
            (provenance.model_dump_json(),),
        )
        old.execute("PRAGMA user_version = 1")
    store = ExperienceStore(db, seeds=[seed])
    (record,) = [r for r in store.records if r.learnt]
    assert (record.id, record.context, record.recovery) == ("recovered-old", {}, ())
    store.add_recovery(**recovery())
    store.close()
    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA user_version").fetchone()[0] == 2


def test_a_record_naming_an_unknown_facet_is_refused(tmp_path: Path) -> None:
    bad = entry("x", "PICK", "object_not_visible", "r", context={"colour": "red"})
    with pytest.raises(ExperienceError, match="unknown context facet"):
        load_seed(write_seed(tmp_path / "bad.yaml", [bad]))


# --- malformed seed files ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("records", "expected"),
    [
        (
            [SMALL[0], {**SMALL[1], "skill": "FLY"}],
            r"record 2 \(id 'remote'\): field `skill`: Input should be 'GOTO'.*\(got 'FLY'\)",
        ),
        (
            [{k: v for k, v in SMALL[0].items() if k != "suggestion"}],
            r"record 1 \(id 'bottle'\): field `suggestion`: Field required",
        ),
        ([{**SMALL[0], "error_code": "on_fire"}], r"record 1 \(id 'bottle'\): field `error_code`"),
        ([{**SMALL[0], "suggestion": "   "}], r"record 1 \(id 'bottle'\): field `suggestion`"),
        ([{**SMALL[0], "colour": "red"}], r"record 1 \(id 'bottle'\): field `colour`: Extra"),
        (
            [{**SMALL[0], 7: "seven"}],
            r"record 1 \(id 'bottle'\): field `7`: Keys should be strings",
        ),
        ([{**SMALL[0], "id": "Has Spaces"}], r"record 1 \(id 'Has Spaces'\): field `id`"),
        ([{**SMALL[0], "provenance": {"kind": "seed"}}], r"record 1 .*remove `provenance`"),
        ([SMALL[0], "just text"], r"record 2: expected a mapping of fields"),
        ([SMALL[0], SMALL[0]], r"duplicate record id 'bottle'"),
    ],
)
def test_malformed_seed_record_is_refused_naming_file_and_record(
    tmp_path: Path, records: list[Any], expected: str
) -> None:
    path = write_seed(tmp_path / "broken_seed.yaml", records)
    with pytest.raises(ExperienceError, match=expected) as raised:
        ExperienceStore(seeds=[path])
    assert str(path) in str(raised.value)


def test_seed_file_with_bad_yaml_or_shape_names_the_file(tmp_path: Path) -> None:
    bad_yaml = tmp_path / "bad.yaml"
    bad_yaml.write_text("records:\n  - id: x\n    skill: [PICK\n", encoding="utf-8")
    with pytest.raises(ExperienceError, match=rf"{bad_yaml} line \d+: malformed YAML"):
        load_seed(bad_yaml)
    no_list = tmp_path / "no_list.yaml"
    no_list.write_text("records: {id: x}\n", encoding="utf-8")
    with pytest.raises(ExperienceError, match=rf"{no_list}: expected a mapping with a `records`"):
        load_seed(no_list)
    with pytest.raises(ExperienceError, match=r"cannot read seed file .*missing.yaml"):
        load_seed(tmp_path / "missing.yaml")


# --- retrieval --------------------------------------------------------------------------


def test_retrieval_keeps_same_skill_and_error_ordered_by_similarity(seed: Path) -> None:
    store = ExperienceStore(seeds=[seed])
    results = store.retrieve("PICK", "object_not_visible", "take the bottle off the kitchen table")
    assert results[0].record.id == "bottle"
    assert set(ids(results)) == {"bottle", "remote", "mugs"}
    scores = [result.score for result in results]
    assert scores == sorted(scores, reverse=True) and scores[0] > scores[1]
    assert all(result.match == "skill_and_error" and not result.fallback for result in results)

    living = store.retrieve("PICK", "object_not_visible", "the remote in the living room", k=1)
    assert ids(living) == ["remote"]


def test_retrieval_respects_k(seed: Path) -> None:
    store = ExperienceStore(seeds=[seed])
    request = "bottle on the kitchen table"
    assert len(store.retrieve("PICK", "object_not_visible", request, k=2)) == 2
    assert len(store.retrieve("PICK", "object_not_visible", request, k=10)) == 3
    assert store.retrieve("PICK", "object_not_visible", request, k=0) == []


def test_error_text_takes_part_in_the_ranking(seed: Path) -> None:
    store = ExperienceStore(seeds=[seed])
    results = store.retrieve("PICK", "object_not_visible", "", error_text="the sink and cupboard")
    assert results[0].record.id == "mugs" and results[0].score > 0
    occluded = store.retrieve(
        "PICK", "object_not_visible", "pick it up", error_text="remote_1 occluded by cushion_2"
    )
    assert occluded[0].record.id == "remote" and occluded[0].score > occluded[1].score


def test_records_sharing_no_words_keep_store_order_with_score_zero(seed: Path) -> None:
    store = ExperienceStore(seeds=[seed])
    results = store.retrieve("PICK", "object_not_visible", "zebra quantum")
    assert ids(results) == ["bottle", "remote", "mugs"]
    assert [result.score for result in results] == [0.0, 0.0, 0.0]


def test_fallback_to_same_error_on_other_skills_is_flagged(seed: Path) -> None:
    store = ExperienceStore(seeds=[seed])
    results = store.retrieve("GOTO", "object_not_visible", "the bottle on the kitchen table", k=5)
    assert set(ids(results)) == {"bottle", "remote", "mugs", "place-bottle"}
    assert all(result.fallback and result.match == "error_only" for result in results)
    same_skill = store.retrieve("PLACE", "object_not_visible", "the bottle on the kitchen table")
    assert ids(same_skill) == ["place-bottle"] and not same_skill[0].fallback


def test_unknown_skill_or_error_or_no_record_gives_an_empty_list(
    seed: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = ExperienceStore(seeds=[seed])
    assert store.retrieve("FLY", "object_not_visible", "bottle") == []
    assert "skills are GOTO, PICK" in caplog.text
    assert store.retrieve("PICK", "on_fire", "bottle") == []
    assert store.retrieve("pick", "object_not_visible", "bottle") == []
    assert store.retrieve("PICK", "payload_exceeded", "a heavy bottle") == []
    assert ExperienceStore(seeds=[]).retrieve("PICK", "object_not_visible", "bottle") == []


def test_the_same_fix_is_suggested_once(seed: Path) -> None:
    store = ExperienceStore(seeds=[seed])
    store.add_recovery(**recovery(request="pick up the bottle", suggestion="  FIX for   bottle "))
    results = store.retrieve("PICK", "object_not_visible", "pick up the bottle from the table")
    assert [result.text.lower().split() for result in results].count(["fix", "for", "bottle"]) == 1
    assert len(results) == 3


# --- learning from recoveries -----------------------------------------------------------


def test_recovery_is_retrievable_immediately_with_its_provenance(seed: Path) -> None:
    store = ExperienceStore(seeds=[seed])
    at = datetime(2025, 3, 1, 12, 30, tzinfo=timezone.utc)
    record = store.add_recovery(**recovery(recorded_at=at))
    assert record.id.startswith("recovered-") and len(store) == len(SMALL) + 1
    assert record.provenance == RecoveredProvenance(
        run_id="run-7", scenario="dynamic_cup_moved", recorded_at=at
    )
    results = store.retrieve("PICK", "object_not_visible", "fetch the green cup", k=1)
    assert ids(results) == [record.id] and results[0].text == recovery()["suggestion"]
    default_time = store.add_recovery(**recovery(request="another", scenario=None))
    assert isinstance(default_time.provenance, RecoveredProvenance)
    assert default_time.provenance.recorded_at.tzinfo is not None


def test_recovery_survives_reopening_in_a_new_process(seed: Path, tmp_path: Path) -> None:
    db = tmp_path / "experience.db"
    with ExperienceStore(db, seeds=[seed]) as store:
        added = store.add_recovery(**recovery())
    code = (
        "import json, sys\n"
        "from cogtree.knowledge.memory.experience import ExperienceStore\n"
        "store = ExperienceStore(sys.argv[1], seeds=[sys.argv[2]])\n"
        "found = store.retrieve('PICK', 'object_not_visible', 'fetch the green cup', k=1)\n"
        "print(json.dumps({'found': [s.record.model_dump(mode='json') for s in found],\n"
        "    'behaviours': sorted(m for m in sys.modules if m.split('.')[0] == 'behaviours'),\n"
        "    'count': len(store)}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(db), str(seed)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    answer = json.loads(done.stdout)
    assert answer["count"] == len(SMALL) + 1
    assert answer["found"] == [added.model_dump(mode="json")]
    assert answer["behaviours"] == [], "knowledge/ must not import behaviours/"


def test_database_uses_wal_and_one_row_per_recovery(seed: Path, tmp_path: Path) -> None:
    db = tmp_path / "experience.db"
    store = ExperienceStore(db, seeds=[seed])
    store.add_recovery(**recovery())
    store.add_recovery(**recovery(request="a second success"))
    with sqlite3.connect(db) as other:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert other.execute("SELECT count(*) FROM experience").fetchone()[0] == 2
    store.close()


def test_concurrent_recoveries_are_all_persisted(seed: Path, tmp_path: Path) -> None:
    db = tmp_path / "experience.db"
    store = ExperienceStore(db, seeds=[seed])

    def add_many(worker: int) -> None:
        for n in range(10):
            store.add_recovery(**recovery(request=f"worker {worker} success {n}"))

    threads = [threading.Thread(target=add_many, args=(worker,)) for worker in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    store.close()
    reopened = ExperienceStore(db, seeds=[seed])
    learnt = [r for r in reopened.records if r.provenance.kind == "recovered"]
    assert len(learnt) == 40 and len({r.request for r in learnt}) == 40


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"skill": "FLY"}, "skill"),
        ({"error_code": "on_fire"}, "error_code"),
        ({"suggestion": ""}, "suggestion"),
        ({"error_text": " \n"}, "error_text"),
        ({"run_id": ""}, "provenance.recovered.run_id"),
        ({"recorded_at": datetime(2025, 1, 1)}, "provenance.recovered.recorded_at"),
        ({"error_text": "broken \ud800 surrogate"}, "error_text"),
    ],
)
def test_bad_recovery_is_refused_and_nothing_is_stored(
    seed: Path, tmp_path: Path, overrides: dict[str, Any], field: str
) -> None:
    db = tmp_path / "experience.db"
    store = ExperienceStore(db, seeds=[seed])
    with pytest.raises(ExperienceError, match=f"add_recovery: field `{field}`"):
        store.add_recovery(**recovery(**overrides))
    assert len(store) == len(SMALL)
    store.close()
    assert len(ExperienceStore(db, seeds=[seed])) == len(SMALL)


# --- odd text ---------------------------------------------------------------------------

ODD_TEXTS = [
    "'); DROP TABLE experience; --",
    'bring the "special" bottle\' OR 1=1 --',
    "the bottle " * 20_000,
    "",
    "nul\x00byte and émoji 🍼 and tabs\t\n",
]


@pytest.mark.parametrize("text", ODD_TEXTS, ids=["sql", "quotes", "long", "empty", "binaryish"])
def test_odd_request_text_is_stored_and_retrieved_verbatim(
    seed: Path, tmp_path: Path, text: str
) -> None:
    db = tmp_path / "experience.db"
    store = ExperienceStore(db, seeds=[seed])
    results = store.retrieve("PICK", "object_not_visible", text, error_text=text)
    assert 1 <= len(results) <= 3
    added = store.add_recovery(**recovery(request=text, suggestion=f"fix: {text}x"))
    store.close()
    reopened = ExperienceStore(db, seeds=[seed])
    learnt = [r for r in reopened.records if r.provenance.kind == "recovered"]
    assert learnt == [added] and learnt[0].request == text
    results = reopened.retrieve("PICK", "object_not_visible", text, k=10)
    assert added.id in ids(results)


# --- database problems ------------------------------------------------------------------


def test_a_file_that_is_not_a_database_gives_a_clear_error(seed: Path, tmp_path: Path) -> None:
    db = tmp_path / "experience.db"
    db.write_bytes(b"this is not sqlite, just some bytes " * 200)
    with pytest.raises(ExperienceError, match=rf"{db}: .*not a database.*move it away"):
        ExperienceStore(db, seeds=[seed])


def test_a_database_path_that_cannot_be_opened_gives_a_clear_error(
    seed: Path, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    with pytest.raises(ExperienceError, match="experience database .*permissions"):
        ExperienceStore(blocker / "x.db", seeds=[seed])
    with pytest.raises(ExperienceError, match="cannot open experience database .*permissions"):
        ExperienceStore(tmp_path, seeds=[seed])  # a folder, not a file


def test_missing_folders_of_the_database_are_made(seed: Path, tmp_path: Path) -> None:
    path = tmp_path / "new" / "data" / "x.db"
    ExperienceStore(path, seeds=[seed]).close()
    assert path.is_file()


def test_a_bad_row_is_named_with_its_row_and_id(seed: Path, tmp_path: Path) -> None:
    db = tmp_path / "experience.db"
    ExperienceStore(db, seeds=[seed]).close()
    with sqlite3.connect(db) as other:
        other.execute(
            "INSERT INTO experience (id, skill, error_code, error_text, request, suggestion,"
            " provenance) VALUES ('recovered-x', 'FLY', 'timeout', 't', 'r', 's',"
            ' \'{"kind": "seed"}\')'
        )
    with pytest.raises(ExperienceError, match=r"row 1 \(id 'recovered-x'\): field `skill`"):
        ExperienceStore(db, seeds=[seed])


def test_a_stored_id_that_repeats_a_seed_id_is_refused(seed: Path, tmp_path: Path) -> None:
    db = tmp_path / "experience.db"
    ExperienceStore(db, seeds=[seed]).close()
    with sqlite3.connect(db) as other:
        other.execute(
            "INSERT INTO experience (id, skill, error_code, error_text, request, suggestion,"
            " provenance) VALUES ('bottle', 'PICK', 'timeout', 't', 'r', 's',"
            ' \'{"kind": "seed"}\')'
        )
    with pytest.raises(
        ExperienceError, match=rf"seed files and {db}: duplicate record id 'bottle'"
    ):
        ExperienceStore(db, seeds=[seed])


def test_a_newer_schema_version_is_refused(seed: Path, tmp_path: Path) -> None:
    db = tmp_path / "experience.db"
    with sqlite3.connect(db) as other:
        other.execute("PRAGMA user_version = 99")
    with pytest.raises(ExperienceError, match="schema version 99.*reads versions 1 and 2"):
        ExperienceStore(db, seeds=[seed])


def test_a_locked_database_fails_the_add_cleanly(seed: Path, tmp_path: Path) -> None:
    db = tmp_path / "experience.db"
    store = ExperienceStore(db, seeds=[seed], lock_timeout=0.05)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(ExperienceError, match="locked.*another process holds the write"):
            store.add_recovery(**recovery())
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert len(store) == len(SMALL)
    store.add_recovery(**recovery())
    assert len(store) == len(SMALL) + 1
