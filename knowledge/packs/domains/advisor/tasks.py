"""Task schemas of the advisor domain pack (JANUS's dietary advisor, Table 1).

- :class:`AddToDatabase` (memory write): remember what the user said about foods, allergens,
  intolerances or diets, or their four daily targets (energy, protein, carbohydrate, fat);
  :meth:`AddToDatabase.claims` turns it into memory claims.
- :class:`DishInfo` (knowledge query ``dish_info``): nutrition, ingredients, allergens or diets
  of one dish, and whether it suits the stored profile when there is one.
- :class:`SubstituteDish` (knowledge query ``substitute_dish``): other dishes instead of one
  (named, or the weekly plan's at a day and meal), with excluded, preferred and only-these
  ingredients and the meal's context; allergies always win.

Mandatory fields are never defaulted: a schema that needs one of two groups of fields
(``required_alternatives``, see :mod:`knowledge.packs.task_schema`) has the readiness gate ask for
the rest of the group the user started.

Ids are local names of the advisor graph (``Peanuts``, ``cows_milk``, ``tiramisu``). The field
descriptions are what the robot reads when it has to ask for a missing value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import ClassVar, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from cogtree.knowledge.language.subject import names_someone
from cogtree.knowledge.memory.model import OTHERS_SLOT, Claim, FactKind
from cogtree.knowledge.memory.note import Introduction
from cogtree.knowledge.memory.questions import MemoryQuery
from cogtree.knowledge.packs.domains.advisor.target_shares import target_shares
from cogtree.knowledge.packs.task_schema import said
from cogtree.knowledge.wording import id_words

__all__ = [
    "AddToDatabase",
    "DishInfo",
    "Introduction",
    "MemoryQuery",
    "SubstituteDish",
    "target_shares",
]

Relation = Literal["allergy", "intolerance", "diet", "exclude", "prefer"]
"""How a person stands toward a food or diet."""

Aspect = Literal[
    "kcal",
    "protein",
    "carbohydrate",
    "fat",
    "ingredients",
    "allergens",
    "diets",
    "nutrition",
    "check",
    "profile",
]
"""What DishInfo can say about a dish: ``check`` (only whether it holds what is asked about) and
``profile`` (whether it suits the person, with its allergens) are never said, they follow from
what the question is about (:meth:`DishInfo._focus`)."""

DayOfWeek = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
"""A day of the weekly plan."""

MealType = Literal["breakfast", "lunch", "dinner", "snack"]
"""A meal of the day (vocabulary.ttl says which courses each one serves)."""

DAILY_TARGETS = ("daily_kcal", "daily_protein_g", "daily_carbohydrate_g", "daily_fat_g")
"""AddToDatabase's four daily targets: set together, never one by default."""

_TARGET_WORDS = {
    "daily_kcal": ("energy", "kcal"),
    "daily_protein_g": ("protein", "g"),
    "daily_carbohydrate_g": ("carbohydrate", "g"),
    "daily_fat_g": ("fat", "g"),
}

RELATIONS: tuple[Relation, ...] = get_args(Relation)
ASPECTS: tuple[Aspect, ...] = get_args(Aspect)
DAYS: tuple[str, ...] = get_args(DayOfWeek)
MEALS: tuple[str, ...] = get_args(MealType)
DIETS = frozenset({"vegetarian", "vegan", "pescatarian"})
"""Case-folded ids of the diets in vocabulary.ttl (a test keeps them equal to the graph's)."""

_MAX_NAME = 80

