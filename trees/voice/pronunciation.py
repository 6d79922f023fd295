"""Pronunciations of words the recogniser's dictionary lacks, from espeak-ng's phonemes.

The pronouncing dictionary shipped with PocketSphinx is American and has no entry for many
words the robot knows ("worktop", "yoghurt", "courgette", "windowsill"); a word it cannot
pronounce can never be heard. espeak-ng pronounces any word: :func:`pronounce` asks it for
each word's IPA (``--ipa``, one word a line, phonemes separated) and maps every IPA phoneme
to the nearest of the dictionary's 39 ARPAbet phones (:data:`ARPABET`), a phone said twice in
a row once. A phoneme with no counterpart leaves its word out.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable

ARPABET = {
    **{
        "ɪ": "IH", "i": "IY", "iː": "IY", "ɛ": "EH", "e": "EH", "æ": "AE", "a": "AE",
        "ɑ": "AA", "ɑː": "AA", "ɒ": "AA", "ɔ": "AO", "ɔː": "AO", "ʊ": "UH", "u": "UW",
        "uː": "UW", "ʌ": "AH", "ə": "AH", "ɐ": "AH", "ᵻ": "IH", "ɚ": "ER", "ɜ": "ER",
        "ɜː": "ER", "ɝ": "ER", "eɪ": "EY", "aɪ": "AY", "ɔɪ": "OY", "aʊ": "AW", "oʊ": "OW",
        "o": "OW", "əʊ": "OW", "iə": "IY AH", "eə": "EH R", "ʊə": "UH R", "əl": "AH L",
        "ɑːɹ": "AA R", "ɔːɹ": "AO R", "ɛɹ": "EH R", "ɪɹ": "IH R", "ʊɹ": "UH R", "aɪɚ": "AY ER",
        "aɪə": "AY ER", "aʊɚ": "AW ER", "oːɹ": "AO R", "iːə": "IY AH",
    },
    **{
        "p": "P", "b": "B", "t": "T", "d": "D", "k": "K", "ɡ": "G", "g": "G", "f": "F",
        "v": "V", "θ": "TH", "ð": "DH", "s": "S", "z": "Z", "ʃ": "SH", "ʒ": "ZH", "h": "HH",
        "m": "M", "n": "N", "ŋ": "NG", "l": "L", "ɹ": "R", "r": "R", "w": "W", "j": "Y",
        "tʃ": "CH", "dʒ": "JH", "ɾ": "T", "ʔ": "T", "x": "K", "ç": "HH", "ɬ": "L", "n̩": "AH N",
    },
}  # fmt: skip
"""IPA phoneme (as espeak-ng writes it, stress and length marks aside) -> ARPAbet phones."""
MARKS = str.maketrans("", "", "ˈˌ\u200d\u0329")
"""Stress marks, the zero-width joiner and the syllabic mark: not phonemes."""


def arpabet(ipa: str) -> str | None:
    """Space-separated IPA phonemes as ARPAbet phones, or None when one has no counterpart."""
    phones: list[str] = []
    for phoneme in ipa.translate(MARKS).split():
        phone = ARPABET.get(phoneme) or ARPABET.get(phoneme.replace("ː", ""))
        if phone is None:
            return None
        phones += [part for part in phone.split() if not phones or part != phones[-1]]
    return " ".join(phones) or None


def pronounce(words: Iterable[str]) -> dict[str, str]:
    """ARPAbet pronunciations of ``words`` from espeak-ng (US English); {} without espeak-ng.

    Words whose phonemes do not all map, or that espeak-ng does not answer line for line,
    are left out.
    """
    asked = sorted(set(words))
    if not asked or shutil.which("espeak-ng") is None:
        return {}
    command = ["espeak-ng", "-v", "en-us", "-q", "--ipa", "--sep= "]
    done = subprocess.run(
        command, input="\n".join(asked).encode(), capture_output=True, check=False
    )
    lines = done.stdout.decode(errors="replace").splitlines()
    if done.returncode != 0 or len(lines) != len(asked):
        return {}
    said = {word: arpabet(line) for word, line in zip(asked, lines, strict=True)}
    return {word: phones for word, phones in said.items() if phones}
