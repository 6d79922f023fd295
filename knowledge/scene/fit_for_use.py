"""Of several things that fit a request to be handed something, the one to hand over.

"Pass me the dish brush" with a clean brush and a dirty one: what a person asks to be handed
is for use, so the clean one. A thing whose name says it is in a state that spoils its use
(:data:`UNFIT_STATES`: dirty, broken, empty, expired, ...) is set aside when exactly one of
the things that fit is not in such a state, and the request names no such state itself
("pass me the dirty brush" is resolved by its words already). With two usable things, or
none, nothing is narrowed: the choice stays the user's.

When several usable things still fit and they sit in one place (the same shelf, the same
counter), the choice between them does not matter to the request as said: what the robot
hands over the user sees at once, and the other one is right beside it, so a wrong pick costs
the user no more than a question would ("not that one": one more word) while a question costs
every user a turn (:func:`any_will_do`). Things in different places are not interchangeable:
fetching the wrong one is a trip, so the user is asked. Nor is "my mug" when none is known to
be the user's: they mean theirs, which the robot cannot tell. Nor are things that differ in what
they are (:func:`interchangeable`): a bleach bottle beside a water bottle, a cracked glass
beside two clean ones, the TV remote beside the air con remote (a word before the noun that
names another thing says what it goes with). A wrong pick there is not one word away, so the
user is asked. Side by side things that differ only in which member of one category they are
(:func:`any_one_will_do`'s test) are alike to a request that said no more of them than that
category: "that fruit" with an apple beside a satsuma is either, as the user put it, and the
reply offers the other; a wish said past the category ("that fruit for the pie") keeps the
choice the user's.

When the user asks for any one thing of a kind ("a piece of fruit", "something to read",
"one of the mugs"), things of different types may all be what was asked for: an apple and a
satsuma are both a piece of fruit. Any one of them will do, wherever it is, when they differ
only in which member of the category they share they are (:func:`any_one_will_do`): not in
whose they are, in a state that spoils their use, in a kind, material or flag, in what their
names say beyond that category (a jug of water, a jug of juice), nor in a type the hazard
rules name (beer and cola are both drinks, only one is alcohol); medicines, chemicals, blades
and heat sources must be of one type (:data:`WHICH_MATTERS`: two medicines are not any pill).
What a member's own type is under does not tell it apart (a biscuit is also a sweet), nor a
food's wrapping but glass or an unknown make (:data:`HAZARDOUS_WRAPPING`). Asked for any one,
a thing of a kind in :data:`WHICH_MATTERS` is never chosen beside a harmless one that would
do ("some cutlery": the fork, not the knife), and of things otherwise alike the one with the
fewest :data:`WARNINGS` goes first (the crisps before the biscuits a toddler may choke on).
One in the room the speaker is in is taken before one elsewhere. Things found by what they
are for ("something to write with": a pen, a pencil) serve that use alike whatever they are,
unless the hazard rules tell them apart (:func:`_any_for_the_use`).

Only requests that bring a thing to the person speaking are narrowed by use and by place;
disposal, moving or putting away are not (the dirty brush may well be the one meant there,
and a thing thrown away or put out of sight is not undone at a glance). "Any one" of a kind
narrows every request: the user's own words say none is meant over the others.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Final

from cogtree.knowledge.scene.scene_models import UNOWNED_NOTE, Candidate
from cogtree.knowledge.scene.taxonomy import DRINK, FOOD, Taxonomy, household_taxonomy
from cogtree.knowledge.wording import PLACE_WORDS, join_at

UNFIT_STATES: Final = frozenset(
    [
        "dirty",
        "stained",
        "muddy",
        "greasy",
        "filthy",
        "soiled",
        "used",
        "broken",
        "cracked",
        "chipped",
        "damaged",
        "empty",
        "expired",
        "rotten",
        "mouldy",
        "moldy",
        "stale",
        "spoiled",
        "spoilt",
        "flat",
        "dead",
        "dull",
        "blunt",
        "worn",
        "torn",
        "leaking",
        "leaky",
    ]
)
"""Words that say a thing is in a state that spoils its use."""

_WORD: Final = re.compile(r"[a-z]+")


def states_in(text: str) -> frozenset[str]:
    """The unfit-state words of ``text`` (a label or what the user said)."""
    return frozenset(_WORD.findall(text.lower())) & UNFIT_STATES


def fit_for_use(candidates: Sequence[Candidate], said: str) -> list[Candidate]:
    """``candidates`` narrowed to the one fit for use, when exactly one is; else all of them.

    ``said`` is what the user said about the thing: when it names an unfit state, nothing is
    narrowed. The kept candidate's reasons say why the others were set aside.
    """
    if len(candidates) < 2 or states_in(said) or any(UNOWNED_NOTE in c.reasons for c in candidates):
        return list(candidates)  # "my mug" with none known to be mine: the one meant is mine
    usable = [candidate for candidate in candidates if not states_in(candidate.label)]
    if len(usable) != 1:
        return list(candidates)
    spoiled = [candidate.label for candidate in candidates if candidate is not usable[0]]
    note = f"fit for use; set aside: {', '.join(spoiled)}"
    return [usable[0].model_copy(update={"reasons": [*usable[0].reasons, note]})]


def interchangeable(candidates: Sequence[Candidate], readings: Mapping[str, Hashable]) -> bool:
    """Whether handing over any of ``candidates`` is the same to the request as said.

    They must be of one declared type, none in an unfit state (:func:`states_in` its label),
    and alike in what they are: ``readings`` maps an id to what it is for safety
    (:func:`~knowledge.safety.thing_properties.what_it_is`); a candidate with no reading is
    not known to be alike, so it is not.
    """
    if not _comparable(candidates, readings):
        return False
    return len({(candidate.type, readings[candidate.id]) for candidate in candidates}) == 1


def _comparable(candidates: Sequence[Candidate], readings: Mapping[str, Hashable]) -> bool:
    """None unfit, each with a reading, and all of them go with the same things (or none).

    Nor "my mug" when none is known to be the speaker's (:data:`UNOWNED_NOTE`): one is theirs.
    """
    if any(states_in(c.label) or UNOWNED_NOTE in c.reasons for c in candidates):
        return False
    if any(candidate.id not in readings for candidate in candidates):
        return False
    return len({_whose(candidate) for candidate in candidates}) == 1


def _whose(candidate: Candidate) -> frozenset[str]:
    """The other things the words before the candidate's noun name: "TV remote" is the TV's.

    A word of its label that names a type of the taxonomy (not the candidate's own) says what
    the thing goes with, which matters to the request: the TV remote is not the air con
    remote. A colour or a pattern names no type ("the blue mug", "the spotty mug"), nor does a
    food before a thing not made for food (:data:`FOOD_HANDLING`: "the mustard cushion"), and
    the words of a name of its own type are its name ("cereal bar" is a granola bar), as are
    those of a narrower type its label names ("wine glass" is a glass of the kind WineGlass).
    """
    taxonomy = household_taxonomy()
    words = _WORD.findall(candidate.label.lower())
    before = join_at(words) or len(words)
    own = candidate.type or ""
    labelled = taxonomy.type_named(" ".join(words[:before])) or own  # "wine glass": a Glass
    kinds = {own, labelled} if taxonomy.is_a(labelled, own) else {own}
    names = {
        name.lower() for kind in kinds for name in (taxonomy.label(kind), *taxonomy.synonyms(kind))
    }
    start = max(before - 1, 0)
    start = next((i for i in range(start) if " ".join(words[i:before]) in names), start)
    named = {taxonomy.type_named(word) for word in words[:start]}
    handles_food = any(taxonomy.is_a(own, kind) for kind in FOOD_HANDLING)
    return frozenset(
        kind
        for kind in named
        if kind
        and not taxonomy.is_a(own, kind)
        and (handles_food or not (taxonomy.is_a(kind, FOOD) or taxonomy.is_a(kind, DRINK)))
    )


FOOD_HANDLING: Final = frozenset(
    ["Tableware", "ContainerItem", "KitchenUtensil", "Cookware", "Cutlery", "Appliance"]
)
"""Categories of things made to hold, serve, prepare or keep food and drink: a food or a drink
named before one's noun says what it goes with ("the mustard spoon", "the wine glass"); before
anything else it only describes it ("the mustard cushion", "the lemon jumper")."""


def named_part(label: str) -> str:
    """The words of ``label`` before it says where the thing is: "lamp by the sofa" -> "lamp".

    What a thing is is read from these: the lamp by the sofa is no sofa, so it is alike to
    the lamp by the window.
    """
    words = label.split()
    return " ".join(words[: join_at([word.lower() for word in words], PLACE_WORDS)])


def any_will_do(
    candidates: Sequence[Candidate],
    places: Mapping[str, str],
    readings: Mapping[str, tuple[frozenset[str], ...]],
    ruled: frozenset[str] | None = None,
) -> list[Candidate]:
    """``candidates`` narrowed to the first when they are all in one place and alike.

    Alike is :func:`interchangeable` (``readings``: what each is, for safety), or, with
    ``ruled`` (the types the hazard rules name), alike but for which member of the category
    the user's words named they are (:func:`any_one_will_do`: "that fruit", an apple beside
    an orange). ``places`` maps a candidate's id to where it is believed to be ("on
    counter"); a candidate with no known place keeps the choice the user's. The kept
    candidate's reasons name the others, so the reply can offer them.
    """
    if len(candidates) < 2:
        return list(candidates)
    where = {places.get(candidate.id, "") for candidate in candidates}
    if len(where) != 1 or "" in where:
        return list(candidates)
    if not interchangeable(candidates, readings):
        return any_one_will_do(candidates, places, readings, ruled, asked_any=False)
    first, others = candidates[0], [candidate.label for candidate in candidates[1:]]
    note = f"any would do ({where.pop()}); {ALSO_THERE}{', '.join(others)}"
    return [first.model_copy(update={"reasons": [*first.reasons, note]})]


def any_one_will_do(
    candidates: Sequence[Candidate],
    places: Mapping[str, str],
    readings: Mapping[str, tuple[frozenset[str], ...]],
    ruled: frozenset[str] | None,
    *,
    asked_any: bool = True,
) -> list[Candidate]:
    """Of ``candidates`` for "any one" of a kind, the first (in the speaker's room, if any).

    Narrowed when they differ only in which member of their nearest shared category they are
    (see the module docs). ``ruled``: the types the hazard rules name
    (:func:`named_in_rules`; None when the rules cannot be read: nothing is narrowed). A thing
    of a kind in :data:`WHICH_MATTERS` is told apart by its every type: two medicines are not
    any one pill; when the user ``asked_any`` ("some cutlery", not "the jar" of two side by
    side), beside harmless things that would do it is not chosen (:func:`_harmless`). Of
    those that would, the one with fewest warnings (:func:`_fewest_warnings`). ``readings``: what
    each is (:func:`~knowledge.safety.thing_properties.what_it_is`: its types with their
    categories, then its kinds); ``places`` as for :func:`any_will_do`.
    """
    if len(candidates) < 2 or ruled is None or not _comparable(candidates, readings):
        return list(candidates)
    taxonomy = household_taxonomy()
    used = all(candidate.by_use for candidate in candidates)  # "something to write with"
    if used and (serving := _any_for_the_use(candidates, places, readings, ruled)):
        return serving
    contents = all(candidate.by_content for candidate in candidates)  # "a cold drink"
    asked = [_drink_of(taxonomy, readings[c.id][0]) if contents else c.type for c in candidates]
    shared = _shared_category([kind or "" for kind in asked])
    if shared is None or (contents and not taxonomy.is_a(shared, DRINK)):
        return list(candidates)
    pool = (_harmless(candidates, readings) if asked_any else []) or candidates
    told = {_told_apart_by(readings[c.id], shared, ruled, contents=contents) for c in pool}
    safest = _fewest_warnings(pool, readings)
    if len(told) != 1 or not safest:
        return list(candidates)
    among = _plainest(safest, readings, shared)
    return [_first(candidates, places, taxonomy.label(shared), among=among)]


def _plainest(
    candidates: Sequence[Candidate], readings: Mapping[str, tuple[frozenset[str], ...]], shared: str
) -> list[Candidate]:
    """Of ``candidates``, those that are plainly of the ``shared`` kind, when any are.

    "a glass" with tumblers (glasses) and a wine glass (a narrower kind): a tumbler. Else all.
    """
    taxonomy = household_taxonomy()
    plain = [
        candidate
        for candidate in candidates
        if not any(
            kind != shared and taxonomy.is_a(kind, shared) for kind in readings[candidate.id][0]
        )
    ]
    return plain or list(candidates)


def _any_for_the_use(
    candidates: Sequence[Candidate],
    places: Mapping[str, str],
    readings: Mapping[str, tuple[frozenset[str], ...]],
    ruled: frozenset[str],
) -> list[Candidate] | None:
    """Of things found by what they are for, the first, when only their use was asked for.

    A pen and a pencil are both something to write with: they differ in what type and
    material they are, which the user did not ask about. Not when anything else tells them
    apart: a type the hazard rules name, their kinds and flags (a hot spoon beside a cold one;
    a kind in :data:`WHICH_MATTERS`: something to cut with is no guess between blades), what
    they hold or whose they are. Of those alike, the one with the fewest :data:`WARNINGS`.
    None otherwise: they are compared as any one of a kind.
    """
    told = {(r[0] & ruled, r[1] - WARNINGS, *r[3:]) for c in candidates if (r := readings[c.id])}
    matters = any(readings[c.id][1] & WHICH_MATTERS for c in candidates)
    safest = _fewest_warnings(candidates, readings)
    if len(told) != 1 or matters or not safest:
        return None
    return [_first(candidates, places, "of them", among=safest)]


def _harmless(
    candidates: Sequence[Candidate], readings: Mapping[str, tuple[frozenset[str], ...]]
) -> list[Candidate]:
    """Those of ``candidates`` of no kind in :data:`WHICH_MATTERS`, in what they are or hold.

    "Some cutlery" with a fork, a spoon and a knife: the fork or the spoon, never the blade
    when a harmless thing will do. All of them (or none) harmless: [] (no narrowing here).
    """
    harmless = [c for c in candidates if not _kinds_and_flags(readings[c.id]) & WHICH_MATTERS]
    return harmless if len(harmless) < len(candidates) else []


def _fewest_warnings(
    candidates: Sequence[Candidate], readings: Mapping[str, tuple[frozenset[str], ...]]
) -> list[Candidate]:
    """Those of ``candidates`` with the fewest :data:`WARNINGS`, when theirs are in every other's.

    A packet of biscuits (a choking hazard to a toddler) and a bag of crisps are both a snack:
    the crisps go first. [] when the warnings do not nest (one thing choking, another fragile):
    neither is the safer, so the user chooses.
    """
    warned = {c.id: _warnings(readings[c.id]) for c in candidates}
    fewest = min(warned.values(), key=len)
    if not all(fewest <= warnings for warnings in warned.values()):
        return []
    return [candidate for candidate in candidates if warned[candidate.id] == fewest]


def _warnings(reading: tuple[frozenset[str], ...]) -> frozenset[str]:
    """The :data:`WARNINGS` of a reading."""
    return _kinds_and_flags(reading) & WARNINGS


def _kinds_and_flags(reading: tuple[frozenset[str], ...]) -> frozenset[str]:
    """Everything a reading says past its types: kinds, materials, flags, what it holds."""
    return frozenset().union(*reading[1:])


def _told_apart_by(
    reading: tuple[frozenset[str], ...], shared: str, ruled: frozenset[str], *, contents: bool
) -> tuple[frozenset[str], ...]:
    """What tells a thing apart from others of the ``shared`` category asked for.

    Its types beyond that category and those the hazard rules name (``ruled``; every type for
    a kind in :data:`WHICH_MATTERS`), its kinds, materials, flags, owners and what it holds.
    With ``contents`` (found by the drink it holds: "a cold drink") only its drinks' types
    count, and not what makes it a vessel (its material, :data:`VESSEL_KINDS`): a can of cola
    and a glass bottle of water are both a drink; the plan's hazard rules still judge the one
    handed over.
    """
    taxonomy = household_taxonomy()
    types, kinds, materials, *rest = reading
    if kinds & WHICH_MATTERS:  # two medicines are not any one pill, in whatever they come
        return (types, kinds, materials, *rest)
    if contents:
        types = frozenset(kind for kind in types if taxonomy.is_a(kind, DRINK))
        materials, kinds = frozenset(), kinds - VESSEL_KINDS
        rest = [part - VESSEL_KINDS for part in rest]
    if taxonomy.is_a(shared, FOOD):  # a snack is asked for, not its wrapping, unless it
        materials &= HAZARDOUS_WRAPPING  # is glass or unknown (the hazard rules read both)
    members = [kind for kind in types if taxonomy.is_a(kind, shared)]
    beyond = (kind for kind in types if not taxonomy.is_a(kind, shared))
    # a category the member itself is under says what kind of member it is (a biscuit is a
    # sweet and a snack): only another description's types tell it apart (a jug of juice)
    told = frozenset(kind for kind in beyond if not any(taxonomy.is_a(m, kind) for m in members))
    return (
        told | (types & ruled),
        kinds - WARNINGS,
        materials,
        *(part - WARNINGS for part in rest),
    )


def _drink_of(taxonomy: Taxonomy, types: frozenset[str]) -> str | None:
    """The narrowest drink of ``types`` (a thing's types with their categories), if one."""
    drinks = [kind for kind in types if taxonomy.is_a(kind, DRINK)]
    deepest = [kind for kind in drinks if all(taxonomy.is_a(kind, other) for other in drinks)]
    return deepest[0] if len(deepest) == 1 else None


def _first(
    candidates: Sequence[Candidate],
    places: Mapping[str, str],
    kind: str,
    among: Sequence[Candidate] = (),
) -> Candidate:
    """The candidate to act on of any that would do: in the speaker's room, if any.

    Of ``among`` when given (the safest, :func:`_fewest_warnings`). Its reasons name the
    others, so the reply can offer them.
    """
    pool = among or candidates
    first = next((c for c in pool if places.get(c.id)), pool[0])
    others = [candidate.label for candidate in candidates if candidate is not first]
    note = f"any one {kind} would do; {ALSO_THERE}{', '.join(others)}"
    return first.model_copy(update={"reasons": [*first.reasons, note]})


VESSEL_KINDS: Final = frozenset(["holds_liquid"])
"""Kinds a thing has for being made to hold a liquid: not what a drink asked for is."""

HAZARDOUS_WRAPPING: Final = frozenset(["breakable", "material unknown"])
"""Material classes of a food's wrapping the hazard rules read (a glass jar, a thing of
unknown make): these still tell one food apart from another."""

WARNINGS: Final = frozenset(["choking", "fragile"])
"""Flags that make a thing unsafe only for some people (a toddler may choke, a frail hand
drops a glass): of things otherwise alike, one without is handed over first."""

WHICH_MATTERS: Final = frozenset(["medicine", "chemical", "sharp", "heat_source", "electrical"])
"""Kinds (hazard flags) of things where the wrong member of a category harms, not merely
displeases: which medicine, which cleaning chemical, which blade, which heater or appliance.
Of food, drinks, clothes or books any member asked for will do (alcohol is told apart by the
type the hazard rules name)."""


def _shared_category(types: Sequence[str]) -> str | None:
    """The nearest type every one of ``types`` is or lies under; None when there is none."""
    taxonomy = household_taxonomy()
    if not types or any(kind not in taxonomy.types for kind in types):
        return None
    for kind in (types[0], *taxonomy.categories_of(types[0])):
        if all(taxonomy.is_a(other, kind) for other in types):
            return kind
    return None


def named_in_rules(queries: Iterable[str]) -> frozenset[str]:
    """The words hazard rule ``queries`` quote: the types, kinds and flags they read.

    "AlcoholicDrink", "medicine", "sharp": what the rules tell things apart by.
    """
    return frozenset(literal for query in queries for literal in _QUOTED.findall(query))


_QUOTED: Final = re.compile(r'"([A-Za-z_]+)"')


ALSO_THERE: Final = "also there: "
"""How the kept candidate's reason names the others (:func:`any_will_do`, :func:`also_there`)."""


def also_there(reasons: Sequence[str]) -> list[str]:
    """The labels of the things :func:`any_will_do` left beside the one it kept, from its reasons.

    The reply offers them, so a wrong pick costs the user one word.
    """
    return [
        label.strip()
        for reason in reasons
        if ALSO_THERE in reason
        for label in reason.split(ALSO_THERE, 1)[1].split(",")
        if label.strip()
    ]
