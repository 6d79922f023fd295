"""Typed answers of the Advisor knowledge graph: dishes, people, nutrition, traces, verdicts.

Every model is frozen and serialises to plain JSON, so an answer can go straight into a turn's
evidence bundle. Ids are the local names of the graph's IRIs in the ``adv:`` namespace
(``"pasta_al_pesto"`` for ``https://cogtree.dev/advisor#pasta_al_pesto``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

PATH_SEPARATOR = " → "
"""Separator of ingredient names in a rendered composition path."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Term(_Frozen):
    """A named node of the graph: its id and its human-readable label."""

    id: str
    label: str


class Nutrition(_Frozen):
    """Energy and macronutrients of an amount of food (a serving, or 100 g of an ingredient)."""

    kcal: float = Field(description="energy in kilocalories")
    protein_g: float
    carbohydrate_g: float
    fat_g: float


class DailyTargets(_Frozen):
    """A person's daily intake targets; a target the graph does not state is None."""

    kcal: float | None = None
    protein_g: float | None = None
    carbohydrate_g: float | None = None
    fat_g: float | None = None


class RecipeLine(_Frozen):
    """One line of a recipe: an ingredient and its quantity in the whole recipe."""

    ingredient: Term
    grams: float


class Dish(_Frozen):
    """A dish: what it is, what its recipe uses, and the diets it fits."""

    id: str
    label: str
    cuisine: str | None = None
    course: Term | None = None
    servings: int | None = Field(None, description="servings the recipe quantities make")
    ingredients: tuple[RecipeLine, ...] = Field(description="the recipe lines, by ingredient label")
    diets: tuple[Term, ...] = Field(
        (), description="diets (vegetarian, vegan, ...) no ingredient at any depth violates"
    )


class Person(_Frozen):
    """Someone the advisor serves: daily targets and every dietary constraint and preference."""

    id: str
    name: str
    daily_targets: DailyTargets
    allergies: tuple[Term, ...] = ()
    intolerances: tuple[Term, ...] = ()
    diets: tuple[Term, ...] = ()
    excluded_ingredients: tuple[Term, ...] = ()
    preferred_ingredients: tuple[Term, ...] = ()


class IngredientOccurrence(_Frozen):
    """An ingredient found in a dish, with the shortest chain of ingredients that brings it in.

    ``path`` runs from an ingredient of the recipe down to this one (inclusive), so a recipe
    ingredient has a path of length 1.
    """

    ingredient: Term
    path: tuple[Term, ...]

    @property
    def depth(self) -> int:
        """1 for a recipe ingredient, 2 for what it contains, and so on."""
        return len(self.path)

    def describe(self) -> str:
        """The path as text, e.g. ``"pesto → parmesan → milk"``."""
        return PATH_SEPARATOR.join(term.label for term in self.path)


class Trace(_Frozen):
    """Where a food component enters a dish: the ingredient path down to its carrier.

    ``path`` starts at an ingredient of the recipe and ends at the ingredient that carries
    ``component`` (for an excluded ingredient, at that ingredient itself).
    """

    component: Term
    path: tuple[Term, ...]

    def describe(self) -> str:
        """The path as text, e.g. ``"pesto → parmesan → milk"``."""
        return PATH_SEPARATOR.join(term.label for term in self.path)


ReasonKind = Literal["allergy", "intolerance", "diet", "exclusion"]
"""Which of a person's constraints a dish breaks."""


class Reason(Trace):
    """One way a dish breaks one of a person's constraints, and the path that carries it."""

    kind: ReasonKind
    cause: Term = Field(description="the allergen, intolerance, diet or excluded ingredient")

    def describe(self) -> str:
        """E.g. ``"lactose intolerance (lactose): mascarpone → cream → milk"``."""
        if self.kind == "exclusion":
            head = f"excluded ingredient {self.cause.label}"
        elif self.kind == "allergy":
            head = f"allergy to {self.cause.label}"
        elif self.kind == "diet":
            head = f"{self.cause.label} diet excludes {self.component.label}"
        else:
            head = f"{self.cause.label} ({self.component.label})"
        return f"{head}: {super().describe()}"


class Compatibility(_Frozen):
    """Whether a dish suits a person, and every reason it does not.

    Exclusions always win: the dish is compatible exactly when there is no reason against it,
    whatever preferred ingredients it also contains.
    """

    dish: Term
    person: Term
    reasons: tuple[Reason, ...] = Field(
        (), description="each allergen, intolerance, diet or exclusion hit, with its path"
    )
    preferred: tuple[Term, ...] = Field(
        (), description="the person's preferred ingredients found in the dish, at any depth"
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def compatible(self) -> bool:
        """True when nothing in the dish breaks the person's constraints."""
        return not self.reasons
