"""What the user said of themselves or of someone, in this conversation: more for safety.

"I'm only six", "I am 4 years old", "I'm pregnant", "my hands are shaking": a clause whose
subject is the speaker ("I") or a part of their body ("my hands", "my wrist"), followed by a
verb ("am", "feel", "have", "can", "keep"...), says something of the person speaking.
:func:`said_of_self` reads those clauses into a :class:`SaidOfSelf`: the age group an age
said gives (a number, or a word for a young child or a minor; "just turned two"; "nearly
four" a year lower, the safe side), and the conditions that make
a person vulnerable around sharp, hot, heavy or toxic things. What is said has a polarity
(short forms spelt out, "can't" is "can not"): a condition word ("dizzy", "arthritis"), or
anything said of a part of the body, is a condition; so is a capacity negated, a word of
wellness ("I'm not well", "my hands aren't steady") or an ability after "can" or "able" ("I
can't see very well", "I'm not able to grip"). A negated condition ("I'm not pregnant", "my
hands aren't shaking") says nothing, and so does a capacity said ("I can see"). The hazard
check (:mod:`skills.safety.hazard_check`) adds them to what the belief holds of the speaker:
the union, so a statement can make the speaker a child or vulnerable, never an adult or
safe. :func:`said_of_people` reads the same of anyone the robot knows: a clause whose
subject names a person ("grandma is only four", "my son is six", "mr okafor can't see very
well", "grandma's hands are shaking") or stands for one named in the same utterance ("she's
six, give grandma the knife"); a subject that names nobody gives nothing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from cogtree.knowledge.language.grammar.words import request_words
from cogtree.knowledge.language.tfidf import english_stop_words
from cogtree.knowledge.safety.said_of_things import HEDGES
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.understanding.faithfulness import stated_numbers

TODDLER_UNDER = Decimal(4)
"""An age said under this many years is a toddler's."""
CHILD_UNDER = Decimal(13)
"""An age said under this many years is a child's."""
ADULT_AT = Decimal(18)
"""An age said under this many years (and a child's no longer) is a minor's: no alcohol."""

AGE_WORDS = {
    "toddler": "toddler", "baby": "toddler", "infant": "toddler", "newborn": "toddler",
    "child": "child", "kid": "child",
    "teenager": "minor", "teen": "minor", "minor": "minor", "underage": "minor",
    "adolescent": "minor",
}  # fmt: skip
"""Words a speaker uses of themselves that give their age group ("I'm just a kid")."""

YOUNGEST_FIRST = ("toddler", "child", "minor")
"""The age groups a statement can give, youngest first: of several, the youngest wins."""
CHILDREN = YOUNGEST_FIRST[:2]
"""The age groups of a child (a minor is not one: no alcohol, but not kept from a chemical)."""

CONDITIONS = frozenset(
    {
        "pregnant", "dizzy", "faint", "shaky", "shaking", "trembling", "unsteady", "wobbly",
        "weak", "frail", "blind", "disabled", "injured", "hurt", "drunk", "tipsy", "sick",
        "ill", "unwell", "poorly", "numb", "epileptic", "sprained", "broken", "arthritis",
        "tremor", "dementia", "epilepsy", "parkinson's", "concussion", "drowsy",
        "allergic", "allergy", "intolerant", "coeliac", "celiac",
    }
)  # fmt: skip
"""Words of a condition that makes a person less safe with sharp, hot, heavy or toxic things."""

IN_WATER_TYPES = ("Bathtub", "Shower")
"""Types of the household taxonomy a person gets into with water: someone said to be in one
("I'm in the bath", "Jack's still in the shower") is in water, so at risk from anything
electrical. The condition reads ``in the <what was said>``."""

BODY = frozenset(
    {
        "hand", "hands", "arm", "arms", "wrist", "wrists", "finger", "fingers", "thumb", "leg",
        "legs", "knee", "knees", "hip", "hips", "back", "eyes", "eyesight", "sight", "grip",
        "balance", "feet", "foot", "ankle", "shoulder", "head", "vision",
    }
)  # fmt: skip
"""Parts of the body: whatever the speaker says of theirs ("my hands are shaking") is a
condition."""