_UNITS = {
    "zero": 0, "a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip

_PRONOUNS = frozenset({"he", "she", "they", "him", "her", "them"})


class _Task(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


def _id_list(value: object, field: str, *, required: bool) -> object:
    """One id or several as distinct non-empty strings; other input is left to pydantic."""
    if value is None and not required:
        return []
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        return value
    ids: list[str] = []
    for item in items:
        if not isinstance(item, str):
            return items  # pydantic reports the wrong type
        text = item.strip()
        if text and text not in ids:
            ids.append(text)
    if required and not ids:
        raise ValueError(
            f"{field} needs at least one food, allergen, intolerance or diet, e.g. ['Peanuts']"
        )
    return ids


def _choice(value: object, allowed: tuple[str, ...], field: str) -> object:
    """``value`` case-folded when it is one of ``allowed``; a clear error when it is not."""
    if value is None or not isinstance(value, str):
        return value
    folded = value.strip().casefold()
    if not folded:
        return None
    if folded not in allowed:
        raise ValueError(f"{field} {value!r} is unknown; use one of {', '.join(allowed)}")
    return folded


def _flag(value: object) -> object:
    """A cue word as said ("actually", "no longer") means True, like ``"true"``."""
    if isinstance(value, str):
        return value.strip().casefold() not in ("", "false", "no", "0", "none")
    return value


def amount(value: object) -> object:
    """A quantity as said ("2,000", "2k", "eighteen hundred", "two-twenty") as a number.

    Anything it cannot read is left to pydantic, which reports it; nothing is guessed.
    """
    if not isinstance(value, str):
        return value
    text = re.sub(r"(?<=\d)\s*(?:g|kcal)$", "", value.strip().casefold().replace(",", ""))
    try:
        return float(text[:-1]) * 1000 if text.endswith("k") else float(text)
    except ValueError:
        pass
    words = [word for word in re.split(r"[\s-]+", text) if word and word != "and"]
    if not words or any(w not in _UNITS and w not in ("hundred", "thousand") for w in words):
        return value
    if len(words) == 2 and _UNITS.get(words[0], 0) < 10 and _UNITS.get(words[1], 0) >= 20:
        return float(_UNITS[words[0]] * 100 + _UNITS[words[1]])  # "two-twenty": 220
    total = current = 0
    for word in words:
        if word == "hundred":
            current = max(current, 1) * 100
        elif word == "thousand":
            total, current = total + max(current, 1) * 1000, 0
        else:
            current += _UNITS[word]
    return float(total + current)


def _name(value: str | None) -> str | None:
    if value is None or not value:
        return None
    if len(value) > _MAX_NAME:
        raise ValueError(f"person must be a name of at most {_MAX_NAME} characters")
    return value


class AddToDatabase(_Task):
    """Remember what the user said about foods, allergens, intolerances, diets or daily targets.

    Either ``targets`` (what the user is allergic to, avoids, likes, ...) or all four daily
    targets must be given; a user who gives some targets, or asks for a profile
    (``profile``), is asked for the others, none is assumed (``required_alternatives``). A
    profile (daily targets) is someone's: with no speaker known and no name said, the robot
    asks who it is for (``user_slot``).
    """

    required_alternatives: ClassVar[tuple[tuple[str, ...], ...]] = (
        ("targets",),
        ("profile", *DAILY_TARGETS),
    )
    required_together: ClassVar[tuple[tuple[str, ...], ...]] = (("profile", *DAILY_TARGETS),)
    user_slot: ClassVar[str] = "person"

    targets: list[str] = Field(
        default_factory=list,
        description="what to remember: the foods, allergens, intolerances or diets the user "
        "talks about, e.g. peanuts, lactose, vegetarian",
    )
    relation: Relation | None = Field(
        None,
        description="how the person stands toward them: allergy, intolerance, diet, exclude "
        "(does not want it) or prefer (likes it); none: diets are followed, foods avoided",
    )
    person: str | None = Field(None, description="Who is this for? Please tell me the name.")
    profile: bool = Field(
        False, description="the user asks for a profile of their daily targets ('set me up')"
    )
    other: str | None = Field(
        None, description="someone else the user names, with who they are ('my flatmate Sam')"
    )
    about: str | None = Field(
        None,
        description="who it is about when not the user, as said (e.g. 'my son', 'our guest'); "
        "none: the user",
    )
    correction: bool = Field(
        False, description="the user corrects something said before ('actually', 'I meant')"
    )
    retract: bool = Field(
        False,
        description="the user takes it back: it no longer holds ('no longer', 'not anymore', "
        "'I'm not allergic to ...'); the memory withdraws it, never stores its opposite",
    )
    daily_kcal: float | None = Field(
        None, gt=0, le=10000, description="What is your daily energy target, in kcal?"
    )
    daily_protein_g: float | None = Field(
        None, gt=0, le=1000, description="What is your daily protein target, in grams?"
    )
    daily_carbohydrate_g: float | None = Field(
        None, gt=0, le=2000, description="What is your daily carbohydrate target, in grams?"
    )
    daily_fat_g: float | None = Field(
        None, gt=0, le=1000, description="What is your daily fat target, in grams?"
    )

    @field_validator("targets", mode="before")
    @classmethod
    def _targets(cls, value: object) -> object:
        return _id_list(value, "targets", required=False)

    @field_validator("relation", mode="before")
    @classmethod
    def _relation(cls, value: object) -> object:
        return _choice(value, RELATIONS, "relation")

    @field_validator("person")
    @classmethod
    def _person(cls, value: str | None) -> str | None:
        return _name(value)

    @field_validator("about")
    @classmethod
    def _about(cls, value: str | None) -> str | None:
        """Someone the user names; a bare pronoun ("she") is asked about, never guessed.

        "My daily targets are ..." names no one: a possessive is someone else only when its
        noun is a word for a person (:func:`~knowledge.language.subject.names_someone`).
        """
        if value is None or not value.strip() or not names_someone(value):
            return None
        if value.strip().casefold() in _PRONOUNS:
            raise ValueError(f"about {value!r}: say who that is, e.g. 'my daughter'")
        return _name(" ".join(value.split()))

    @field_validator("correction", "retract", "profile", mode="before")
    @classmethod
    def _flags(cls, value: object) -> object:
        return _flag(value)

    @field_validator(*DAILY_TARGETS, mode="before")
    @classmethod
    def _amounts(cls, value: object) -> object:
        return amount(value)

    @classmethod
    def needs_user(cls, values: Mapping[str, object]) -> bool:
        """A profile of daily targets is someone's; a remembered food is the speaker's."""
        about = values.get("about")
        if said(values.get("other")) or (said(about) and names_someone(str(about))):
            return False  # someone else, named
        return any(said(values.get(name)) for name in ("profile", *DAILY_TARGETS))

    @model_validator(mode="after")
    def _someone_else_named(self) -> AddToDatabase:
        """'My flatmate Sam': what follows is Sam's, never the user's name or targets."""
        if self.other:
            self.about = self.about or _name(self.other)
            if self.person and self.person.casefold() == self.other.casefold():
                self.person = None
        return self

    @model_validator(mode="after")
    def _relation_fits_targets(self) -> AddToDatabase:
        given = [name for name in DAILY_TARGETS if getattr(self, name) is not None]
        if given and len(given) < len(DAILY_TARGETS):
            lacking = [name for name in DAILY_TARGETS if name not in given]
            raise ValueError(
                f"daily targets come as four: {', '.join(lacking)} missing; ask the user, "
                "never assume a target"
            )
        if not self.targets and not given:
            raise ValueError(
                "targets needs at least one food, allergen, intolerance or diet, e.g. "
                "['Peanuts'], or give all four daily targets"
            )
        for target in self.targets:
            is_diet = target.casefold() in DIETS
            if self.relation == "diet" and not is_diet:
                raise ValueError(
                    f"relation 'diet' takes a diet ({', '.join(sorted(DIETS))}); {target!r} is "
                    "not one: use allergy, intolerance, exclude or prefer"
                )
            if is_diet and self.relation in ("allergy", "intolerance", "exclude"):
                raise ValueError(
                    f"{target!r} is a diet: use relation 'diet' or 'prefer', not {self.relation!r}"
                )
        return self

    def relation_of(self, target: str) -> Relation:
        """The relation that applies to ``target``: the stated one, else diet or exclude."""
        if self.relation is not None:
            return self.relation
        return "diet" if target.casefold() in DIETS else "exclude"

    def claims(self) -> list[Claim]:
        """The memory claims of this statement: the user's name, then one per target.

        A followed diet goes to ``diet.<id>``, everything else to ``food.<id>`` (one slot per
        food, so a later correction replaces it). Allergies, intolerances, exclusions and diets
        are hard constraints; preferences are preferences. A retraction withdraws the fact on
        each slot (negative claims, "Anna is no longer allergic to peanuts"). A statement
        ``about`` someone else is theirs: ``The user's son is allergic to peanuts`` on
        ``about.son.food.Peanuts`` (:data:`~knowledge.memory.model.OTHERS_SLOT`), never on the
        user's own slot.
        """
        who = self.person or "The user"
        owner = ""
        if self.about:
            who, owner = _someone_else(self.about)
        found: list[Claim] = []
        if self.person:
            found.append(
                self._claim(f"The user's name is {self.person}", "identifier", "user.name")
            )
        for target in self.targets:
            relation = self.relation_of(target)
            kind: FactKind = "preference" if relation == "prefer" else "hard_constraint"
            slot = f"{owner}{'diet' if relation == 'diet' else 'food'}.{target}"
            claim = self._claim(_sentence(who, relation, target), kind, slot)
            if self.retract:
                claim = claim.model_copy(
                    update={
                        "polarity": "negative",
                        "correction": True,
                        "text": _sentence(who, relation, target, no_longer=True),
                    }
                )
            found.append(claim)
        found.extend(self._target_claims(who, owner))
        return found

    def _target_claims(self, who: str, owner: str) -> list[Claim]:
        """One preference claim per daily target, on ``<owner>target.<nutrient>`` slots."""
        found = []
        for name, (nutrient, unit) in _TARGET_WORDS.items():
            amount = getattr(self, name)
            if amount is None:
                continue
            text = f"{who}'s daily {nutrient} target is {amount:g} {unit}"
            found.append(self._claim(text, "preference", f"{owner}target.{nutrient}"))
        return found

    def _claim(self, text: str, kind: FactKind, slot: str) -> Claim:
        return Claim(text=text, kind=kind, slot=slot, source="stated", correction=self.correction)


def _someone_else(about: str) -> tuple[str, str]:
    """Who a claim about someone else names, and its slot prefix.

    "my son" -> "The user's son", ``about.son.``; a name stays as said ("Tom", ``about.tom.``).
    """
    words = about.split()
    possessed = words[0].casefold() in ("my", "our") and len(words) > 1
    who = f"The user's {' '.join(words[1:])}" if possessed else about
    owner = "_".join(words[1:] if possessed else words).casefold()
    return who, f"{OTHERS_SLOT}{owner}."


def _sentence(who: str, relation: Relation, target: str, *, no_longer: bool = False) -> str:
    """A short sentence for one claim, e.g. ``Anna is allergic to peanuts``.

    ``no_longer``: the sentence of its withdrawal, ``Anna is no longer allergic to peanuts``.
    """
    food = id_words(target)
    verb, be, have = (
        ("no longer ", "is no longer", "no longer has") if no_longer else ("", "is", "has")
    )
    if relation == "prefer":
        thing = f"{food} food" if target.casefold() in DIETS else food
        return f"{who} {verb}likes {thing}"
    if relation == "diet":
        return f"{who} {verb}follows a {food} diet"
    if relation == "allergy":
        return f"{who} {be} allergic to {food}"
    if relation == "intolerance":
        if food.endswith(("intolerance", "disease")):
            return f"{who} {have} {food}"
        return f"{who} {be} intolerant to {food}"
    if no_longer:
        return f"{who} no longer avoids {food}"
    return f"{who} does not want {food}"


class DishInfo(_Task):
    """Tell the user about one dish, and whether it holds something or suits someone.

    JANUS's DishInfo: ``dish`` is required; ``check`` (ingredients, allergens or food
    categories to look for, at any depth of the dish's composition) and the profile to check
    against (``person``, a person the advisor knows; ``for_user``, the speaker's stored profile)
    are optional: as in JANUS's Table 1 the user is not required, so a question "for me" from
    someone unknown is answered with what is known (the profile told to the memory), and with
    nothing known the answer says the dish cannot be checked for them, never that it is safe.
    A question that names something to check, or asks about the person, and no
    aspect is answered with just that (``aspect`` becomes ``check`` or ``profile``); the profile
    row, a veto when the dish holds what the person must avoid, comes with every answer.
    """

    asks_speaker: ClassVar[bool] = False  # Table 1: the user is optional for DishInfo

    dish: str = Field(
        min_length=1, description="the dish the user asks about, e.g. tiramisu or lasagne"
    )
    aspect: Aspect | None = Field(
        None,
        description="what to tell: kcal, protein, carbohydrate, fat, ingredients, allergens, "
        "diets or nutrition (all four nutrients); none: an overview",
    )
    check: list[str] = Field(
        default_factory=list,
        description="ingredients or allergens the user asks whether the dish contains, e.g. "
        "peanuts",
    )
    person: str | None = Field(
        None, description="who the dish is for, when the user names someone else (e.g. my son)"
    )
    for_user: bool = Field(
        False, description="the user asks about themselves ('for me', 'can I eat it')"
    )

    @field_validator("aspect", mode="before")
    @classmethod
    def _aspect(cls, value: object) -> object:
        return _choice(value, ASPECTS, "aspect")

    @field_validator("check", mode="before")
    @classmethod
    def _check(cls, value: object) -> object:
        return _id_list(value, "check", required=False)

    @field_validator("person")
    @classmethod
    def _person(cls, value: str | None) -> str | None:
        return _name(value)

    @field_validator("for_user", mode="before")
    @classmethod
    def _for_user(cls, value: object) -> object:
        return _flag(value)

    @model_validator(mode="after")
    def _focus(self) -> DishInfo:
        """The part of the answer the question is about, when it names no aspect.

        About someone: a profile check; naming a thing to look for: a check (the person's
        profile still comes with it).
        """
        if self.aspect is None and (self.person is not None or self.for_user):
            self.aspect = "profile"
        elif self.aspect is None and self.check:
            self.aspect = "check"
        return self


class SubstituteDish(_Task):
    """Suggest other dishes instead of one, honouring exclusions, preferences and allergies.

    Excluded ingredients never appear, at any depth; preferred ones rank a dish higher but never
    let in one that is excluded; ``only`` keeps just dishes holding one of those ingredients and
    is set when the user says "only", "just" or "nothing but", or names what they have and says
    nothing else is available (``restricted``); otherwise what they have is preferred. The
    allergies and intolerances of the person (and of the user, from memory) always win: the day
    and the meal rank suggestions, never let one in. The dish to replace may be named, be the
    one the weekly plan has at ``day_of_week`` and ``meal_type``, or be none (dishes for the
    person and the meal). As in JANUS's Table 1 the user is the one required field: with no
    speaker known and nobody named, the robot asks whom it is for (``user_slot``).
    """

    user_slot: ClassVar[str] = "person"

    dish: str | None = Field(
        None, min_length=1, description="the dish to replace, e.g. spaghetti carbonara"
    )
    excluded: list[str] = Field(
        default_factory=list, description="ingredients the suggestion must not contain"
    )
    preferred: list[str] = Field(
        default_factory=list, description="ingredients to favour when possible"
    )
    only: list[str] = Field(
        default_factory=list,
        description="ingredients to restrict the suggestion to (only when the user says 'only')",
    )
    available: list[str] = Field(
        default_factory=list,
        description="ingredients the user says they have ('I've got tofu'): favoured, or the "
        "only ones allowed when the user says nothing else is available",
    )
    restricted: bool = Field(
        False,
        description="the user says nothing else is available or acceptable ('that's all I have')",
    )
    person: str | None = Field(None, description="Who is the dish for? Please tell me the name.")
    day_of_week: DayOfWeek | None = Field(
        None, description="the day of the week the meal is for, e.g. tuesday"
    )
    meal_type: MealType | None = Field(
        None, description="the meal it is for: breakfast, lunch, dinner or snack"
    )
    weekly_plan: bool = Field(
        False, description="the user speaks of their weekly meal plan ('in my plan')"
    )

    @field_validator("day_of_week", mode="before")
    @classmethod
    def _day(cls, value: object) -> object:
        return _choice(value, DAYS, "day_of_week")

    @field_validator("meal_type", mode="before")
    @classmethod
    def _meal(cls, value: object) -> object:
        return _choice(value, MEALS, "meal_type")

    @field_validator("weekly_plan", "restricted", mode="before")
    @classmethod
    def _plan_flag(cls, value: object) -> object:
        return _flag(value)

    @model_validator(mode="after")
    def _only_when_restricted(self) -> SubstituteDish:
        """What the user has is a preference, or the only choice when they say nothing else is.

        Excluded ingredients never become preferred or allowed, whatever else was said.
        """
        if self.restricted:
            self.only = _merged(self.only, self.available, self.preferred)
        else:
            self.preferred = _merged(self.preferred, self.available)
        self.available = []
        banned = {item.casefold() for item in self.excluded}
        self.only = [item for item in self.only if item.casefold() not in banned]
        self.preferred = [item for item in self.preferred if item.casefold() not in banned]
        return self

    @field_validator("excluded", "preferred", "only", "available", mode="before")
    @classmethod
    def _ingredients(cls, value: object) -> object:
        return _id_list(value, "ingredients", required=False)

    @field_validator("person")
    @classmethod
    def _person(cls, value: str | None) -> str | None:
        return _name(value)


def _merged(*lists: list[str]) -> list[str]:
    """The items of ``lists`` in order, each once."""
    return list(dict.fromkeys(item for items in lists for item in items))
