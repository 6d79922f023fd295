"""Hazard rules as data: SPARQL SELECT rules with a severity and the sentence the robot says.

The rules live in Turtle (``knowledge/safety/hazards/rules.ttl``): each ``haz:Rule`` has a
``haz:severity`` (``forbidden``: never done; ``ask_first``: done only after the user's explicit
yes), ``haz:catches`` (what it is about, for the docs), ``haz:says`` (the sentence, with
``{variable}`` placeholders the query selects), ``haz:query`` (a SPARQL SELECT over one plan
step's graph, see :mod:`skills.safety.hazard_check`; every row is one hazard) and, optionally,
``haz:appliesTo`` (the skills whose steps it runs on; without it, every step).
``haz:Manner`` entries list the cue phrases (``haz:cue``, and ``haz:unlessCue`` that cancel
them) that say how the user wants a thing done ("run", "blade first");
:meth:`HazardRules.manners_of` reads them from a request.

:func:`load_hazard_rules` refuses a file with an error, naming the file, the rule and the fix:
Turtle that does not parse, a rule with no or an unknown severity, no sentence, no query, a
query that does not parse or is not a SELECT, a placeholder the query does not select. The
robot reads its rules with :func:`shipped_hazard_rules`, which never stops it: the file is read
again whenever it changes on disk, and while it has an error the rules are *unreadable*
(:attr:`HazardRules.unreadable` names the file, the line and the fix) and every plan step is
refused with that reason (:func:`skills.safety.hazard_check.step_hazards`), until the file is
fixed. Never a silent pass.

Why SPARQL on Oxigraph rather than SHACL with pySHACL: each plan step's graph is tiny (tens of
triples), so the cost that counts is the engine's fixed cost per check. Oxigraph, already the
scene graph's engine, runs one rule over such a graph in 0.05-0.25 ms; a whole step (graph and
rules) stays within the 5 ms p50 target at 10k triples in the scene
(``benchmarks/hazard_check_latency.py``). pySHACL evaluates in Python over rdflib graphs and is
not a dependency; it was not measured.
"""

from __future__ import annotations

import logging
import re
import string
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal, get_args

import pyoxigraph
from rdflib import RDF, Graph, Namespace, URIRef
from rdflib.term import Node

from cogtree.knowledge.robot_skills import Skill
from cogtree.knowledge.scene.rdf_store import TurtleError, load_turtle

log = logging.getLogger(__name__)

HAZ = Namespace("https://cogtree.dev/hazard#")
"""The vocabulary of the rules and of a step's graph."""

QUERY_PROLOGUE = f"PREFIX haz: <{HAZ}>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"
"""Prefixes declared for every rule's query."""

RULES_FILE = Path(__file__).with_name("hazards") / "rules.ttl"
"""The shipped rules."""

Severity = Literal["forbidden", "ask_first"]
"""``forbidden``: the step never runs. ``ask_first``: it runs only after an explicit yes."""

SEVERITIES: tuple[Severity, ...] = ("forbidden", "ask_first")


class HazardRuleError(ValueError):
    """A hazard rule file with an error; the message names the file, the rule and the fix."""


@dataclass(frozen=True)
class HazardRule:
    """One rule: its id, severity, what it catches, its sentence and its SELECT query."""

    id: str
    severity: Severity
    catches: str
    says: str
    query: str
    applies_to: frozenset[str] = frozenset()

    def applies(self, skill: str) -> bool:
        """Whether the rule runs on a step of ``skill`` (no ``haz:appliesTo``: every step)."""
        return not self.applies_to or skill in self.applies_to

    @property
    def placeholders(self) -> tuple[str, ...]:
        """The ``{names}`` of the sentence, in order."""
        return tuple(name for _, name, _, _ in string.Formatter().parse(self.says) if name)


@dataclass(frozen=True)
class Manner:
    """How a request asks for a thing to be done: the manner's name and its cue phrases."""

    name: str
    cues: tuple[str, ...]
    unless: tuple[str, ...] = ()

    def said_in(self, text: str) -> bool:
        """Whether ``text`` says a cue phrase (whole words) and no phrase that cancels it."""
        return _says_any(self.cues, text) and not _says_any(self.unless, text)


def _says_any(phrases: Iterable[str], text: str) -> bool:
    return any(
        re.search(rf"\b{re.escape(phrase)}\b", text, re.IGNORECASE) is not None
        for phrase in phrases
    )


@dataclass(frozen=True)
class HazardRules:
    """The rules and manners of one file, checked."""

    source: str
    rules: tuple[HazardRule, ...]
    manners: tuple[Manner, ...]
    unreadable: str | None = None
    """Why the file cannot be used (file, line, fix); then every step is refused."""

    def manners_of(self, said: Iterable[str]) -> frozenset[str]:
        """The manners the utterances ``said`` ask for (``hurried``, ``blade_first``...)."""
        text = " ".join(said)
        return frozenset(manner.name for manner in self.manners if manner.said_in(text))


def load_hazard_rules(path: str | Path = RULES_FILE, *, text: str | None = None) -> HazardRules:
    """The rules in ``path`` (or in ``text`` labelled ``path``), every rule checked.

    Raises :class:`HazardRuleError` naming the file, the rule and how to fix it.
    """
    label = str(path)
    graph = read_safety_file(label, text, HazardRuleError, "hazard rule file")
    rules = tuple(
        _rule(graph, label, node) for node in sorted(graph.subjects(RDF.type, HAZ.Rule), key=str)
    )
    if not rules:
        raise HazardRuleError(
            f"{label}: no haz:Rule in the file; declare at least one "
            "(`haz:my_rule a haz:Rule ; haz:severity ...`, see docs/hazards.md)"
        )
    manners = tuple(
        Manner(
            name=_local(node),
            cues=tuple(sorted(str(cue) for cue in graph.objects(node, HAZ.cue))),
            unless=tuple(sorted(str(cue) for cue in graph.objects(node, HAZ.unlessCue))),
        )
        for node in sorted(graph.subjects(RDF.type, HAZ.Manner), key=str)
    )
    return HazardRules(source=label, rules=rules, manners=manners)