WELLNESS = frozenset(
    {
        "well",
        "fine",
        "ok",
        "okay",
        "alright",
        "good",
        "great",
        "myself",
        "steady",
        "stable",
        "strong",
    }
)
"""How a person is when nothing is wrong: said of them, nothing; negated ("not well", "not
steady"), a condition."""

ABILITIES = frozenset(
    {
        "see", "hear", "grip", "hold", "grasp", "lift", "carry", "stand", "walk", "move",
        "balance", "focus", "concentrate", "bend", "reach",
    }
)  # fmt: skip
"""What a person can do with their body: after "can" or "able to" ("I can grip"), nothing;
negated ("I can't grip", "I'm not able to hold"), a condition."""

FLIPS = frozenset({"not", "never", "no", "barely", "hardly", "scarcely", "stop", "stopped"})
"""Words that turn what follows to its opposite ("not steady", "can't stop shaking")."""

FILLERS = frozenset({"feeling", "be", "been", "being", "got", "to", "that", "too", "longer"})
"""Words between the verb and what is said that say nothing of it ("feeling dizzy")."""

SPEAKER = ""
"""The key of what is said of the speaker (no person's id)."""

PRONOUNS = frozenset({"he", "she", "his", "her"})
"""Words that stand for a person named before (or, alone in the utterance, after); not
"they", which as often stands for things ("they're broken")."""

OWNERS = frozenset({"my", "our", "the"})
"""Words before a relation that names a person ("my son", "our grandma")."""

TITLES = frozenset({"mr", "mrs", "ms", "miss", "dr", "mx"})
"""Words of a person's id that alone name nobody in particular."""

_VERBS = frozenset(
    {
        "am", "is", "are", "was", "were", "feel", "feels", "have", "has", "got", "can", "could",
        "do", "does", "did", "will", "would", "keep", "keeps", "seem", "seems", "look", "looks",
        "turned", "turns", "turning",
    }
)  # fmt: skip
"""Verbs after a person's subject ("I am", "my hands keep", "I can")."""
_BE = frozenset({"am", "is", "are"})
"""The verbs of being: after them a place is where a person is ("in the bath")."""
_AGED = _BE | {"turned", "turns", "turning"}
"""The verbs after which a number is an age ("I'm six", "he's just turned two"; not "I have
six")."""
_TURNING = frozenset({"turns", "turning"})
"""Verbs of an age not reached yet ("he's turning four next week")."""
BELOW = frozenset({"nearly", "almost", "under", "about", "around", "roughly", "approximately"})
"""Words before an age that say the person may be younger than the number ("nearly four"): the
age is read a year lower, the safe side."""
_MODALS = frozenset({"can", "could", "will", "would"})
"""Verbs kept in what a condition says ("can not see well")."""
_CONTRACTIONS = (
    (re.compile(r"\bcan't\b|\bcannot\b"), "can not"),
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"(\w)n't\b"), r"\1 not"),
    (re.compile(r"^im\b|\bi'm\b"), "i am"),
    (re.compile(r"\bi've\b"), "i have"),
    (re.compile(r"\b(he|she|it)'s\b"), r"\1 is"),
    (re.compile(r"'re\b"), " are"),
    (re.compile(rf"(\w)'s\b(?!\s+(?:{'|'.join(sorted(BODY))}|got)\b)"), r"\1 is"),
    (re.compile(r"(\w)'s got\b"), r"\1 has got"),
)
"""Short forms and what they stand for, so that a negation is a word of its own."""
_CLAUSE_END = re.compile(
    r"[.!?;,]+|\s+(?:and|but|because)\s+|(?<!\bnot)(?<!\bam)(?<!'m)(?<!\bis)(?<!\bfeel)\s+so\s+",
    re.IGNORECASE,
)
"""Where a clause ends; "so" only where it does not hedge what follows ("I'm not so well")."""


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
    return said_of_people(utterances, ()).get(SPEAKER, SaidOfSelf())


