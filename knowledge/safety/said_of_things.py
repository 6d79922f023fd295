"""What the user said a thing is, in this conversation: one more description for safety.

A clause whose subject names a thing the robot knows (its label, its id's words, its type's
name; "it" / "that" / "this" for the thing named last) and whose verb is a form of *be* says
something of it ("careful, the hob's still hot", "that bottle is bleach"); so do the words
between a determiner and a thing's name ("the hot saucepan", "the bleach bottle": a state,
or what it holds, never whom it is for: "the dog bowl" is no animal). :func:`said_of_things`
collects those phrases per thing; :mod:`knowledge.safety.thing_properties` reads them like
any other description, :func:`states_said` finds the states and :func:`contents_said` what
it holds ("full of hot oil"). What a thing did counts when it is a state ("the kettle
sparked": faulty); what is said of a part is said of its whole ("the pan's handle is hot");
what a clause says is in or on a thing is what it holds ("there's a wasp in the jar"); a
thing said not to do what it is for is faulty ("the heater won't turn off"); damage said at
a place is said of the thing there ("water is dripping round the light"). A negated clause
is left out: said words add a hazard, never lower one (a fresh observation or a yes does).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence

from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.wording import singular, verb_bases
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas

SUBJECT_WORDS = frozenset({"the", "that", "this", "my", "your", "our", "his", "her", "their"})
"""Words before a thing's name in a subject ("that bottle", "our hob")."""

DETERMINERS = SUBJECT_WORDS | {"a", "an", "some", "any"}
"""Words that open a noun phrase: the words after one and before a thing's name describe it."""

POINTING = frozenset({"it", "that", "this"})
"""Subjects that stand for the thing named last."""

LEAD_INS = re.compile(
    r"^(?:careful|be careful|watch out|mind|note|remember|by the way|fyi|oh|i think|i reckon|"
    r"i believe|i guess|i suspect|i'm pretty sure|pretty sure|i'm sure)(?: that)?\W+"
)
"""Words before a statement's subject ("careful, the hob's hot"; a belief hedged is said all
the same: "I think the glass is cracked")."""

REPORTED = re.compile(
    r"^(?:i|we)\s+(?:think\s+|thought\s+|reckon\s+)?(?:i\s+|we\s+)?"
    r"(?:heard|saw|felt|noticed|watched|smelt|smelled|spotted)\s+"
    r"(?=(?:the|that|this|my|your|our|his|her|their)\b)"
)
"""A report of what the speaker perceived, before the thing it is about: "I think I heard the
frame crack" says the frame cracked (as sure as the speaker is)."""

HEDGES = frozenset({"only", "just", "still", "very", "really", "quite", "so", "definitely",
    "now", "all", "a", "an"})  # fmt: skip
"""Words before what is said of a thing or a person that say nothing of it ("still hot",
"only six", "a bit dizzy"), dropped."""

ASIDES = frozenset({"by", "for", "in", "at", "from", "to", "near", "next", "because", "since"})
"""Words that end what is said of the thing ("bleach by the way", "hot from the oven")."""

STATES: Mapping[str, str] = {
    "hot": "hot",
    "boiling": "hot",
    "scalding": "hot",
    "sizzling": "hot",
    "steaming": "hot",
    "burning": "hot",
    "on": "powered",
    "running": "powered",
    "lit": "powered",
    "sharp": "sharp",
    "toxic": "chemical",
    "poisonous": "chemical",
    "caustic": "chemical",
    "corrosive": "chemical",
    "broken": "broken",
    "shattered": "broken",
    "smashed": "broken",
    "cracked": "broken",
    "crack": "broken",
    "chipped": "broken",
    "faulty": "faulty",
    "dodgy": "faulty",
    "spark": "faulty",
    "smoke": "faulty",
    "trip": "faulty",
    "fray": "faulty",
    "leak": "faulty",
    "melt": "faulty",
    "scorch": "faulty",
    "wet": "wet",
    "damp": "wet",
    "soaked": "wet",
    "soak": "wet",
    "sodden": "wet",
    "drip": "wet",
    "seep": "wet",
    "flood": "wet",
    "spill": "wet",
    "spilt": "wet",
    "frozen": "wet",
    "iced": "wet",
    "muddy": "soiled",
    "mucky": "soiled",
    "dirty": "soiled",
    "filthy": "soiled",
    "greasy": "soiled",
    "oily": "soiled",
    "sooty": "soiled",
    "sandy": "soiled",
    "grubby": "soiled",
}
"""State words of a predicate and the property each gives (``hot``, ``powered``, ``broken``,
``faulty``, ``soiled`` or a flag). A verb is listed by its base: "sparked", "sparking" and
"sparks" are read through :func:`~knowledge.wording.verb_bases` and
:func:`~knowledge.wording.singular`."""