def read_safety_file(label: str, text: str | None, error: type[ValueError], what: str) -> Graph:
    """The Turtle of a safety data file (``text``, else the file ``label``), as a graph.

    Malformed Turtle raises ``error`` naming the file, the line and the fix.
    """
    graph = Graph()
    try:
        load_turtle(graph, label, text=text)
    except TurtleError as failure:
        raise error(
            f"{failure}; fix the Turtle syntax of the {what} (docs/hazards.md)"
        ) from failure
    return graph


def shipped_hazard_rules(path: Path = RULES_FILE) -> HazardRules:
    """The rules of ``path`` as the file is now (default the shipped :data:`RULES_FILE`).

    Read again when the file changes (its modification time or size), else from memory (one
    ``stat``). A file with an error, or none, gives rules that are :attr:`~HazardRules.unreadable`
    (logged once per version of the file): the robot runs and refuses every step until fixed.
    """
    try:
        status = path.stat()
    except OSError as problem:
        return _rules_as_of(str(path), None, None, f"cannot read {path}: {problem.strerror}")
    return _rules_as_of(str(path), status.st_mtime_ns, status.st_size, None)


@lru_cache(maxsize=8)
def _rules_as_of(
    path: str, modified_ns: int | None, size: int | None, missing: str | None
) -> HazardRules:
    """The rules of one version of the file ``path`` (checked), or unreadable ones saying why."""
    problem = missing
    if problem is None:
        try:
            return load_hazard_rules(path)
        except HazardRuleError as error:
            problem = str(error)
    log.error("hazard rules unreadable, every plan step is refused until fixed: %s", problem)
    return HazardRules(source=path, rules=(), manners=(), unreadable=problem)


def _local(node: Node) -> str:
    return str(node).removeprefix(str(HAZ))


def _one(graph: Graph, label: str, rule: str, node: Node, prop: URIRef, fix: str) -> str:
    values = [str(value) for value in graph.objects(node, prop)]
    name = f"haz:{_local(prop)}"
    if not values or not values[0].strip():
        raise HazardRuleError(f"{label}: rule {rule} has no {name}; {fix}")
    if len(values) > 1:
        raise HazardRuleError(f"{label}: rule {rule} has {len(values)} {name} values; keep one")
    return values[0]


def _rule(graph: Graph, label: str, node: Node) -> HazardRule:
    rule = _local(node)
    said = _one(graph, label, rule, node, HAZ.severity, f'add `haz:severity "{SEVERITIES[0]}"`')
    severity = next((known for known in SEVERITIES if known == said), None)
    if severity is None:
        raise HazardRuleError(
            f"{label}: rule {rule} has the unknown severity {said!r}; use one of "
            f"{', '.join(SEVERITIES)}"
        )
    says = _one(graph, label, rule, node, HAZ.says, "add the sentence the robot says (haz:says)")
    catches = _one(graph, label, rule, node, HAZ.catches, "add what the rule catches (haz:catches)")
    query = _one(
        graph, label, rule, node, HAZ.query, 'add a SPARQL SELECT (haz:query """SELECT ...""")'
    )
    found = HazardRule(
        id=rule,
        severity=severity,
        catches=catches,
        says=says,
        query=QUERY_PROLOGUE + query,
        applies_to=frozenset(str(skill) for skill in graph.objects(node, HAZ.appliesTo)),
    )
    unknown = sorted(found.applies_to - set(get_args(Skill)))
    if unknown:
        raise HazardRuleError(
            f"{label}: rule {rule}: haz:appliesTo names {', '.join(map(repr, unknown))}, not "
            f"a skill; use skill names ({', '.join(get_args(Skill))}) or leave it out"
        )
    selected = _selected_variables(label, found)
    try:
        found.says.format(**dict.fromkeys(found.placeholders, ""))
    except (ValueError, IndexError, KeyError) as error:
        raise HazardRuleError(
            f"{label}: rule {rule}: its sentence {says!r} is malformed ({error}); write "
            "placeholders as {variable} and double any other brace"
        ) from error
    for name in found.placeholders:
        if name not in selected:
            raise HazardRuleError(
                f"{label}: rule {rule}: its sentence uses {{{name}}}, which the query does "
                f"not select (it selects {', '.join(selected) or 'nothing'}); select ?{name} "
                "or change the sentence"
            )
    return found


def _selected_variables(label: str, rule: HazardRule) -> list[str]:
    """The variables ``rule``'s query selects; :class:`HazardRuleError` when it is no SELECT."""
    try:
        answer = pyoxigraph.Store().query(rule.query)
    except SyntaxError as error:
        raise HazardRuleError(
            f"{label}: rule {rule.id}: its query does not parse ({error}); fix the SPARQL "
            "(the prefix haz: is declared for you)"
        ) from error
    if not isinstance(answer, pyoxigraph.QuerySolutions):
        raise HazardRuleError(
            f"{label}: rule {rule.id}: its query is not a SELECT; write `SELECT ?thing ... "
            "WHERE { ... }` so each row names what the sentence says"
        )
    return [variable.value for variable in answer.variables]
