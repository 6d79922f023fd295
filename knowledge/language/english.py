"""Whether an utterance is in English: the robot's packs, lexicons and guards are English only.

A cheap, deterministic check so that other languages get "I only understand English for now"
instead of "outside what I do". Text counts as not English when most of its letters are of a
non-Latin script (Cyrillic, Greek, Arabic, CJK...), or when it has no English function word and
at least two common function words of another European language ("dónde está mi taza", "wo
ist meine Brille"). Names and dishes with accents ("crème brûlée", "Zoë") stay English.
"""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")

ENGLISH_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "i",
        "me",
        "my",
        "you",
        "your",
        "he",
        "she",
        "it",
        "we",
        "they",
        "is",
        "are",
        "am",
        "was",
        "were",
        "be",
        "do",
        "does",
        "did",
        "have",
        "has",
        "what",
        "where",
        "when",
        "who",
        "which",
        "how",
        "why",
        "can",
        "could",
        "would",
        "will",
        "please",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "with",
        "and",
        "or",
        "not",
        "no",
        "yes",
        "this",
        "that",
        "there",
        "here",
        "some",
        "any",
        "from",
        "up",
        "out",
        "get",
        "bring",
        "take",
        "put",
        "give",
        "tell",
    ]
)
"""Function words (and the commonest request verbs) that mark a sentence as English."""

FOREIGN_WORDS = frozenset(
    # Spanish, French, Italian, Portuguese, German, Dutch: common function words that are not
    # English words as well
    [
        "el",
        "la",
        "los",
        "las",
        "un",
        "una",
        "unos",
        "unas",
        "es",
        "está",
        "están",
        "estoy",
        "dónde",
        "donde",
        "qué",
        "por",
        "favor",
        "mi",
        "mis",
        "tu",
        "del",
        "al",
        "y",
        "pero",
        "muy",
        "le",
        "les",
        "des",
        "du",
        "est",
        "où",
        "je",
        "tu",
        "il",
        "elle",
        "nous",
        "vous",
        "ils",
        "sont",
        "suis",
        "mon",
        "ma",
        "mes",
        "ton",
        "ta",
        "avec",
        "pour",
        "dans",
        "sur",
        "pas",
        "s'il",
        "plaît",
        "il",
        "lo",
        "gli",
        "della",
        "sono",
        "è",
        "dove",
        "che",
        "per",
        "favore",
        "mio",
        "mia",
        "non",
        "ho",
        "o",
        "da",
        "em",
        "não",
        "eu",
        "você",
        "obrigado",
        "der",
        "die",
        "das",
        "ein",
        "eine",
        "ist",
        "sind",
        "wo",
        "was",
        "ich",
        "du",
        "er",
        "sie",
        "wir",
        "ihr",
        "mein",
        "meine",
        "bitte",
        "und",
        "nicht",
        "mit",
        "auf",
        "het",
        "een",
        "ik",
        "je",
        "jij",
        "waar",
        "niet",
    ]
)
"""Words of other languages that a short request is likely to hold."""


def looks_english(text: str) -> bool:
    """Whether ``text`` reads as English (module docstring); empty text counts as English."""
    letters = [char for char in text if char.isalpha()]
    if letters:
        latin = sum(1 for char in letters if "LATIN" in unicodedata.name(char, ""))
        if latin / len(letters) < 0.5:
            return False
    words = [word.casefold() for word in _WORD.findall(text)]
    if any(word in ENGLISH_WORDS for word in words):
        return True
    return sum(1 for word in words if word in FOREIGN_WORDS) < 2