FUNCTIONS = frozenset(
    {"work", "shut", "close", "latch", "lock", "seal", "stop", "hold", "switch", "turn"}
)
"""What a sound thing does (by base form): a thing said not to ("the door won't shut", "it
isn't working", "the hob doesn't turn off") is faulty, as a person who cannot grip is at
risk (:mod:`knowledge.safety.said_of_people`)."""

FAULT_STATES = frozenset({"broken", "faulty"})
"""The states of :data:`STATES` that say something is wrong with a thing."""

SEEN_STATES = frozenset({"soiled"})
"""The states a thing's own label may say ("the muddy wellies"); the others are as often part
of a name ("hot water bottle", "broken biscuits") as a state."""

DAMAGE_STATES = FAULT_STATES | {"wet"}
"""The states a clause says of a thing it names even when the thing is not its subject: what
is wrong with it, or water in or on it ("there's a crack in the jug", "water is dripping
round the light"; ice is water: frozen is wet). "On" or "hot" after a thing is as often a
place or a dish as a state."""

_PLACE = re.compile(
    r"\b(?:in|into|on|onto|round|around|through|under|underneath|behind|over|inside|from|"
    r"out of|off|down|up|all over)\s+(?P<where>.+)$"
)
"""A place phrase: what it names is where the clause's state is."""

_AFTER_IS = "still|very|really|not|on|off|hot|lit|running|full|made|a|an|in|inside|asleep"
"""Words after "X's" that make it "X is" ("the hob's hot"), not a possessive ("Leo's cup")."""
_COPULA = re.compile(r"^(?P<subject>.+?)\s+(?:is|are|was|were)\s+(?P<predicate>.+)$")
_NEGATION = re.compile(r"^(?:not|no longer|never)\b|^n't\b")


def said_of_things(
    utterances: Iterable[str], names: Mapping[str, Sequence[str]]
) -> dict[str, tuple[str, ...]]:
    """Thing id -> what the user said it is, in order (see the module docs).

    ``names``: each thing's names (lowercase phrases: its label, its id's words, its type's
    label).
    """
    by_name = _Names(names)
    said: dict[str, list[str]] = {}
    last: str | None = None
    before: list[str] = []  # every thing the last clause that named any named: what "it" may be
    for clause in _clauses(utterances):
        match = _COPULA.match(clause)
        subject = _subject(match.group("subject")) if match else None
        thing = None if subject in POINTING else _whole(subject, by_name) or _head(subject, by_name)
        # "it" is each thing the clause before named ("the pan is on the hob, it's hot"): the union
        things = (before or ([last] if last else [])) if subject in POINTING else [thing]
        things = [found for found in things if found is not None]
        if match and things:
            predicate = _predicate(match.group("predicate")) or _fails(match.group("predicate"))
            for found in things if predicate else ():
                said.setdefault(found, []).append(str(predicate))
        elif (done := _did(clause, by_name, last)) is not None:
            said.setdefault(done[0], []).append(done[1])
        for named, phrase in _described(clause, by_name):
            said.setdefault(named, []).append(phrase)
        if (put := _put_in(clause, by_name)) is not None:
            said.setdefault(put[0], []).append(put[1])
        for held, phrase in _held(clause, match, by_name, before):
            said.setdefault(held, []).append(phrase)
        topic = thing if match else _holder(clause, by_name)  # what "it" next stands for
        last = topic or _last_named(clause, by_name) or last
        before = _all_named(clause, by_name) or before
    return {thing: tuple(dict.fromkeys(phrases)) for thing, phrases in said.items()}


def states_said(phrases: Iterable[str]) -> frozenset[str]:
    """The properties (``hot``, ``powered``, ``sharp``, ``chemical``, ``broken``) stated.

    A thing said to come out of, off or from a heat source ("fresh out of the oven", "just
    came off the hob") is hot: heat stays in what was heated.
    """
    phrases = tuple(phrases)
    stated = {
        STATES[form]
        for phrase in phrases
        for word in phrase.split()
        for form in (word, singular(word), *verb_bases(word))
        if form in STATES
    }
    stated |= {"hot"} if any(map(_from_heat, phrases)) else set()
    return frozenset(stated | ({"faulty"} if any(map(_fails, phrases)) else set()))


