"""The faithfulness check of outer speech: every number and name a reply states is supported.

A reply is *faithful* when each number it states and each entity it names can be found in its
:class:`Support`: the evidence bundle, the working context, the user's utterance, and the
phrases the speaking node itself produces (its marked safe defaults). Pure functions, no state.

Numbers. Every run of digits counts, also inside a word ("table_2" states 2), with a decimal
point and thousands commas ("1,200.5"); numbers in words count as well ("twelve",
"forty-one", "two hundred", "a dozen"), except "one" and "zero" on their own, which are mostly
pronouns ("the one on the left"). So do fractions ("½", "3¼", "1/2"), powers written with
superscripts ("10⁶" is a million) and Roman numerals of two letters or more ("IV", "XII"; a
lone "I" is the pronoun). A minus sign ("-5", "−5", "minus five") makes a number negative, in
the reply and in the support alike, so a flipped sign is unsupported; a hyphen between two
numbers ("2-3") or after a word ("table-2") is no sign. A stated number is supported when a
number of the support equals it ("41.20" and "41.2"), or rounds to it at the precision it is
written with: "41.2" and "41" are supported by "41.23"; "41.3" is not, and "41.24" is not
supported by "41.2" (a reply may round, never add precision). A unit written right after a
number ("32.7 g", "5 mg", "20 °C") must not contradict the support: when every support number
that backs it carries a unit, one of them must be the same unit.

Entities. ``names`` (:class:`~knowledge.language.entity_names.EntityNames`) are the names of
known entities (:class:`LexiconNames`: the lexicons of the active pack and of the scene), asked
about the reply, so a check costs the reply's length, not the world's. A name the reply
states is supported when one of its ids is among the support's ids or its form occurs in a
support text. Names no lexicon knows count too: a capitalised word inside a sentence ("take
it with Ibuprofen") and a word that reads like a drug or a chemical (by its ending, "-profen",
"-cillin", "-azepam", or as a known substance, "bleach", "codeine") are unsupported unless a
support text contains them.

Every node that speaks holds its sentence to the turn: Respond builds its own support;
Decline, AskClarification and ReAct's final reply use :func:`turn_support` and :func:`held_to`,
say a safe sentence of their own when the check fails, and record why
(:func:`speech_rationale`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation, localcontext

from cogtree.knowledge.language.entity_names import EntityNames, FormNames, Named
from cogtree.knowledge.memory.model import WorkingContext
from cogtree.knowledge.understanding.lexicon import Lexicon, tokenize
from cogtree.knowledge.understanding.turn_state import EvidenceBundle, GateRationale
from cogtree.knowledge.wording import clip

_FRACTION_GLYPHS = "½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒"
_SUPERSCRIPTS = {glyph: str(digit) for digit, glyph in enumerate("⁰¹²³⁴⁵⁶⁷⁸⁹")}
_MINUS = "-\u2212"
_DIGITS = re.compile(
    rf"(?P<sign>(?<![\w.,/{_MINUS}])[{_MINUS}]|(?<![\w])minus\s+)?"
    rf"(?:(?<![/\d])(?P<over>\d+/\d+)(?![/\d])"
    rf"|(?P<number>\d+(?:,\d{{3}}(?!\d))*(?:\.\d+)?|\.\d+)?(?P<glyph>[{_FRACTION_GLYPHS}])?"
    rf"(?P<power>[{''.join(_SUPERSCRIPTS)}]+)?)",
    re.IGNORECASE,
)
_ROMAN = re.compile(
    r"(?<![\w'])(?=[MDCLXVI]{2})M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})(?![\w'])"
)
_NEGATED = re.compile(r"(?<!\w)(?:minus|negative)\s+$", re.IGNORECASE)
_ROMAN_VALUES = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}
_UNIT = re.compile(
    r"\s?(?P<unit>°\s?[CF]\b|%|(?:kcal|cal|mg|mcg|µg|ug|kg|g|ml|cl|dl|l|km|cm|mm|m|h|min|s|"
    r"tablets?|pills?|drops?|doses?|puffs?|units?)(?![\w]))",
    re.IGNORECASE,
)
_UNIT_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
)
_TENS_WORDS = "twenty thirty forty fifty sixty seventy eighty ninety"
_UNITS = {word: value for value, word in enumerate(_UNIT_WORDS.split())}
_TENS = {word: 10 * value for value, word in enumerate(_TENS_WORDS.split(), start=2)}
_SCALES = {"dozen": 12, "hundred": 100, "thousand": 1000, "million": 1_000_000}
_UNCHECKED_WORDS = frozenset({"zero", "one"})
_WORD = re.compile(r"[A-Za-z]+")
_WORD_GAP = re.compile(r"[ \t-]+")
_WHOLE_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_MAX_WHOLE_CHARS = 60
_PRECISION = 200


@dataclass(frozen=True)
class StatedNumber:
    """A number as a text states it: the characters, its value and the unit written after it."""

    written: str
    value: Decimal
    places: int = 0
    unit: str | None = None


@dataclass(frozen=True)
class Support:
    """What a reply may draw on, as texts and knowledge ids.

    ``texts``: evidence cells and sentences, the working context, the utterance, the node's
    safe phrases; ``ids``: the knowledge ids the evidence and the task mention.
    """

    texts: tuple[str, ...]
    ids: frozenset[str] = frozenset()

    def numbers(self) -> list[Decimal]:
        """Every number of the support texts (a text that is one number counts as that)."""
        return [number.value for number in self.stated()]

    def stated(self) -> list[StatedNumber]:
        """Every number of the support texts, with the unit written after it if any."""
        found: list[StatedNumber] = []
        for text in self.texts:
            whole = parse_number(text, signed=True)
            if whole is not None:
                found.append(StatedNumber(text.strip(), whole))
            found.extend(stated_numbers(text))
        return found


@dataclass(frozen=True)
class FaithfulnessReport:
    """The claims of a reply its support does not back: numbers and entity names, as written.

    ``withheld``: names of what the person must not be offered (an allergy, an exclusion).
    ``claims``: sentences that say a task was done when the plan evidence says it was not, or
    a thing's state the scene does not back (each with why).
    """

    numbers: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    withheld: tuple[str, ...] = ()
    claims: tuple[str, ...] = ()

    @property
    def faithful(self) -> bool:
        """Nothing unsupported, nothing withheld, nothing claimed that did not happen."""
        return not (self.numbers or self.entities or self.withheld or self.claims)

    def describe(self) -> str:
        """The unsupported claims in words: ``numbers 7, 12.5; names cream``."""
        parts = []
        if self.numbers:
            parts.append("numbers " + ", ".join(self.numbers))
        if self.entities:
            parts.append("names " + ", ".join(self.entities))
        if self.withheld:
            parts.append("names the person must not be offered " + ", ".join(self.withheld))
        if self.claims:
            parts.append("claims the outcome or the scene does not back: " + "; ".join(self.claims))
        return "; ".join(parts) or "nothing unsupported"


class LexiconNames:
    """Names from lexicons, read where they stand: building holds references, nothing more.

    A mention is what :meth:`Lexicon.match_at` finds at each word (plurals, possessives and
    hyphens as a lexicon reads them), the longest of all the lexicons; its form is the
    owner's form the words say. A form names every id that has it in any of the lexicons.
    """

    def __init__(self, lexicons: Sequence[Lexicon]) -> None:
        self._lexicons = tuple(lexicons)

    def __repr__(self) -> str:
        """The lexicons read, by name (the same for two views of the same lexicons)."""
        return f"LexiconNames({[lexicon.name for lexicon in self._lexicons]!r})"

    def mentions(self, text: str) -> Iterator[Named]:
        """Every name ``text`` states: a few trie probes per word, whatever the lexicons' size."""
        tokens = tokenize(text)
        index = 0
        while index < len(tokens):
            found = [
                (match, lexicon)
                for lexicon in self._lexicons
                if (match := lexicon.match_at(tokens, index)) is not None
            ]
            if not found:
                index += 1
                continue
            match, lexicon = max(found, key=lambda pair: (pair[0][1], pair[0][2]))
            start, end = tokens[index].start, match[2]
            form = lexicon.form_said(tokens[index : match[1] + 1], match[0])
            yield Named(text[start:end], form, start, end)
            index = match[1] + 1

    def ids_of(self, form: str) -> frozenset[str]:
        """Every id that has ``form`` in any lexicon, not only the one that owns it.

        A withheld ``chicken_satay`` is named by "satay" even where ``beef_satay`` owns it.
        """
        return frozenset(
            identifier for lexicon in self._lexicons for identifier in lexicon.claims(form)
        )

    def knows(self, word: str) -> bool:
        """Whether some lexicon has an owner for ``word``."""
        return any(lexicon.owner(word.casefold())[0] is not None for lexicon in self._lexicons)


