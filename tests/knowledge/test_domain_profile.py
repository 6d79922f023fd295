"""Domain profiles: the 11 domains of the scope study, read from packs and profile files."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogtree.knowledge.packs.domain_profile import (
    JANUS_PACKS,
    JANUS_PROFILES,
    SHIPPED_PROFILES,
    DomainProfile,
    ProfileError,
    load_profiles,
    read_profile,
)
from cogtree.knowledge.packs.domain_registry import SHIPPED_NAMES, DomainRegistry


@pytest.fixture(scope="module")
def registry() -> DomainRegistry:
    return DomainRegistry.discover()


def test_eleven_domains_three_packs_and_eight_profile_files(registry: DomainRegistry) -> None:
    profiles = load_profiles(registry.packs)
    assert len(profiles) == 11
    assert [profile.name for profile in profiles[:3]] == [pack.name for pack in registry.packs]
    assert {profile.pack for profile in profiles[:3]} == set(SHIPPED_NAMES)
    assert all(profile.pack is None for profile in profiles[3:])


def test_a_pack_profile_carries_its_description_and_task_examples(
    registry: DomainRegistry,
) -> None:
    advisor = DomainProfile.from_pack(registry.get("advisor"))
    pack = registry.get("advisor")
    assert advisor.description == pack.manifest.description
    assert "DishInfo" in {task.name for task in advisor.tasks}
    assert pack.task("DishInfo").examples[0] in advisor.scope_texts()


def test_profile_files_hold_no_grounding(tmp_path: Path) -> None:
    for path in SHIPPED_PROFILES.glob("*.yaml"):
        profile = read_profile(path)
        assert profile.name == path.stem
        assert len(profile.tasks) >= 3
        assert all(len(task.examples) >= 3 for task in profile.tasks)
    grounded = tmp_path / "weather.yaml"
    grounded.write_text((SHIPPED_PROFILES / "weather.yaml").read_text() + "query: forecast\n")
    with pytest.raises(ProfileError, match="query"):
        read_profile(grounded)


def test_a_bad_profile_names_the_file_and_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("name: Bad Name\ntitle: t\ndescription: d\ntasks: []\n")
    with pytest.raises(ProfileError, match=r"bad\.yaml: field `name`"):
        read_profile(path)
    path.write_text("- just a list\n")
    with pytest.raises(ProfileError, match=r"bad\.yaml: expected a profile: a mapping"):
        read_profile(path)


def test_a_profile_may_not_take_a_pack_name(tmp_path: Path, registry: DomainRegistry) -> None:
    (tmp_path / "advisor.yaml").write_text(
        "name: advisor\ntitle: t\ndescription: d\ntasks:\n"
        "  - {name: T, description: d, examples: [a, b, c]}\n"
    )
    with pytest.raises(ProfileError, match="already described by pack advisor; rename it"):
        load_profiles(registry.packs, tmp_path)
    with pytest.raises(ProfileError, match="not a directory"):
        load_profiles((), tmp_path / "missing")


TABLE_2 = {
    "Movies": {"MovieInfo", "TimetableInfo"},
    "Advisor": {"AddToDatabase", "DishInfo", "SubstituteDish"},
    "Travel": {"FlightSearch", "HotelBooking", "TravelInfo"},
    "JobHunt": {"JobSearch", "ApplicationStatus", "ResumeReview"},
    "TechSupport": {"TroubleshootDevice", "SoftwareHelp", "WarrantyInfo"},
    "Education": {"CourseInfo", "ExamSchedule", "AssignmentHelp"},
    "HealthSymptoms": {"SymptomCheck", "MedicationInfo", "DoctorReferral"},
    "Shopping": {"ProductSearch", "CompareProducts", "TrackOrder"},
    "Events": {"EventSearch", "TicketBooking", "EventReminder"},
    "Restaurants": {"RestaurantSearch", "MenuInfo", "TableBooking"},
    "Fitness": {"WorkoutPlan", "ExerciseInfo", "ProgressTracking"},
}
"""JANUS's Table 2: each domain and the tasks it supports (facts from the paper)."""


def test_the_paper_set_is_table_2_with_the_advisor_pack(registry: DomainRegistry) -> None:
    packs = [registry.get(name) for name in JANUS_PACKS]
    profiles = load_profiles(packs, JANUS_PROFILES)
    titles = {
        ("Advisor" if profile.pack == "advisor" else profile.title): profile for profile in profiles
    }
    assert set(titles) == set(TABLE_2)
    for title, tasks in TABLE_2.items():
        assert tasks <= {task.name for task in titles[title].tasks}, title
    for path in JANUS_PROFILES.glob("*.yaml"):
        profile = read_profile(path)
        assert profile.name == path.stem
        assert all(len(task.examples) >= 3 for task in profile.tasks)