NEGATORS = frozenset({"not", "no", "never", "nothing", "none", "nobody", "neither", "nor"})
"""The closed class of English words that deny a clause (short forms are spelt out first)."""


def _denied(words: str) -> bool:
    """Whether ``words`` hold a negator as a word of its own ("now" and "note" are none)."""
    return not NEGATORS.isdisjoint(re.findall(r"[a-z]+", words))


def _fails(words: str) -> str | None:
    """``words`` as said, when they say a thing does not do what it is for (:data:`FUNCTIONS`)."""
    tokens = [token for token in re.findall(r"[a-z]+", words) if token not in HEDGES]
    negated = [tokens[at + 1] for at, token in enumerate(tokens[:-1]) if token in ("not", "never")]
    functions = {form for token in negated for form in (token, *verb_bases(token))}
    return " ".join(tokens) if functions & FUNCTIONS else None


_FROM = re.compile(r"\b(?:out of|off|from)\s+(?:the\s+|a\s+|an\s+)?(?P<source>[a-z ]+)")


def _from_heat(phrase: str) -> bool:
    """Whether ``phrase`` says a thing came out of, off or from a heat source (the taxonomy's)."""
    taxonomy = household_taxonomy()
    for match in _FROM.finditer(phrase):
        words = match.group("source").split()
        for end in range(len(words), 0, -1):
            named = taxonomy.type_named(" ".join(words[:end]))
            if named is not None:
                if "heat_source" in taxonomy.properties(named).flags:
                    return True
                break
    return False


def contents_said(phrases: Iterable[str]) -> tuple[str, ...]:
    """What the phrases say a thing holds: "full of hot oil", "filled with water" -> the rest."""
    found = []
    for phrase in phrases:
        match = re.match(r"^(?:full of|filled with|holding|with)\s+(?P<what>.+)$", phrase)
        if match:
            found.append(match.group("what"))
    return tuple(found)


def quoted(phrase: str, name: str, names: Collection[str]) -> str:
    """What the user said of the thing called ``name``, as a reply quotes it.

    A noun phrase ending in one of its ``names`` reads "the hot saucepan"; a clause naming it
    (or pointing at it) is quoted whole ("there's water dripping round the light"); what it
    holds is said so ('the jar has "wasp" in it'); a predicate says what the thing is ('the
    kettle is "leaking"').
    """
    words = phrase.split()
    if words[0] == "with":
        return f'the {name} has "{" ".join(words[1:])}" in it'
    if words[-1] in names:
        return f'"the {phrase}"'
    whole = set(words) & (set(names) | POINTING)
    return f'"{phrase}"' if whole else f'the {name} is "{phrase}"'


CLAUSE_ENDS = re.compile(
    r"[.!?;,]+|\s[-\u2013\u2014]+\s|\s+(?:and|but|so)\s+|\s+(?=(?:it|they) (?:is|are)\b)"
)
"""Where a clause ends: a sentence mark, a comma or a dash between spaces, a joining word, or
before "it is" or "they are" said with no comma ("bring me the pan it is still hot")."""


def _is_before(match: re.Match[str]) -> str:
    """The "'s" of ``match`` as "is" before a word "is" takes; not before a noun like "ring"."""
    after, lemmas = match.group(2), shipped_lemmas()
    verb = lemmas.lemma_of(after, "verb") if lemmas is not None else after[:-3]  # "-ing" form
    ing = after.endswith("ing") and verb not in (None, after)
    return f"{match.group(1)} is " if re.fullmatch(_AFTER_IS, after) or ing else match.group(0)


def _clauses(utterances: Iterable[str]) -> list[str]:
    clauses = []
    for utterance in utterances:
        text = utterance.lower().replace("\u2019", "'")
        text = re.sub(r"\b(it|that|this|what|there)'s\b", r"\1 is", text)
        text = re.sub(r"\bthey're\b", "they are", text)
        text = re.sub(r"(\w)'s\s+(?=(\w+))", _is_before, text)
        text = text.replace("can't", "can not").replace("won't", "will not")
        text = re.sub(r"(\w)n't\b", r"\1 not", text)
        for part in CLAUSE_ENDS.split(text):
            part = REPORTED.sub("", LEAD_INS.sub("", part.strip()))
            if part:
                clauses.append(part)
    return clauses