def stated_numbers(text: str) -> list[StatedNumber]:
    """The numbers ``text`` states: digits, fractions, powers, Roman numerals, words."""
    found = [number for match in _DIGITS.finditer(text) if (number := _digits(text, match))]
    for match in _ROMAN.finditer(text):
        found.append(_with_unit(text, match.end(), match.group(0), _roman_value(match.group(0))))
    for written, words, end in _number_phrases(text):
        if written.casefold() not in _UNCHECKED_WORDS:
            value = Decimal(_word_value(words))
            if _NEGATED.search(text, 0, end - len(written)):
                value = -value
            found.append(_with_unit(text, end, written, value))
    return found


def _digits(text: str, match: re.Match[str]) -> StatedNumber | None:
    """The number one match of :data:`_DIGITS` states (None for a bare sign)."""
    over, number, glyph, power = match.group("over", "number", "glyph", "power")
    if not (over or number or glyph):
        return None
    places = 0
    if over:
        numerator, _, denominator = over.partition("/")
        value = Decimal(numerator) / Decimal(denominator) if int(denominator) else Decimal(0)
        places = 2
    else:
        digits = (number or "").replace(",", "")
        places = len(digits.partition(".")[2])
        value = Decimal(digits or 0)
        if glyph:
            value += Decimal(str(unicodedata.numeric(glyph)))
            places = max(places, 2)
        if power:
            exponent = int("".join(_SUPERSCRIPTS[glyph] for glyph in power))
            value = value ** min(exponent, 100)
    if match.group("sign"):
        value = -value
    return _with_unit(text, match.end(), match.group(0), value, places)


