"""How much a pour asks for: everything when the words say so, else what fits.

"Pour some water into the glass" does not ask for the whole jug: an amount the request does
not give means what the target can still take. The words ask for everything when they say
so ("all", "the whole", "empty the jug into ...") or name the container poured from rather
than what is in it ("pour the water jug into the tumbler"); then the overfill hazard rule
judges the whole amount and refuses what would overflow. A partitive ("some", "a little",
"a splash") always means part of it. The task planner's POUR step and the hazard readings
both take their amount from :func:`pour_ml`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from cogtree.skills.action_model.belief import Belief

PART = re.compile(
    r"\b(some|a little|a bit|a splash|a drop|a dash|a drizzle|a glass of|a cup of|a mug of|"
    r"half|part of)\b",
    re.IGNORECASE,
)
"""Words that ask for part of what a container holds."""

WHOLE = re.compile(
    r"\b(all|whole|entire|everything|every drop|the rest|"
    r"empty\s+(?:out\s+)?(?:the|it|that|this|my|your|her|his|their))\b",
    re.IGNORECASE,
)
"""Words that ask for all of it; "empty" only as the verb ("empty the jug into ..."), not as
what the target is ("into the empty cup")."""


def pour_ml(belief: Belief, source: str, target: str, said: Iterable[str]) -> float | None:
    """The amount to pour from ``source`` into ``target``: None for everything it holds.

    What fits in ``target`` when the request (``said``) leaves the amount open and the
    source holds more than that; everything when it asks for all of it, names the source
    container, or the target's capacity is unknown.
    """
    poured, into = belief.things.get(source), belief.things.get(target)
    if poured is None or into is None or into.free_ml is None or poured.liquid_ml <= 0:
        return None
    if poured.liquid_ml <= into.free_ml:
        return None
    text = " ".join(said)
    if not PART.search(text) and (WHOLE.search(text) or _names_container(text, source, belief)):
        return None
    return into.free_ml if into.free_ml > 0 else None


def _names_container(text: str, source: str, belief: Belief) -> bool:
    """Whether ``text`` pours the source by its container word ("pour the jug into ...").

    Naming where the liquid comes from ("the milk from the jug") is not asking for all of it.
    """
    found = belief.things[source]
    name = (found.label or source.replace("_", " ")).lower()
    container = name.split(" of ")[0].rsplit(" ", 1)[-1]
    if found.liquid and container == found.liquid.lower():
        return False
    mentions = re.finditer(
        rf"(\bfrom\s+(?:\w+\s+){{0,2}})?\b{re.escape(container)}s?\b", text.lower()
    )
    return any(mention.group(1) is None for mention in mentions)
