"""The faithfulness check of outer speech: every number and name a reply states is supported.

A reply is *faithful* when each number it states and each entity it names can be found in its
:class:`Support`: the evidence bundle, the working context, the user's utterance, and the
phrases the speaking node itself produces (its marked safe defaults). Pure functions, no state.

Numbers. Every run of digits counts, also inside a word ("table_2" states 2), with a decimal
point and thousands commas ("1,200.5"); numbers in words count as well ("twelve",
"forty-one", "two hundred"), except "one" and "zero" on their own, which are mostly pronouns
("the one on the left"). Signs are ignored. A stated number is supported when a number of the
support equals it ("41.20" and "41.2"), or rounds to it at the precision it is written with:
"41.2" and "41" are supported by "41.23"; "41.3" is not, and "41.24" is not supported by
"41.2" (a reply may round, never add precision).

Entities. ``entity_forms`` maps the surface forms of known entities (lexicon forms of the active
pack and of the scene, case-folded) to the ids they name. A form named in the reply (whole
words, an optional plural "s"/"es") is supported when one of its ids is among the support's ids
or the form itself occurs in a support text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation, localcontext

_DIGITS = re.compile(r"\d+(?:,\d{3}(?!\d))*(?:\.\d+)?|\.\d+")
_UNIT_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
)
_TENS_WORDS = "twenty thirty forty fifty sixty seventy eighty ninety"
_UNITS = {word: value for value, word in enumerate(_UNIT_WORDS.split())}
_TENS = {word: 10 * value for value, word in enumerate(_TENS_WORDS.split(), start=2)}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_UNCHECKED_WORDS = frozenset({"zero", "one"})
_WORD = re.compile(r"[A-Za-z]+")
_WORD_GAP = re.compile(r"[ \t-]+")
_WHOLE_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_MAX_WHOLE_CHARS = 60
_PRECISION = 200


@dataclass(frozen=True)
class StatedNumber:
    """A number as a text states it: the characters and their value."""

    written: str
    value: Decimal
    places: int = 0


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
        found: list[Decimal] = []
        for text in self.texts:
            whole = parse_number(text)
            if whole is not None:
                found.append(whole)
            found.extend(number.value for number in stated_numbers(text))
        return found


@dataclass(frozen=True)
class FaithfulnessReport:
    """The claims of a reply its support does not back: numbers and entity names, as written."""

    numbers: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()

    @property
    def faithful(self) -> bool:
        """Nothing unsupported."""
        return not (self.numbers or self.entities)

    def describe(self) -> str:
        """The unsupported claims in words: ``numbers 7, 12.5; names cream``."""
        parts = []
        if self.numbers:
            parts.append("numbers " + ", ".join(self.numbers))
        if self.entities:
            parts.append("names " + ", ".join(self.entities))
        return "; ".join(parts) or "nothing unsupported"


@dataclass
class _Forms:
    """Entity forms compiled into one pattern (longest first, so phrases beat their words)."""

    forms: Mapping[str, frozenset[str]]
    pattern: re.Pattern[str] | None = field(init=False)

    def __post_init__(self) -> None:
        usable = sorted((form for form in self.forms if form.strip()), key=len, reverse=True)
        alternatives = "|".join(re.escape(form) for form in usable)
        self.pattern = (
            re.compile(rf"(?<!\w)({alternatives})(?:e?s)?(?!\w)", re.IGNORECASE) if usable else None
        )

    def mentions(self, text: str) -> Iterator[tuple[str, str]]:
        """(as written, form) for every form named in ``text``."""
        if self.pattern is None:
            return
        lookup = {form.casefold(): form for form in self.forms}
        for match in self.pattern.finditer(text):
            yield match.group(0), lookup.get(match.group(1).casefold(), match.group(1))


def stated_numbers(text: str) -> list[StatedNumber]:
    """The numbers ``text`` states, in digits or (from two upwards) in words."""
    found = []
    for match in _DIGITS.finditer(text):
        written = match.group(0)
        digits = written.replace(",", "")
        places = len(digits.partition(".")[2])
        found.append(StatedNumber(written, Decimal(digits), places))
    for written, words in _number_phrases(text):
        if written.casefold() not in _UNCHECKED_WORDS:
            found.append(StatedNumber(written, Decimal(_word_value(words))))
    return found


def is_supported(number: StatedNumber, known: Iterable[Decimal]) -> bool:
    """Whether a known number equals ``number`` or rounds to it at its written precision."""
    step = Decimal(1).scaleb(-number.places)
    with localcontext() as context:
        context.prec = _PRECISION
        for value in known:
            if value == number.value:
                return True
            try:
                if any(
                    value.quantize(step, rounding=mode) == number.value
                    for mode in (ROUND_HALF_UP, ROUND_HALF_EVEN)
                ):
                    return True
            except InvalidOperation:
                continue
    return False


def unsupported_numbers(reply: str, support: Support) -> list[str]:
    """The numbers of ``reply`` that no number of ``support`` equals or rounds to."""
    known = support.numbers()
    return _unique(
        number.written for number in stated_numbers(reply) if not is_supported(number, known)
    )


def unsupported_entities(
    reply: str, support: Support, entity_forms: Mapping[str, frozenset[str]]
) -> list[str]:
    """The entity forms ``reply`` names that neither the support's ids nor texts contain."""
    forms = _Forms(entity_forms)
    said = "\n".join(support.texts)
    ids = {identifier.casefold() for identifier in support.ids}
    missing = []
    for written, form in forms.mentions(reply):
        named = {identifier.casefold() for identifier in entity_forms.get(form, frozenset())}
        if named & ids:
            continue
        if re.search(rf"(?<!\w){re.escape(form)}(?:e?s)?(?!\w)", said, re.IGNORECASE):
            continue
        missing.append(written)
    return _unique(missing)


def check_reply(
    reply: str,
    support: Support,
    entity_forms: Mapping[str, frozenset[str]] | None = None,
) -> FaithfulnessReport:
    """The numbers and entity names of ``reply`` that ``support`` does not back."""
    return FaithfulnessReport(
        numbers=tuple(unsupported_numbers(reply, support)),
        entities=tuple(unsupported_entities(reply, support, entity_forms or {})),
    )


def parse_number(text: str) -> Decimal | None:
    """``text`` as one number, unsigned (also "4.123E1", as a store renders doubles), or None."""
    stripped = text.strip()
    if len(stripped) > _MAX_WHOLE_CHARS or not _WHOLE_NUMBER.fullmatch(stripped):
        return None
    try:
        value = abs(Decimal(stripped))
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def _number_phrases(text: str) -> Iterator[tuple[str, list[str]]]:
    """Runs of number words that make one number ("forty-one"): as written, and its words.

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
                yield text[start:end], words
            start, words = match.start(), [word]
        end = match.end()
    if words:
        yield text[start:end], words


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