def said_of_people(
    utterances: Iterable[str], people: Iterable[str], labels: Mapping[str, str] | None = None
) -> dict[str, SaidOfSelf]:
    """Person id (:data:`SPEAKER` for the speaker) -> what the utterances say of them.

    ``people``: the ids of the people the robot knows. A person is named by their id's words
    ("grandma", "mr okafor", "okafor"; "my son" names the one whose id is "son"); a pronoun
    ("she", "his hands") stands for the person named last before it in the same utterance,
    else for the one person named after it ("she's six, give grandma the knife"). A subject
    that names nobody gives nothing; one that may name several people is said of each.
    """
    names = _names(people, labels or {})
    found: dict[str, tuple[list[str], list[str], list[str]]] = {}
    for utterance in utterances:
        clauses = _clauses([utterance])
        named = [_mentioned(read.split(), names) for read, _ in clauses]
        for index, (clause, spoken) in enumerate(clauses):
            words = clause.split()
            verb = next((i for i, word in enumerate(words[:4]) if i and word in _VERBS), None)
            if verb is None:
                continue
            subject, said = words[:verb], words[verb:]
            body = len(subject) == 2 and subject[1] in BODY
            whom = _subject(subject[:1] if body else subject, names)
            if len(whom) == 1 and whom[0] in PRONOUNS:
                before = [ids for seen in named[:index] for ids in seen]
                after = {ids for seen in named[index:] for ids in seen}
                whom = before[-1] if before else next(iter(after)) if len(after) == 1 else ()
            age, condition = _read(said, body)
            if body and condition is not None:
                condition = f"{subject[1]} {condition}"
            for who in whom:
                ages, conditions, quoted = found.setdefault(who, ([], [], []))
                ages.extend([age] if age is not None else [])
                conditions.extend([condition] if condition is not None else [])
                quoted.extend([spoken] if age is not None or condition is not None else [])
    return {
        who: SaidOfSelf(youngest(*ages), tuple(dict.fromkeys(said)), tuple(dict.fromkeys(quoted)))
        for who, (ages, said, quoted) in found.items()
        if quoted
    }


def _names(people: Iterable[str], labels: Mapping[str, str]) -> dict[str, set[str]]:
    """Name (words) -> the ids of the people it names, whole and each of their words.

    The words of the id and of the label (what the scene calls them: "Ella" for ``p2``).
    """
    names: dict[str, set[str]] = {}
    for person in people:
        for called in filter(None, (person, labels.get(person))):
            words = [word for word in re.split(r"[\W_]+", called.lower()) if word]
            for name in {" ".join(words), *(word for word in words if word not in TITLES)}:
                names.setdefault(name, set()).add(person)
    return names


