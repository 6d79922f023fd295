"""What the speaker said of themselves, in this conversation: one more description for safety.

"I'm only six", "I am 4 years old", "I'm pregnant", "my hands are shaking": a first-person
clause ("I am", "I'm", "I feel", "I have", "I've got") or one whose subject is a part of the
speaker's body ("my hands", "my wrist") says something of the person speaking.
:func:`said_of_self` reads those clauses into a :class:`SaidOfSelf`: the age group an age
said gives (a number, or a word for a young child), and the conditions that make a person
vulnerable around sharp, hot, heavy or toxic things (a condition word, or anything said of a
part of the body). The hazard check (:mod:`skills.safety.hazard_check`) adds them to what the
belief holds of the speaker: the union, so a statement can make the speaker a child or
vulnerable, never an adult or safe. A negated clause ("I'm not pregnant") says nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from cogtree.knowledge.understanding.faithfulness import stated_numbers

TODDLER_UNDER = Decimal(4)
"""An age said under this many years is a toddler's."""
CHILD_UNDER = Decimal(13)
"""An age said under this many years is a child's."""
ADULT_AT = Decimal(18)
"""An age said under this many years (and a child's no longer) is a minor's: no alcohol."""

AGE_WORDS = {
    "toddler": "toddler", "baby": "toddler", "child": "child", "kid": "child",
    "teenager": "minor", "teen": "minor", "minor": "minor", "underage": "minor",
    "adolescent": "minor",
}  # fmt: skip
"""Words a speaker uses of themselves that give their age group ("I'm just a kid")."""

YOUNGEST_FIRST = ("toddler", "child", "minor")
"""The age groups a statement can give, youngest first: of several, the youngest wins."""

CONDITIONS = frozenset(
    {
        "pregnant", "dizzy", "faint", "shaky", "shaking", "trembling", "unsteady", "wobbly",
        "weak", "frail", "blind", "disabled", "injured", "hurt", "drunk", "tipsy", "sick",
        "ill", "unwell", "poorly", "numb", "epileptic", "sprained", "broken", "arthritis",
        "tremor", "dementia", "epilepsy", "parkinson's", "concussion", "drowsy",
    }
)  # fmt: skip
"""Words of a condition that makes a person less safe with sharp, hot, heavy or toxic things."""

BODY = frozenset(
    {
        "hand", "hands", "arm", "arms", "wrist", "wrists", "finger", "fingers", "thumb", "leg",
        "legs", "knee", "knees", "hip", "hips", "back", "eyes", "eyesight", "sight", "grip",
        "balance", "feet", "foot", "ankle", "shoulder", "head", "vision",
    }
)  # fmt: skip
"""Parts of the body: whatever the speaker says of theirs ("my hands are shaking") is a
condition."""

HEDGES = frozenset({"only", "just", "still", "very", "really", "quite", "so", "a", "an", "now"})
"""Words before what is said that say nothing of it ("only six", "a bit dizzy")."""

_SELF = re.compile(
    r"^(?P<verb>i'm feeling|i am feeling|i have got|i've got|i am|i'm|im|i feel|i have|i've|"
    r"i got)\s+"
    r"(?P<said>.+)$"
)
_BE = frozenset({"i am", "i'm", "im"})
"""The verbs after which a number is the speaker's age ("I'm six"; not "I have six")."""
_BODY = re.compile(
    r"^my\s+(?P<part>[a-z]+)\s+(?:is|are|keeps?|feels?|won't|can't|has|have)\s+(?P<said>.+)$"
)
_NEGATION = re.compile(r"^(?:not|no longer|never|no)\b")
_CLAUSE_END = re.compile(r"[.!?;,]+|\s+(?:and|but|so|because)\s+")


@dataclass(frozen=True)
class SaidOfSelf:
    """What the speaker said of themselves: an age group, conditions, and the clauses said."""

    age_group: str | None = None
    """``toddler``, ``child`` or ``minor`` (13 to 17) when an age said makes them one."""
    conditions: tuple[str, ...] = ()
    """What makes them vulnerable, as said ("pregnant", "hands are shaking")."""
    clauses: tuple[str, ...] = ()
    """The clauses that gave either, as said (for the reason a refusal gives)."""


def said_of_self(utterances: Iterable[str]) -> SaidOfSelf:
    """What the utterances say of the speaker (see the module docs)."""
    ages: list[str] = []
    conditions: list[str] = []
    clauses: list[str] = []
    for clause, spoken in _clauses(utterances):
        age, condition = _read(clause)
        if age is not None:
            ages.append(age)
        if condition is not None:
            conditions.append(condition)
        if age is not None or condition is not None:
            clauses.append(spoken)
    return SaidOfSelf(
        youngest(*ages), tuple(dict.fromkeys(conditions)), tuple(dict.fromkeys(clauses))
    )


def _read(clause: str) -> tuple[str | None, str | None]:
    """(age group, condition) a clause says of the speaker; (None, None) when neither."""
    body = _BODY.match(clause)
    if body is not None and body.group("part") in BODY:
        said = body.group("said")
        return None, None if _NEGATION.match(said) else f"{body.group('part')} {said}"
    own = _SELF.match(clause)
    if own is None or _NEGATION.match(own.group("said")):
        return None, None
    words = [word for word in re.findall(r"[a-z0-9']+", own.group("said")) if word not in HEDGES]
    condition = " ".join(words) if CONDITIONS & set(words) else None
    return (_age_group(words) if own.group("verb") in _BE else None), condition


def _age_group(words: list[str]) -> str | None:
    """The age group an age said gives: "six", "4 years old", "a kid"; None for an adult's."""
    if not words:
        return None
    named = next((AGE_WORDS[word] for word in words if word in AGE_WORDS), None)
    if named is not None:
        return named
    # an age is a number said first ("six", "six and a half", "7 years old"), not "two dogs"
    numbers = stated_numbers(words[0])
    aged = len(words) == 1 or words[1] in ("years", "year", "yrs", "and")
    if not numbers or not aged:
        return None
    age = numbers[0].value
    if age < TODDLER_UNDER:
        return "toddler"
    return "child" if age < CHILD_UNDER else "minor" if age < ADULT_AT else None


def _clauses(utterances: Iterable[str]) -> list[tuple[str, str]]:
    """(clause read, clause as said) of every utterance."""
    found = []
    for utterance in utterances:
        for part in _CLAUSE_END.split(utterance.replace("\u2019", "'")):
            spoken = part.strip()
            if spoken:
                found.append((spoken.lower(), spoken))
    return found


def youngest(*groups: str | None) -> str | None:
    """The youngest of ``groups`` a statement can give; else the first known one (an adult's)."""
    return next(
        (group for group in YOUNGEST_FIRST if group in groups),
        next((group for group in groups if group is not None), None),
    )