_PUT_IN = re.compile(
    r"\b(?:i|we|he|she|they)(?:'ve|'d)?\s+(?:have\s+|had\s+|just\s+)*"
    r"(?:put|added|used|mixed|stirred|baked|poured|dissolved|tipped|emptied|decanted|soaked|"
    r"left|set|stood)\s+(?P<what>.+?)\s+(?:in|into|on|onto)\s+(?P<where>.+)$"
)
"""Someone saying what they put into or onto a thing ("I put peanut butter in the flapjacks",
"I've dissolved my aspirin in that glass", "I left my wine on the table")."""


_HAS = re.compile(
    r"^(?P<subject>.+?)(?:'s|\s+has|\s+have)?\s+(?:got|contains|holds)\s+(?P<what>.+)$"
    r"|^(?P<owner>.+?)\s+(?:has|have)\s+(?P<had>.+?)\s+in\s+(?:it|them)\b.*$"
)
"""A thing said to have something in it ("that bottle's got bleach in it", "the tin contains
paraffin", "the mug has tea in it")."""
_THERE = re.compile(r"^there\s+(?:is|are|was|were)\s+(?P<rest>.+)$")
_HELD_IN = re.compile(r"^(?P<what>.+?)\s+(?:in|inside|on|on top of)\s+(?P<where>.+)$")
_WHERE_ENDS = re.compile(
    r"\s+(?:in|inside|on|by|near|next|beside|at|from|under|underneath|behind|with|above|below|"
    r"over|opposite|against|to\s+the\s+(?:left|right)\s+of)\s+.*$"
)
"""A place phrase after a thing's name ("the mug beside the glass"): where it is, not what."""


def _held(
    clause: str, match: re.Match[str] | None, names: _Names, before: Sequence[str]
) -> list[tuple[str, str]]:
    """(thing, phrase) for what ``clause`` says is in or on a known thing, and its state.

    What is in a thing is what it holds, read like "full of": "there's a wasp in the jar"
    (the jar "with wasp"), "the baby is asleep in the car seat" (a subject that names no
    thing, in a place that names one), "the oil in the pan is still hot" (the pan holds oil,
    and what is said of its contents is said of it: "hot"). "it" there is each thing the
    clause ``before`` named ("put the log basket on the shelf, there's a hamster in it": the
    basket, and the shelf too, since which one is not said: the union is the safe side). An
    order is none of these (it has no subject); a clause that says no says nothing.
    """
    if _denied(clause):
        return []
    has = _HAS.match(clause)
    said = _subject(has.group("subject") or has.group("owner")) if has else None
    holders = list(before) if said in POINTING else [h] if (h := _head(said, names)) else []
    if has and holders:
        what = _WHERE_ENDS.sub("", f" {has.group('what') or has.group('had')}").split()
        what = [word for word in what if word not in DETERMINERS and word not in HEDGES]
        return [(holder, f"with {' '.join(what)}") for holder in holders] if what else []
    there = _THERE.match(clause)
    pointed = match is not None and match.group(1) in POINTING  # "that's my gin on the side"
    rest = there.group("rest") if there else match.group(2) if match and pointed else None
    subject, predicate = (
        (rest, "") if rest is not None else (match.group(1), match.group(2)) if match else ("", "")
    )
    named = _whole(_subject(subject), names) or _head(subject, names) if subject else None
    if not subject or named is not None or subject in POINTING:
        return []  # "the glass on the table is hot": the glass is, not what the table holds
    inside = _HELD_IN.match(subject)
    if inside is None and rest is None:
        inside = _HELD_IN.match(f"{subject} {predicate}")
        predicate = ""
    if inside is None:
        return []
    where = _WHERE_ENDS.sub("", inside.group("where")).strip()
    named = _last_named(where, names)
    things = list(before) if where in POINTING else [named] if named is not None else []
    what = [word for word in re.findall(r"[a-z]+", inside.group("what")) if word not in DETERMINERS]
    what = [word for word in what if word not in HEDGES and word not in ("is", "are")]
    if not things or not what:
        return []
    stated = _predicate(predicate) if predicate else None
    told = [f"with {' '.join(what)}", *([stated] if stated else [])]
    return [(thing, phrase) for thing in things for phrase in told]


def tells_what_was_put_in(text: str) -> bool:
    """Whether ``text`` says someone put something into a thing ("I've poured bleach in it").

    A statement of what a thing now holds, never an order: "put", "poured" and "added" after
    a subject say what was done.
    """
    return any(_PUT_IN.search(clause) for clause in _clauses([text]))