def _with_unit(text: str, end: int, written: str, value: Decimal, places: int = 0) -> StatedNumber:
    """A stated number, with the unit written right after ``end`` in ``text`` (if any)."""
    unit = _UNIT.match(text, end)
    named = unit.group("unit").replace(" ", "").casefold() if unit else None
    if named is not None:
        named = _UNIT_NAMES.get(named, named)
    return StatedNumber(written, value, places, named)


_UNIT_NAMES = {"ug": "µg", "mcg": "µg", "tablet": "tablets", "pill": "pills", "drop": "drops"}
_UNIT_NAMES |= {"dose": "doses", "puff": "puffs", "unit": "units"}


def _roman_value(numeral: str) -> Decimal:
    """The value of a valid Roman numeral ("XIV" 14)."""
    total = 0
    for index, letter in enumerate(numeral):
        value = _ROMAN_VALUES[letter]
        following = _ROMAN_VALUES[numeral[index + 1]] if index + 1 < len(numeral) else 0
        total += -value if value < following else value
    return Decimal(total)


def is_supported(number: StatedNumber, known: Iterable[Decimal]) -> bool:
    """Whether a known number equals ``number`` or rounds to it at its written precision."""
    return any(
        value == number.value or number.value in _rounded(value, number.places) for value in known
    )


