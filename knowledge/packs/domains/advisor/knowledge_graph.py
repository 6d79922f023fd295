"""The Advisor domain knowledge graph: dishes, ingredients, allergens and the people served.

The Turtle data ships with this package (``vocabulary.ttl``, ``advisor.ttl``) and loads into an
Oxigraph-backed rdflib graph. Every question is a named SPARQL query from ``queries/``, run as a
string so Oxigraph executes it, with ids bound as IRIs through VALUES clauses (see
:mod:`knowledge.scene.named_queries`). Composition is followed to any depth with the
property path ``adv:hasIngredient/adv:ingredient/adv:contains*``; the ingredient chain that
carries an allergen ("pesto → parmesan → milk") is rebuilt from the composition edges.

Unknown ids: the lookups :meth:`AdvisorKG.dish` and :meth:`AdvisorKG.person` answer None; every
method that computes something about a dish or a person raises :class:`UnknownEntityError`,
whose message names the id and where to find valid ones. An id is a local name of the
``adv:`` namespace (letters, digits, ``_`` and ``-``) or the full IRI; anything else, SPARQL
syntax included, is simply an unknown id and never reaches a query.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from pathlib import Path

from rdflib import RDFS, Graph, Literal, Namespace, URIRef
from rdflib.query import ResultRow
from rdflib.term import Node

from cogtree.knowledge.packs.domains.advisor.composition import Composition
from cogtree.knowledge.packs.domains.advisor.models import (
    Compatibility,
    DailyTargets,
    Dish,
    IngredientOccurrence,
    Nutrition,
    Person,
    Reason,
    ReasonKind,
    RecipeLine,
    Term,
    Trace,
)
from cogtree.knowledge.scene.named_queries import Binding, QueryLibrary
from cogtree.knowledge.scene.rdf_store import load_turtle, new_graph

logger = logging.getLogger(__name__)

ADV = Namespace("https://cogtree.dev/advisor#")
"""The Advisor domain's namespace (prefix ``adv:``)."""

PACKAGE_DIR = Path(__file__).parent
TURTLE_FILES = (PACKAGE_DIR / "vocabulary.ttl", PACKAGE_DIR / "advisor.ttl")
"""The shipped vocabulary and data, in loading order."""
QUERY_DIR = PACKAGE_DIR / "queries"

_QUERY_PREFIXES: Mapping[str, str] = {"adv": str(ADV)}
MAX_ID_LENGTH = 200
_LOCAL_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_REASON_ORDER: Mapping[ReasonKind, int] = {
    "allergy": 0,
    "intolerance": 1,
    "diet": 2,
    "exclusion": 3,
}
_PERSON_LISTS: Mapping[URIRef, str] = {
    ADV.allergicTo: "allergies",
    ADV.hasIntolerance: "intolerances",
    ADV.followsDiet: "diets",
    ADV.excludesIngredient: "excluded_ingredients",
    ADV.prefersIngredient: "preferred_ingredients",
}
_PERSON_TARGETS: Mapping[URIRef, str] = {
    ADV.dailyKcal: "kcal",
    ADV.dailyProtein: "protein_g",
    ADV.dailyCarbohydrate: "carbohydrate_g",
    ADV.dailyFat: "fat_g",
}
_NUTRIENTS = (
    ("kcal", "kcal", ADV.kcalPer100g),
    ("protein", "protein_g", ADV.proteinPer100g),
    ("carbohydrate", "carbohydrate_g", ADV.carbohydratePer100g),
    ("fat", "fat_g", ADV.fatPer100g),
)
"""(query variable, Nutrition field, graph property) for each nutrient."""


class UnknownEntityError(LookupError):
    """An id that names no dish or person in the knowledge graph."""


class AdvisorDataError(ValueError):
    """The graph lacks data a computation needs, e.g. an ingredient's nutrition values."""


def load_advisor_graph(*extra: str | Path) -> Graph:
    """A new Oxigraph-backed graph holding the shipped vocabulary and data, then ``extra`` files.

    Malformed Turtle raises :class:`knowledge.scene.rdf_store.TurtleError` naming the file and line.
    """
    graph = new_graph()
    for source in (*TURTLE_FILES, *extra):
        load_turtle(graph, source)
    logger.debug("advisor knowledge graph loaded: %d triples", len(graph))
    return graph