def _mentioned(words: list[str], names: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The names ``words`` say, in order, each as the ids of everyone it may name.

    A name's words, its possessive too ("grandma's").
    """
    plain = [word.removesuffix("'s") for word in words]
    found: list[tuple[str, ...]] = []
    for start in range(len(plain)):
        for end in (start + 2, start + 1):
            ids = names.get(" ".join(plain[start:end]))
            if ids:
                found.append(tuple(sorted(ids)))
                break
    return found


def _subject(subject: list[str], names: dict[str, set[str]]) -> tuple[str, ...]:
    """Whom a clause's subject is: :data:`SPEAKER`, a pronoun (as said), or people's ids.

    Every person it may name: a name two people share says it of both (the union wins).
    """
    first = subject[0].removesuffix("'s") if subject else ""
    if subject in (["i"], ["my"]):
        return (SPEAKER,)
    if len(subject) == 1 and first in PRONOUNS:
        return (first,)
    words = [first, *(word for word in subject[1:] if word not in HEDGES)]
    if words[0] in OWNERS and len(words) > 1:
        words = words[1:]
    return tuple(sorted(names.get(" ".join(words), set())))


def _read(said: list[str], body: bool) -> tuple[str | None, str | None]:
    """(age group, condition) ``said`` (a verb and what follows it) says of a person.

    What is said has a polarity: each word of :data:`FLIPS` turns it. A condition word said
    (or, of a part of the body, anything said) is a condition; a capacity (a word of
    :data:`WELLNESS` or :data:`BODY`, or of :data:`ABILITIES` after "can" or "able") negated
    is one too ("not well", "can not grip", "no grip"); a condition negated, or a capacity
    said, says nothing. A food a person cannot have is what they are allergic to, for safety
    ("Tom can't have nuts": allergic to nuts; :data:`TAKING`).
    """
    verb, rest = said[0], said[1:]
    negated = sum(word in FLIPS for word in rest) % 2 == 1
    words = [word for word in rest if word not in HEDGES and word not in FILLERS]
    named = any(_stem(word) in CONDITIONS for word in words)
    can = verb in ("can", "could") or "able" in words
    taken = [word for word in words if word not in FLIPS and word != "able"]
    food = _what_taken(taken[1:]) if can and negated and taken[:1] and taken[0] in TAKING else []
    if food:
        return None, f"allergic to {' '.join(food)}"  # "can't have nuts"
    capacity = bool((WELLNESS | BODY) & set(words)) or (can and bool(ABILITIES & set(words)))
    vulnerable = (capacity or body) and not named if negated else named or body
    condition = " ".join([verb, *words] if verb in _MODALS else words) if vulnerable else None
    aged = words if verb in _BE else [verb, *words]
    age = _age_group(aged) if verb in _AGED and not FLIPS & set(rest) else None
    if condition is None and verb in _BE and not negated:
        condition = _in_water(words)
    return age, condition or None


TAKING = frozenset({"have", "eat", "drink"})
"""Verbs of taking food in: a person who cannot, cannot have what follows."""
_HOW_OR_WHEN = frozenset({"on", "in", "at", "by", "from", "with", "without", "for", "to",
    "until", "till", "before", "after", "unless", "yet", "now", "today", "tonight", "anymore",
    "properly", "alone"})  # fmt: skip
"""Words after which a person's "can't eat ..." says how or when, not what ("on her own")."""
_OWNERS = frozenset({"my", "your", "his", "her", "its", "our", "their"})
"""Words before a thing of someone's: no kind of food ("her bottle")."""


def _what_taken(words: list[str]) -> list[str]:
    """The words of what a person cannot have, up to a word of how or when ("from a cup").

    Nothing for a thing of someone's ("her bottle yet"): a food is said by its kind.
    """
    if words[:1] and words[0] in _OWNERS:
        return []
    end = next((i for i, word in enumerate(words) if word in _HOW_OR_WHEN), len(words))
    return words[:end]


def _in_water(words: list[str]) -> str | None:
    """``in the bath`` when ``words`` put a person in a bath or a shower; else None.

    What counts: the place after "in" names a type of :data:`IN_WATER_TYPES`.
    """
    if "in" not in words:
        return None
    place = [
        word for word in words[words.index("in") + 1 :] if word not in request_words().determiners
    ]
    taxonomy = household_taxonomy()
    for end in range(len(place), 0, -1):
        named = taxonomy.type_named(" ".join(place[:end]))
        if named is not None:
            found = {named, *taxonomy.categories_of(named)} & set(IN_WATER_TYPES)
            return f"in the {' '.join(place[:end])}" if found else None
    return None


ALLERGY_WORDS = frozenset({"allergic", "allergy", "allergies", "intolerant", "intolerance"})
"""Words that make a condition an allergy; the other words name what to ("nut allergy")."""
_ASIDE = frozenset({"by", "because", "since", "but", "though", "when", "if", "so"})
"""Words that open an aside after what a person is allergic to ("... by the way"). Not the
grammar's subordinators: "as", "once", "before" go on naming allergens ("nuts as well as
apples"), and reading too much is the safe side."""
_SEVERITY = frozenset({"severe", "mild", "bad", "really", "quite", "certain", "like"})
"""Words of how bad an allergy is: they name nothing a person is allergic to."""
_GENERIC = frozenset(
    {"food", "foods", "kind", "kinds", "sort", "sorts", "stuff", "thing", "things"}
)
"""Nouns of an allergy that stand for no food in particular ("all kinds of things")."""


@functools.cache
def _not_allergens() -> frozenset[str]:
    """Words of an allergy that name no food: stop words, quantities, severity, generic nouns."""
    return english_stop_words() | request_words().quantities | _SEVERITY | _GENERIC


def is_allergy(condition: str) -> bool:
    """Whether a condition is an allergy (what a person must not eat, not a frailty)."""
    return bool(ALLERGY_WORDS & set(re.findall(r"[a-z]+", condition.lower())))


def allergens(condition: str) -> tuple[str, ...]:
    """What a condition says a person is allergic to, word by word ("nuts", "dairy").

    "allergic to nuts", "nut allergy", "a severe peanut allergy": the condition's words other
    than the allergy's own, up to an aside ("by the way"). Nothing when it is no allergy.
    """
    words = re.findall(r"[a-z]+", condition.lower())
    if not ALLERGY_WORDS & set(words):
        return ()
    named: list[str] = []
    for word in words:
        if word in _ASIDE:
            break  # "allergic to nuts by the way"
        if word not in ALLERGY_WORDS and word not in _not_allergens():
            named.append(word)
    return tuple(dict.fromkeys(named))


def holds_a_child(contents: str) -> bool:
    """Whether what a thing holds is a young child ("baby Arlo asleep" in the car seat).

    A part of the contents with a young child's word that names no type of the taxonomy:
    "baby milk" and "baby wipes" are milk and wipes, not a baby.
    """
    taxonomy = household_taxonomy()
    for part in re.split(r",|\band\b|\bwith\b", contents.lower()):
        young = any(AGE_WORDS.get(word) in CHILDREN for word in re.findall(r"[a-z]+", part))
        if young and taxonomy.type_named(part.strip()) is None:
            return True
    return False


def in_water(condition: str) -> bool:
    """Whether a condition :func:`said_of_people` read puts the person in water."""
    return _in_water(condition.split()) is not None


def _stem(word: str) -> str:
    """``word`` without an ending that makes it a noun or a participle ("shaking" -> "shak")."""
    if word in CONDITIONS:
        return word
    return next(
        (word[: -len(end)] for end in ("ing", "ed", "ness", "s") if word.endswith(end)), word
    )


def _age_group(words: list[str]) -> str | None:
    """The age group an age said gives: "six", "4 years old", "a kid"; None for an adult's."""
    if not words:
        return None
    named = next((AGE_WORDS[word] for word in words if word in AGE_WORDS), None)
    if named is not None:
        return named
    # an age is a number said first ("six", "six and a half", "7 years old"), not "two dogs";
    # after "turned" ("just turned two"), or a word that it may be less ("nearly four")
    # "turning four" is three until the birthday: read a year lower, as "nearly four"
    below, turned = words[0] in BELOW | _TURNING, words[0] in _AGED
    words = words[1:] if below or turned else words
    numbers = stated_numbers(words[0]) if words else []
    aged = turned or len(words) == 1 or words[1] in ("years", "year", "yrs", "and")
    if not numbers or not aged:
        return None
    age = numbers[0].value - (1 if below else 0)
    if age < TODDLER_UNDER:
        return "toddler"
    return "child" if age < CHILD_UNDER else "minor" if age < ADULT_AT else None


def _clauses(utterances: Iterable[str]) -> list[tuple[str, str]]:
    """(clause read, clause as said) of every utterance; short forms spelt out in the first."""
    found: list[tuple[str, str]] = []
    for utterance in utterances:
        for part in _CLAUSE_END.split(utterance.replace("\u2019", "'")):
            spoken = part.strip()
            read = spoken.lower()
            for short, long in _CONTRACTIONS:
                read = short.sub(long, read)
            words = re.findall(r"[a-z0-9']+", read)
            if words and found and _goes_on_a_list(found[-1][0], words):
                # "allergic to eggs and dairy": the list goes on past "and"
                found[-1] = (f"{found[-1][0]} {' '.join(words)}", f"{found[-1][1]}, {spoken}")
            elif words:
                found.append((" ".join(words), spoken))
    return found


def _goes_on_a_list(clause: str, words: list[str]) -> bool:
    """Whether ``words`` go on the list of what an allergy ``clause`` is to.

    They must be a food or a drink the taxonomy knows ("dairy"), nothing else ("bring me").
    """
    if not ALLERGY_WORDS & set(clause.split()) or len(words) > 3:
        return False
    named = household_taxonomy().type_named(" ".join(words))
    return named is not None and household_taxonomy().is_a(named, "Food")


def youngest(*groups: str | None) -> str | None:
    """The youngest of ``groups`` a statement can give; else the first known one (an adult's)."""
    return next(
        (group for group in YOUNGEST_FIRST if group in groups),
        next((group for group in groups if group is not None), None),
    )