def _put_in(clause: str, names: _Names) -> tuple[str, str] | None:
    """(thing, "with <what>") when ``clause`` says someone put something into a known thing.

    A statement, with its subject ("I added nuts to..." is not; "put it in the bin", an
    order, is not either): what it says the thing holds is read like "full of".
    """
    match = _PUT_IN.search(clause)
    if match is None:
        return None
    where = match.group("where")  # "into the mug beside the glass": the mug, named first
    thing = _head(where, names) or next(iter(_named_in(where, names)), None)
    what = " ".join(word for word in match.group("what").split() if word not in DETERMINERS)
    return (thing, f"with {what}") if thing is not None and what else None


def _did(clause: str, names: _Names, last: str | None) -> tuple[str, str] | None:
    """(thing, what it did) when ``clause`` says a thing did something that is a state.

    "the kettle sparked", "that lead keeps sparking": a subject naming a thing, then a word of
    damage (:data:`DAMAGE_STATES`); anything else a thing did is not kept. With no subject
    naming a thing, a clause with such a word is about what its place phrase names ("there's
    water dripping round the light"), else, when it points back ("one of the legs has a crack
    up it") or its subject is no whole machine ("the cord is frayed": a part of ``last``, the
    thing named before; not "the dishwasher is broken"). A clause that says no says nothing.
    """
    words = clause.split()
    for end in range(min(len(words) - 1, 5), 0, -1):
        thing = _named(_subject(" ".join(words[:end]).removesuffix("'s")), names)
        if thing is None:
            continue
        said = " ".join(words[end:])
        predicate = _predicate(said)
        if (failed := _fails(said)) is not None:
            return thing, failed
        if predicate is None or _denied(said):
            return None
        if states_said((predicate,)) & DAMAGE_STATES:
            return thing, predicate
        if _from_heat(said):
            return thing, said
        return None
    if last is not None and clause.split()[0] in POINTING and (failed := _fails(clause)):
        return last, failed
    predicate = _predicate(clause)
    if not predicate or not states_said((predicate,)) & DAMAGE_STATES or _denied(clause):
        return None
    place = _PLACE.search(clause)
    placed = _last_named(place.group("where"), names) if place else None
    if placed is not None:
        return placed, clause
    part = re.match(r"(?:the|its)\s+([a-z]+)\s", clause)  # "the plug sparks": a part of it
    pointed = bool(POINTING & set(re.findall(r"[a-z]+", clause))) or (
        part is not None and not _a_machine(part[1])
    )
    return (last, predicate) if pointed and last is not None else None


def _a_machine(word: str) -> bool:
    """Whether ``word`` names a whole appliance or piece of furniture ("dishwasher"), no part."""
    taxonomy = household_taxonomy()
    kind = taxonomy.type_named(word)
    return kind is not None and any(taxonomy.is_a(kind, c) for c in ("Appliance", "FurniturePiece"))


def _subject(words: str) -> str:
    tokens = words.split()
    while tokens and tokens[0] in SUBJECT_WORDS and len(tokens) > 1:
        tokens = tokens[1:]
    return " ".join(tokens)


def _predicate(words: str) -> str | None:
    """The predicate's words, hedges dropped, up to a preposition that starts an aside."""
    if _NEGATION.match(words):
        return None
    tokens = [token for token in re.findall(r"[a-z]+", words) if token not in HEDGES]
    cut = next((i for i, token in enumerate(tokens) if i and token in ASIDES), len(tokens))
    return " ".join(tokens[:cut]) or None


def _whole(subject: str | None, names: _Names) -> str | None:
    """The thing a part names as its whole: "pan's handle", "handle of the pan" -> the pan.

    A possessive may be part of a thing's own name ("Leo's cup" of the "leo cup").

    What is said of a part of a thing is said of the thing (a hot handle is a hot pan).
    """
    if subject and (whole := _named(subject.replace("'s ", " "), names)) is not None:
        return whole
    owner = re.match(r"^(?P<whole>.+?)'s\s+\S+$|^\S+\s+of\s+(?P<of>.+)$", subject or "")
    if owner is None:
        return None
    return _head(owner.group("whole") or owner.group("of"), names)


def _head(phrase: str | None, names: _Names) -> str | None:
    """The thing a noun phrase names: whole, else before a place phrase after its head.

    "the glass on the table" is the glass (the table only says where it is), "the lid of the
    kettle by the sink" the kettle's; "the oil in the pan" names none when no thing known is
    called oil (:func:`_held` reads it: the pan holds oil).
    """
    subject = _subject(phrase or "")
    found = _named(subject, names)
    if found is None and (before := _WHERE_ENDS.sub("", subject)) != subject:
        found = _named(_subject(before), names)
    return found