def _rounded(value: Decimal, places: int) -> tuple[Decimal, ...]:
    """``value`` rounded to ``places`` decimals, half up and half even (none if it cannot be)."""
    step = Decimal(1).scaleb(-places)
    with localcontext() as context:
        context.prec = _PRECISION
        try:
            return tuple(value.quantize(step, rounding=mode) for mode in _ROUNDINGS)
        except InvalidOperation:
            return ()


_ROUNDINGS = (ROUND_HALF_UP, ROUND_HALF_EVEN)


class _Backing:
    """The support's numbers by value, and by value rounded at each precision a reply asks.

    So checking a reply costs what the reply and the support state, not their product (a
    question listing hundreds of candidates states hundreds of numbers).
    """

    def __init__(self, known: Iterable[StatedNumber]) -> None:
        self._exact: dict[Decimal, set[str | None]] = {}
        for item in known:
            self._exact.setdefault(item.value, set()).add(item.unit)
        self._by_places: dict[int, dict[Decimal, set[str | None]]] = {}

    def units(self, number: StatedNumber) -> set[str | None] | None:
        """The units of the support numbers backing ``number`` (None: no unit); None if none do."""
        found = set(self._exact.get(number.value, ()))
        found |= self._rounded_to(number.places).get(number.value, set())
        return found or None

    def _rounded_to(self, places: int) -> dict[Decimal, set[str | None]]:
        table = self._by_places.get(places)
        if table is None:
            table = self._by_places[places] = {}
            for value, units in self._exact.items():
                for rounded in _rounded(value, places):
                    table.setdefault(rounded, set()).update(units)
        return table


def unsupported_numbers(reply: str, support: Support) -> list[str]:
    """The numbers of ``reply`` that no number of ``support`` backs (value, sign and unit).

    A number with a unit is listed with it ("32.7 mg") when the support has the value only
    with other units.
    """
    backing = _Backing(support.stated())
    missing = []
    for number in stated_numbers(reply):
        units = backing.units(number)
        if units is None:
            missing.append(number.written)
        elif number.unit is not None and None not in units and number.unit not in units:
            missing.append(f"{number.written} {number.unit}")
    return _unique(missing)


def unsupported_entities(reply: str, support: Support, names: EntityNames) -> list[str]:
    """The names ``reply`` states that neither the support's ids nor texts contain.

    Names are those ``names`` finds, and the words it does not know that read as names:
    capitalised inside a sentence, or drug and chemical words (module docstring).
    """
    said = _Said("\n".join(support.texts))
    ids = {identifier.casefold() for identifier in support.ids}
    cited = [  # "GOTO(shelf_2)": an id the support holds is cited, not a name claimed
        (found.start(), found.start() + len(token))
        for found in _ID_TOKEN.finditer(reply)
        if "_" in (token := found.group().rstrip(".:-"))
        and (token.casefold() in ids or said.has(token))
    ]
    missing = []
    for written, form, start, end in names.mentions(reply):
        named = {identifier.casefold() for identifier in names.ids_of(form)}
        if named & ids or said.has(form) or any(a <= start and end <= b for a, b in cited):
            continue
        missing.append(written)
    missing += [w for w in _name_like_words(reply) if not names.knows(w) and not said.has(w)]
    return _unique(missing)


