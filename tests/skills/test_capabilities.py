"""The capabilities: each lives in one module of ``skills/capabilities/``, and only there.

A capability's names (its skills, commands, tasks and helper tasks, and their names in
CamelCase as the ontology and the packs write them) appear as an identifier or a string
in no other product module but the few generic ones below. Modules that still name a
capability because its move is not finished are listed in :data:`NOT_YET_MOVED`: that table
may only shrink (an entry goes once its module no longer names the capability).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

import cogtree.skills.capabilities
from cogtree.skills.capabilities.capability import Capability
from cogtree.skills.capabilities.registry import CAPABILITIES

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("trees", "behaviours", "skills", "knowledge", "sim")
HOME = "skills/capabilities"
MACHINERY = {"capability", "registry", "calls"}
"""The modules of the capability package that are not capabilities."""

GENERIC = {
    "knowledge/robot_skills.py",  # the skill names failures are filed under, below the registry
    "skills/action_model/commands.py",  # the command names every executor understands
}
"""Product modules that name every capability's skills or commands by design."""

COMMON_WORDS = {"open", "close", "Open", "Close"}
"""Names too common to tell (the built-in ``open``, every connection's ``close``): the
open/close capability is told by its skills and helpers (``OPEN``, ``close_if_possible``)."""

HOMOGRAPHS = {
    "knowledge/language/english.py": {"pour"},  # French: for
    "behaviours/actions/grounding/perception.py": {"deliver"},  # a node's method
    "knowledge/packs/domains/office/tasks.py": {"Deliver"},  # the office pack's own task
    "knowledge/scene/needs.py": {"fill", "wipe"},  # "it needs a wipe": verbs that undo a state
    "knowledge/wording.py": {"give"},  # a light verb ("give the hob a wipe"), not the handover
}
"""Words that are no capability's name where they stand."""

PACK = "knowledge/packs/domains/household/tasks.py"  # the household pack's task schemas
FRAME_TASKS = "knowledge/understanding/frame_tasks.py"  # the front end's steps to tasks
GRAMMAR = "knowledge/language/request_frame.py"  # the grammar's actions
STEP_ANTECEDENTS = "knowledge/language/step_antecedents.py"  # "it" = what the step before named
MISSING_STEPS = "knowledge/language/missing_steps.py"  # which of the grammar's steps power
SLOTS = "knowledge/understanding/slot_filling.py"  # the slot extractor's verbs
EXAMPLE = "trees/examples/robee_recovery.py"  # an example tree that calls skills

NOT_YET_MOVED: dict[str, set[str]] = {
    "dispose": {PACK, GRAMMAR},
    "fetch": {
        PACK,
        FRAME_TASKS,
        GRAMMAR,
        SLOTS,
        EXAMPLE,
        "knowledge/language/english.py",
        STEP_ANTECEDENTS,
        "knowledge/understanding/contents.py",
        "knowledge/understanding/purposes.py",
        "skills/planning/assignment.py",  # who can do a step: a PICK needs the thing free
    },
    "fill": {PACK, FRAME_TASKS, "knowledge/understanding/contents.py"},
    "heat": {PACK},
    "move": {EXAMPLE},
    "place": {
        PACK,
        SLOTS,
        EXAMPLE,
        "skills/safety/hazard_check.py",  # where a PLACE puts a thing
    },
    "pour": {PACK, "knowledge/understanding/contents.py"},  # pour, then bring
    "switch": {PACK, STEP_ANTECEDENTS, GRAMMAR, MISSING_STEPS},
    "tidy": {PACK, FRAME_TASKS, SLOTS},
    "wipe": {PACK, GRAMMAR},
}
"""Capability -> the modules that still name it: the front end (grammar, frame tasks, slot
filling), the household pack's schemas, the per-step readers of planning (assignment,
hazards) and an example tree."""


TESTS = ROOT / "tests" / "skills" / "capabilities"
"""Each capability's own test: ``test_<module>.py``."""

TESTED_ELSEWHERE = {
    "fetch",
    "move",
    "open_close",
    "place",
    "speech",
    "tidy",
}
"""Capability modules whose tests still sit in the shared files of ``tests/skills/``
(kitchen skills and tasks, preconditions, decomposition): this set may only shrink."""


def names(capability: Capability) -> set[str]:
    """Every name of ``capability``: its skills', tasks' and helpers', and in CamelCase.

    The capability's own name is its module's, and names nothing outside (``switch``); its
    commands belong to the executor protocol, which every executor speaks
    (:mod:`cogtree.skills.action_model.commands`).
    """
    found = {skill.spec.name for skill in capability.skills}
    found |= {task.spec.name for task in capability.tasks}
    found |= set(capability.helpers)
    found |= {name.title().replace("_", "") for name in found if name.islower()}
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of ``tree`` (prose, not names)."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            found.add(id(first.value))
    return found


def used_names(path: Path) -> set[str]:
    """The names a module defines or reaches for, and its whole strings (docstrings left out).

    Local variable names are left out: a slot ``fill`` is no use of the capability.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prose = _docstrings(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
            found.add(node.value)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, ast.keyword) and node.arg is not None:
            found.add(node.arg)
    return found


def naming_modules() -> dict[str, set[str]]:
    """Capability -> the product modules outside its home that name it."""
    modules = {
        path.relative_to(ROOT).as_posix(): used_names(path)
        - COMMON_WORDS
        - HOMOGRAPHS.get(path.relative_to(ROOT).as_posix(), set())
        for folder in PRODUCT
        for path in sorted((ROOT / folder).rglob("*.py"))
        if not path.relative_to(ROOT).as_posix().startswith(HOME)
    }
    assert len(modules) > 200, "the walk found too few modules: is ROOT right?"
    return {
        capability.name: {name for name, used in modules.items() if used & names(capability)}
        - GENERIC
        for capability in CAPABILITIES
    }


def test_a_capability_is_named_only_in_its_module() -> None:
    for capability, where in naming_modules().items():
        extra = where - NOT_YET_MOVED.get(capability, set())
        assert not extra, f"{capability} is named outside its module, in {sorted(extra)}"


def test_the_not_yet_moved_table_follows_what_moved() -> None:
    found = naming_modules()
    for capability, where in NOT_YET_MOVED.items():
        done = where - found.get(capability, set())
        assert not done, f"{sorted(done)} no longer name {capability}: remove them from the table"


def test_every_capability_module_is_registered() -> None:
    modules = {info.name for info in pkgutil.iter_modules(cogtree.skills.capabilities.__path__)}
    registered = {capability.name for capability in CAPABILITIES}
    for name in sorted(modules - MACHINERY):
        module = importlib.import_module(f"cogtree.skills.capabilities.{name}")
        capability = getattr(module, "CAPABILITY", None)
        assert isinstance(capability, Capability), f"{name} defines no CAPABILITY"
        assert capability.name in registered, f"{name} is not in the registry"


def test_every_capability_module_has_its_test() -> None:
    modules = {
        info.name for info in pkgutil.iter_modules(cogtree.skills.capabilities.__path__)
    } - MACHINERY
    tested = {path.stem.removeprefix("test_") for path in TESTS.glob("test_*.py")}
    assert not modules - tested - TESTED_ELSEWHERE, "a capability module without its test"
    assert not tested & TESTED_ELSEWHERE, f"{tested & TESTED_ELSEWHERE} have their test now"


@pytest.mark.parametrize("capability", CAPABILITIES, ids=lambda c: c.name)
def test_no_two_capabilities_share_a_name(capability: Capability) -> None:
    others = set().union(*(names(other) for other in CAPABILITIES if other is not capability))
    assert not names(capability) & others