class AdvisorKG:
    """Questions about dishes, ingredients, allergens and people, answered from the graph.

    ``graph`` defaults to :func:`load_advisor_graph`'s. The graph stays available as
    :attr:`graph` (facts added to it are seen by the next question; nothing is cached).
    """

    def __init__(self, graph: Graph | None = None) -> None:
        self.graph = graph if graph is not None else load_advisor_graph()
        self._queries = QueryLibrary.load(QUERY_DIR)

    # ------------------------------------------------------------------ dishes

    def dishes(self) -> list[Dish]:
        """Every dish, by label."""
        return self._dishes(None)

    def dish(self, dish_id: str) -> Dish | None:
        """The dish with this id, or None when there is none."""
        iri = _iri(dish_id)
        if iri is None:
            return None
        found = self._dishes([iri])
        return found[0] if found else None

    def ingredients_of(
        self, dish_id: str, *, transitive: bool = True
    ) -> list[IngredientOccurrence]:
        """The ingredients of a dish, each with the shortest path from the recipe to it.

        With ``transitive`` (the default) everything the recipe contains at any depth, each
        ingredient once; otherwise the recipe's own ingredients. Sorted by depth, then label.
        """
        dish = self._require(dish_id, ADV.Dish, "dish")
        composition = self._composition(dish)
        paths = (
            composition.shortest_paths()
            if transitive
            else {root: (root,) for root in composition.recipe}
        )
        found = [
            IngredientOccurrence(
                ingredient=_named(node, composition.label(node)),
                path=_path_terms(path, composition),
            )
            for node, path in paths.items()
        ]
        return sorted(found, key=lambda item: (item.depth, item.ingredient.label.casefold()))

    def allergens_of(self, dish_id: str) -> list[Trace]:
        """Every allergen in a dish, at any depth, with each recipe path that carries it.

        One trace per allergen, carrying ingredient and recipe ingredient that brings it in
        (the shortest path down that branch); sorted by allergen label, then path. An empty
        list means the dish carries none of the declared allergens.
        """
        dish = self._require(dish_id, ADV.Dish, "dish")
        rows = self._select("allergens_of", dish=_uri(dish.id))
        if not rows:
            return []
        composition = self._composition(dish)
        traces = {
            Trace(component=_term(row, "allergen", "allergenLabel"), path=path)
            for row in rows
            for path in self._paths(composition, row["carrier"])
        }
        return sorted(traces, key=_trace_order)

    def nutrition_of(self, dish_id: str) -> Nutrition:
        """Energy and macronutrients of one serving, rounded to one decimal.

        Each recipe line contributes grams / 100 x its ingredient's values per 100 g; the sum
        is divided by the dish's servings. Raises :class:`AdvisorDataError` naming what is
        missing when the dish has no servings, no lines, or an ingredient without values.
        """
        dish = self._require(dish_id, ADV.Dish, "dish")
        rows = self._select("recipe_nutrition", dish=_uri(dish.id))
        servings = {_number(row.get("servings")) for row in rows}
        if len(servings) != 1 or None in servings:
            raise AdvisorDataError(
                f"dish {dish.id!r} needs exactly one numeric adv:servings to compute nutrition"
            )
        (per_recipe,) = servings
        lines = [row for row in rows if row.get("ingredient") is not None]
        if per_recipe is None or per_recipe <= 0 or not lines:
            raise AdvisorDataError(
                f"dish {dish.id!r} needs a positive adv:servings and adv:hasIngredient lines"
            )
        totals = dict.fromkeys((field for _, field, _ in _NUTRIENTS), 0.0)
        for line in lines:
            ingredient = _local(line["ingredient"])
            grams = _number(line.get("grams"))
            if grams is None:
                raise AdvisorDataError(
                    f"the {ingredient!r} line of dish {dish.id!r} has no numeric adv:grams"
                )
            for variable, field, prop in _NUTRIENTS:
                per_100g = _number(line.get(variable))
                if per_100g is None:
                    raise AdvisorDataError(
                        f"ingredient {ingredient!r} of dish {dish.id!r} has no numeric "
                        f"adv:{_local(prop)}; add it to compute nutrition"
                    )
                totals[field] += grams * per_100g / 100.0
        return Nutrition.model_validate(
            {field: round(total / per_recipe, 1) for field, total in totals.items()}
        )

    # ------------------------------------------------------------------ people

    def people(self) -> list[Person]:
        """Every person, by name."""
        return self._people(None)

    def person(self, person_id: str) -> Person | None:
        """The person with this id, or None when there is none."""
        iri = _iri(person_id)
        if iri is None:
            return None
        found = self._people([iri])
        return found[0] if found else None

    def allergens(self) -> list[Term]:
        """The allergens the graph declares (the 14 of EU Regulation 1169/2011), by label."""
        terms = [_term(row, "allergen", "label") for row in self._select("allergen_catalogue")]
        return sorted(terms, key=lambda term: term.label.casefold())

    # ------------------------------------------------------------------ compatibility

    def compatibility(self, dish_id: str, person_id: str) -> Compatibility:
        """Whether a dish suits a person: every constraint it breaks, with the path of each.

        A reason is an allergen the person is allergic to, a component that triggers one of
        their intolerances, a component their diet excludes, or an ingredient they exclude,
        found at any depth; one reason per carrying ingredient and recipe path. Exclusions
        always win: preferred ingredients are listed but never make a dish compatible.
        """
        dish = self._require(dish_id, ADV.Dish, "dish")
        person = self._require(person_id, ADV.Person, "person")
        bound: dict[str, Binding] = {"dish": _uri(dish.id), "person": _uri(person.id)}
        rows = self._select("conflicts", **bound)
        reasons: set[Reason] = set()
        if rows:
            composition = self._composition(dish)
            for row in rows:
                reason = {
                    "kind": str(row["kind"]),
                    "cause": _term(row, "cause", "causeLabel"),
                    "component": _term(row, "component", "componentLabel"),
                }
                for path in self._paths(composition, row["carrier"]):
                    reasons.add(Reason.model_validate({**reason, "path": path}))
        preferred = {
            _term(row, "ingredient", "label") for row in self._select("preferences", **bound)
        }
        return Compatibility(
            dish=dish,
            person=person,
            reasons=tuple(sorted(reasons, key=_reason_order)),
            preferred=tuple(sorted(preferred, key=lambda term: term.label.casefold())),
        )

    def compatible_dishes(self, person_id: str) -> list[Dish]:
        """The dishes that break none of the person's constraints, by label."""
        person = self._require(person_id, ADV.Person, "person")
        excluded = {
            _local(row["dish"])
            for row in self._select("conflicts", dish=None, person=_uri(person.id))
        }
        return [dish for dish in self._dishes(None) if dish.id not in excluded]

    # ------------------------------------------------------------------ internals

    def _select(self, name: str, **values: Binding) -> list[ResultRow]:
        text = self._queries[name].bind(**values)
        # The queries declare their prefixes; a non-empty initNs only spares rdflib from
        # rebuilding the graph's whole prefix table on every call.
        result = self.graph.query(text, initNs=_QUERY_PREFIXES)
        return [row for row in result if isinstance(row, ResultRow)]

    def _require(self, entity_id: str, rdf_type: URIRef, kind: str) -> Term:
        """The entity as a Term, or UnknownEntityError naming the id and the fix."""
        iri = _iri(entity_id)
        rows = self._select("entities", entity=iri, type=rdf_type) if iri is not None else []
        if rows:
            return _term(rows[0], "entity", "label")
        listing = "AdvisorKG.dishes()" if kind == "dish" else "AdvisorKG.people()"
        shown = _shown(entity_id)
        if iri is None:
            raise UnknownEntityError(
                f"{shown} is not a valid {kind} id: ids are local names of the adv: namespace "
                f"made of letters, digits, '_' and '-'; {listing} lists the known ones"
            )
        raise UnknownEntityError(
            f"no {kind} with id {shown} in the advisor knowledge graph; "
            f"{listing} lists the known ones"
        )

    def _composition(self, dish: Term) -> Composition:
        rows = self._select("composition", dish=_uri(dish.id))
        recipe: list[str] = []
        contains: list[tuple[str, str]] = []
        labels: dict[str, str] = {}
        for row in rows:
            parent, child = _local(row["parent"]), _local(row["child"])
            label = row.get("childLabel")
            if label is not None:
                labels.setdefault(child, str(label))
            if parent == dish.id:
                recipe.append(child)
            else:
                contains.append((parent, child))
        return Composition(recipe, contains, labels)

    @staticmethod
    def _paths(composition: Composition, carrier: Node) -> list[tuple[Term, ...]]:
        return [_path_terms(path, composition) for path in composition.paths_to(_local(carrier))]

    def _dishes(self, iris: Sequence[URIRef] | None) -> list[Dish]:
        headers = self._select("dishes", dish=iris)
        lines: dict[str, list[RecipeLine]] = {}
        for row in self._select("recipe_lines", dish=iris):
            grams = _number(row.get("grams"))
            if grams is not None:
                lines.setdefault(_local(row["dish"]), []).append(
                    RecipeLine(ingredient=_term(row, "ingredient", "label"), grams=grams)
                )
        diets: dict[str, list[Term]] = {}
        for row in self._select("dish_diets", dish=iris):
            diets.setdefault(_local(row["dish"]), []).append(_term(row, "diet", "dietLabel"))
        dishes: dict[str, Dish] = {}
        for row in headers:
            dish_id = _local(row["dish"])
            if dish_id in dishes:  # a second label or course: keep the first answer
                continue
            course = row.get("course")
            servings = _number(row.get("servings"))
            cuisine = row.get("cuisine")
            dishes[dish_id] = Dish(
                id=dish_id,
                label=_label(row.get("label"), dish_id),
                cuisine=str(cuisine) if cuisine is not None else None,
                course=_term(row, "course", "courseLabel") if course is not None else None,
                servings=int(servings) if servings is not None else None,
                ingredients=tuple(
                    sorted(
                        lines.get(dish_id, []), key=lambda line: line.ingredient.label.casefold()
                    )
                ),
                diets=tuple(sorted(diets.get(dish_id, []), key=lambda term: term.id)),
            )
        return sorted(dishes.values(), key=lambda dish: (dish.label.casefold(), dish.id))

    def _people(self, iris: Sequence[URIRef] | None) -> list[Person]:
        names: dict[str, str] = {}
        targets: dict[str, dict[str, float]] = {}
        lists: dict[str, dict[str, list[Term]]] = {}
        for row in self._select("people", person=iris):
            person_id = _local(row["person"])
            prop, value = row["property"], row["value"]
            targets.setdefault(person_id, {})  # every person gets an entry, even with no target
            lists.setdefault(person_id, {})
            if prop == RDFS.label:
                names.setdefault(person_id, str(value))
            elif prop in _PERSON_TARGETS:
                number = _number(value)
                if number is not None:
                    targets[person_id][_PERSON_TARGETS[URIRef(prop)]] = number
            elif prop in _PERSON_LISTS:
                field = _PERSON_LISTS[URIRef(prop)]
                term = _named(_local(value), _label(row.get("valueLabel"), _local(value)))
                lists[person_id].setdefault(field, []).append(term)
        people = [
            Person.model_validate(
                {
                    "id": person_id,
                    "name": names.get(person_id, person_id),
                    "daily_targets": DailyTargets.model_validate(targets[person_id]),
                    **{
                        field: tuple(sorted(terms, key=lambda term: term.label.casefold()))
                        for field, terms in lists[person_id].items()
                    },
                }
            )
            for person_id in targets
        ]
        return sorted(people, key=lambda person: (person.name.casefold(), person.id))