class _Said:
    """The support's text, asked whether it contains a name (:func:`occurs`).

    A name that is one word is looked up among the text's words; a longer one is searched
    once: a reply naming hundreds of things costs the text once, not once per name.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._words = {word.casefold() for word in _WORD_CHARS.findall(text)}
        self._found: dict[str, bool] = {}

    def has(self, form: str) -> bool:
        """Whether ``form`` (or its plural) is a whole word or phrase of the text (any case)."""
        key = form.casefold()
        if _WORD_CHARS.fullmatch(key):
            return any(key + ending in self._words for ending in ("", "s", "es"))
        if key not in self._found:
            self._found[key] = occurs(form, self.text)
        return self._found[key]


_WORD_CHARS = re.compile(r"\w+")
_ID_TOKEN = re.compile(r"(?<![\w:.-])[A-Za-z][\w:.-]*")
"""An id as a reply may cite it ("shelf_2", "adv:beef_satay"): words joined by underscores."""


def stated_names(reply: str, names: EntityNames) -> list[str]:
    """Every name ``reply`` states, as written: known entity forms and name-like words.

    The claims :func:`unsupported_entities` checks, whether supported or not; a capitalised
    word inside a known form ("Thai" in "pad Thai") is part of that name, not one of its own.
    """
    found, rest, at = [], [], 0
    for named in names.mentions(reply):
        found.append(named.written)
        rest.append(reply[at : named.start])
        at = named.end
    rest.append(reply[at:])
    found += [word for word in _name_like_words(" ".join(rest)) if not names.knows(word)]
    return _unique(found)


_CAPITALISED = re.compile(r"(?<![\w'-])[A-Z][a-z]+(?:[-'][A-Za-z]+)*(?![\w])")
_DRUG_ENDING_WORDS = """
    profen cillin mycin azole prazole statin olol pril sartan azepam azolam oxetine tidine
    dronate codone morphine caine barbital triptan floxacin cycline dipine gliptin
    glitazone parin thiazide semide setron lukast pramine zepine peridol tadine fenac
    coxib
"""
_SUBSTANCE_WORDS = """
    aspirin paracetamol acetaminophen insulin warfarin digoxin lithium opioid
    opiate fentanyl heroin cocaine nicotine codeine methadone benzodiazepine steroid
    antibiotic sedative bleach ammonia chlorine peroxide lye solvent pesticide antifreeze
    arsenic cyanide mercury morphine