def _holder(clause: str, names: _Names) -> str | None:
    """The thing ``clause`` says has something in it ("the jar on the shelf has a wasp in it")."""
    has = _HAS.match(clause)
    return _head(has.group("subject") or has.group("owner"), names) if has else None


def _named(subject: str | None, names: _Names) -> str | None:
    """The thing ``subject`` names: a whole name, else the one thing whose name ends so."""
    if not subject:
        return None
    if subject in names.whole:
        return names.whole[subject]
    ending = names.endings.get(subject, set())
    return next(iter(ending)) if len(ending) == 1 else None


def _described(clause: str, names: _Names) -> list[tuple[str, str]]:
    """(thing, noun phrase) for each name said after a determiner and words describing it.

    "bring me the hot saucepan" -> the saucepan, "hot saucepan"; "the saucepan", "Leo's cup"
    and "the spray in the cup": nothing (no word of the thing's own phrase describes it). The
    longest name at a place is read first.
    """
    words = re.findall(r"[a-z0-9']+", clause)
    found = []
    end = len(words)
    while end > 0:
        start, thing = _name_ending(words, end, names)
        if thing is None:
            end -= 1
            continue
        opened = next((i for i in range(start - 1, -1, -1) if _opens(words[i])), None)
        between = [] if opened is None else words[opened + 1 : start]
        described = [word for word in between if word not in HEDGES]
        if described and not ASIDES & set(described):
            found.append((thing, " ".join([*described, *words[start:end]])))
        end = start
    return found


def _opens(word: str) -> bool:
    """Whether ``word`` opens a noun phrase: a determiner, or a possessive ("leo's")."""
    return word in DETERMINERS or word.endswith("'s")


def _name_ending(words: list[str], end: int, names: _Names) -> tuple[int, str | None]:
    """(start, thing) of the longest name of a thing that ends at ``end``; (end, None)."""
    for start in range(max(0, end - names.longest), end):
        thing = names.named(words[start:end])
        if thing is not None:
            return start, thing
    return end, None


def _last_named(clause: str, names: _Names) -> str | None:
    """The thing whose name occurs last in ``clause``, names read as :func:`_named_in` does.

    "The glass on the table isn't water" names the glass last when "glass on the table" is
    its name, not the table; a possessive names its owner ("the stepladder's had it").
    """
    named = _named_in(clause, names)
    return named[-1] if named else None


def _all_named(clause: str, names: _Names) -> list[str]:
    """Every thing whose name occurs in ``clause``, each once, in order."""
    return list(dict.fromkeys(_named_in(clause, names)))


def _named_in(clause: str, names: _Names) -> list[str]:
    """The things the names in ``clause`` name, in order (the longest name at a place).

    A look-up of the clause's word runs, so it costs the clause's length, not the names'.
    """
    words = [word.removesuffix("'s") for word in re.findall(r"[a-z0-9']+", clause)]
    found, start = [], 0
    while start < len(words):
        end = next(
            (e for e in range(min(len(words), start + names.longest), start, -1)
             if names.named(words[start:e]) is not None),
            start,
        )  # fmt: skip
        if end > start:
            found.append(names.named(words[start:end]))
        start = max(end, start + 1)
    return [thing for thing in found if thing is not None]


class _Names:
    """Each thing's names (whole, and by their last words) for constant-time look-ups."""

    def __init__(self, names: Mapping[str, Sequence[str]]) -> None:
        self.whole: dict[str, str] = {}
        self.endings: dict[str, set[str]] = {}
        self.longest = 1
        for thing, known in names.items():
            for name in known:
                words = name.lower().split()
                if not words:
                    continue
                self.whole.setdefault(" ".join(words), thing)
                self.longest = max(self.longest, len(words))
                for start in range(1, len(words)):
                    self.endings.setdefault(" ".join(words[start:]), set()).add(thing)

    def named(self, words: Sequence[str]) -> str | None:
        """The thing ``words`` name whole; a plural last word names it too.

        "the flapjacks" names the flapjack (:func:`~knowledge.wording.singular`).
        """
        said = " ".join(words)
        found = self.whole.get(said)
        if found is None and words:
            found = self.whole.get(" ".join([*words[:-1], singular(words[-1])]))
        return found