# ---------------------------------------------------------------------- ids and terms


def _iri(entity_id: object) -> URIRef | None:
    """The IRI an id names, or None when the id is not a well-formed adv: local name or IRI."""
    if not isinstance(entity_id, str):
        return None
    local = entity_id.removeprefix(str(ADV))
    if len(local) > MAX_ID_LENGTH or not _LOCAL_ID.fullmatch(local):
        return None
    return ADV[local]


def _uri(local_id: str) -> URIRef:
    """The IRI of an id that came out of the graph (already known to be well formed)."""
    iri = _iri(local_id)
    return iri if iri is not None else URIRef(local_id)


def _local(node: Node | None) -> str:
    text = str(node)
    return text.removeprefix(str(ADV))


def _label(label: Node | None, fallback: str) -> str:
    return str(label) if label is not None else fallback


def _named(node_id: str, label: str) -> Term:
    return Term(id=node_id, label=label)


def _term(row: ResultRow, variable: str, label_variable: str) -> Term:
    node_id = _local(row[variable])
    return _named(node_id, _label(row.get(label_variable), node_id))


def _number(node: Node | None) -> float | None:
    """A numeric literal's value; None for anything else (unbound, text, malformed numbers)."""
    if not isinstance(node, Literal):
        return None
    value = node.toPython()
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return None
    return float(value)


def _path_terms(path: Iterable[str], composition: Composition) -> tuple[Term, ...]:
    return tuple(_named(node, composition.label(node)) for node in path)


def _shown(entity_id: object) -> str:
    text = repr(entity_id)
    return text if len(text) <= 80 else f"{text[:77]}..."


def _trace_order(trace: Trace) -> tuple[str, tuple[str, ...]]:
    return (trace.component.label.casefold(), tuple(term.label for term in trace.path))


def _reason_order(reason: Reason) -> tuple[int, str, str, tuple[str, ...]]:
    return (
        _REASON_ORDER[reason.kind],
        reason.cause.label.casefold(),
        reason.component.label.casefold(),
        tuple(term.label for term in reason.path),
    )