"""
_DRUG_ENDINGS = tuple(_DRUG_ENDING_WORDS.split())
_SUBSTANCES = frozenset(_SUBSTANCE_WORDS.split())


def _name_like_words(reply: str) -> Iterator[str]:
    """Capitalised words inside a sentence, and drug or chemical words anywhere."""
    for match in _CAPITALISED.finditer(reply):
        if match.group(0) != "I" and not _starts_sentence(reply, match.start()):
            yield match.group(0)
    for match in _WORD.finditer(reply):
        word = match.group(0).casefold()
        if word in _SUBSTANCES or any(
            word.endswith(ending) and len(word) > len(ending) + 2 for ending in _DRUG_ENDINGS
        ):
            yield match.group(0)


def _starts_sentence(text: str, at: int) -> bool:
    """Whether a word at ``at`` starts a sentence (start, line break, ". ", quote, bracket).

    After the text's start, a line break, end punctuation and a space, or an opening quote or
    bracket (white space between allowed). Reads back from ``at`` over white space only, so a
    long reply costs its length once, not once per capitalised word.
    """
    start = at
    while start > 0 and text[start - 1].isspace():
        if text[start - 1] == "\n":
            return True
        start -= 1
    if start == 0:
        return at == 0
    before = text[start - 1]
    return before in "\"'([" or (before in ".!?:;" and start < at)


def occurs(form: str, text: str) -> bool:
    """Whether ``form`` (or its plural) is a whole word or phrase of ``text`` (any case)."""
    return re.search(rf"(?<!\w){re.escape(form)}(?:e?s)?(?!\w)", text, re.IGNORECASE) is not None


def check_reply(
    reply: str,
    support: Support,
    names: EntityNames | None = None,
    withheld: Iterable[str] = (),
) -> FaithfulnessReport:
    """The numbers and names of ``reply`` that ``support`` does not back, and withheld names.

    ``withheld``: ids or labels of what the person must not be offered; without ``names``,
    only numbers, name-like words and withheld labels are checked.
    """
    known = names if names is not None else FormNames({})
    return FaithfulnessReport(
        numbers=tuple(unsupported_numbers(reply, support)),
        entities=tuple(unsupported_entities(reply, support, known)),
        withheld=tuple(withheld_mentions(reply, withheld, known)),
    )


def withheld_mentions(reply: str, withheld: Iterable[str], names: EntityNames) -> list[str]:
    """The names ``reply`` gives to ``withheld`` things (ids or labels).

    A form of an entity whose id is withheld (``adv:chicken_satay`` or ``chicken_satay``), or a
    withheld label as whole words.
    """
    barred = [name for name in withheld if name.strip()]
    if not barred:
        return []
    ids = {name.rpartition(":")[2].casefold() for name in barred}
    found = [
        named.written
        for named in names.mentions(reply)
        if {identifier.casefold() for identifier in names.ids_of(named.form)} & ids
    ]
    found.extend(name for name in barred if occurs(name, reply))
    return _unique(found)


def parse_number(text: str, *, signed: bool = False) -> Decimal | None:
    """``text`` as one number (also "4.123E1", as a store renders doubles), or None.

    Unsigned unless ``signed``: "-4.5" is 4.5, or -4.5 with ``signed``.
    """
    stripped = text.strip().replace("\u2212", "-")
    if len(stripped) > _MAX_WHOLE_CHARS or not _WHOLE_NUMBER.fullmatch(stripped):
        return None
    try:
        value = Decimal(stripped)
    except InvalidOperation:
        return None
    if not value.is_finite():
        return None
    return value if signed else abs(value)


def _number_phrases(text: str) -> Iterator[tuple[str, list[str], int]]:
    """Runs of number words that make one number ("forty-one"): as written, its words, its end.

    A word joins the run before it only where English composes numbers: a unit after a tens
    word, a scale word after a number, a units or tens word after a scale word; so "four five"
    is two numbers, as it would be read.
    """
    start = end = -1
    words: list[str] = []
    for match in _WORD.finditer(text):
        word = match.group(0).casefold()
        if word not in _UNITS and word not in _TENS and word not in _SCALES:
            continue
        gap = text[end : match.start()]
        if words and _WORD_GAP.fullmatch(gap) and _composes(words[-1], word):
            words.append(word)
        else:
            if words:
                yield text[start:end], words, end
            start, words = match.start(), [word]
        end = match.end()
    if words:
        yield text[start:end], words, end


def _composes(previous: str, word: str) -> bool:
    if word in _SCALES:
        return True
    if previous in _TENS:
        return word in _UNITS and 0 < _UNITS[word] < 10
    return previous in _SCALES


def _word_value(words: list[str]) -> int:
    """The value of a number in words: ["forty", "one"] 41, ["two", "hundred", "five"] 205."""
    total = current = 0
    for word in words:
        if word in _UNITS:
            current += _UNITS[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word in _SCALES:
            scale = _SCALES[word]
            if scale == 100:
                current = max(current, 1) * scale
            else:
                total += max(current, 1) * scale
                current = 0
    return total + current


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


# -- holding a node's speech to the turn ---------------------------------------------------------


def turn_support(
    *texts: str | None,
    evidence: EvidenceBundle | None = None,
    working: WorkingContext | None = None,
) -> Support:
    """What a node may say this turn: ``texts``, ``evidence``'s cells and the working context.

    ``texts``: the utterance, the node's own phrases, what the robot observed.
    """
    found = [text for text in texts if text and text.strip()]
    if evidence is not None:
        found.extend(evidence.values())
    if working is not None and working.text.strip():
        found.append(working.text)
    return Support(texts=tuple(found))


def held_to(text: str, support: Support, fallback: str) -> tuple[str, str | None]:
    """``text`` and None when ``support`` backs it; else ``fallback`` and why it was not said."""
    report = check_reply(text, support)
    if report.faithful:
        return text, None
    return fallback, f"{clip(text, 120)!r} states unsupported {report.describe()}"


def speech_rationale(node: str, module: str, reply: str, why: str) -> GateRationale:
    """The rationale of a node whose sentence failed the check: what it said instead, and why."""
    return GateRationale(
        node=node,
        module=module,
        source="fast_path",
        vetoed=True,
        decision={"reply": reply},
        rationale=f"said a safe sentence instead: {why}",
    )
