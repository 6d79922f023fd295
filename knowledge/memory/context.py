"""Assembling the working context: the most important memory that fits a character budget.

Items are taken in order of importance while they fit: current facts (identifiers, then hard
constraints, preferences and the rest; newest first within a kind), then recent turns (newest
first), then archived facts recalled for the request (best match first). An item that does
not fit is left out whole (a fact is never cut, it could change its meaning); only the two
sides of a dialogue turn are clipped, to ``line_chars`` each. A fact whose text repeats one
already taken is left out. The text is rendered in sections:

    Known facts:
    - [hard constraint] Allergic to peanuts.
    Recent turns:
    - user: bring me a snack | robot: Would crackers do?
    Recalled from earlier:
    - [preference] Likes jasmine tea.

The budget counts every character of that text (``len``, i.e. code points), headers and
line breaks included.
"""

from __future__ import annotations

from collections.abc import Sequence

from cogtree.knowledge.memory.model import Fact, Recall, TurnTrace, WorkingContext, normalise_text
from cogtree.knowledge.wording import clip

FACTS_HEADER = "Known facts:"
HISTORY_HEADER = "Recent turns:"
RECALLED_HEADER = "Recalled from earlier:"


class _Section:
    """One titled list of lines, filled against a shared character count."""

    def __init__(self, header: str) -> None:
        self.header = header
        self.lines: list[str] = []

    def rendered(self) -> list[str]:
        return [self.header, *self.lines] if self.lines else []


class _Budget:
    """Counts the characters of the rendered text as lines are taken (joined by newlines)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.lines = 0
        self.chars = 0

    def take(self, section: _Section, line: str) -> bool:
        """Add ``line`` to ``section`` if it (and the header, if first) fits; say whether."""
        new = [line] if section.lines else [section.header, line]
        cost = sum(len(item) for item in new) + len(new) - (1 if self.lines == 0 else 0)
        if self.chars + cost > self.limit:
            return False
        self.chars += cost
        self.lines += len(new)
        section.lines.append(line)
        return True


def _fact_line(fact: Fact) -> str:
    """How a fact appears in the working context."""
    label = fact.kind.replace("_", " ") if fact.holds else "withdrawn"
    return f"- [{label}] {fact.text}"


def _turn_line(trace: TurnTrace, line_chars: int) -> str:
    """How a recent turn appears in the working context, each side clipped to ``line_chars``."""
    line = f"- user: {clip(trace.user, line_chars, trim=True)}"
    if trace.robot.strip():
        line += f" | robot: {clip(trace.robot, line_chars, trim=True)}"
    return line


def build_context(
    *,
    facts: Sequence[Fact],
    history: Sequence[TurnTrace],
    recalled: Sequence[Recall],
    budget_chars: int,
    line_chars: int,
) -> WorkingContext:
    """The working context of the given (already reconciled) items within ``budget_chars``."""
    budget = _Budget(budget_chars)
    sections = {
        header: _Section(header) for header in (FACTS_HEADER, HISTORY_HEADER, RECALLED_HEADER)
    }
    seen: set[str] = set()
    kept_facts: list[Fact] = []
    kept_turns: list[TurnTrace] = []
    kept_recalls: list[Recall] = []
    omitted = 0

    for fact in sorted(facts, key=lambda item: (-item.priority, -item.turn)):
        if normalise_text(fact.text) in seen:
            continue
        if budget.take(sections[FACTS_HEADER], _fact_line(fact)):
            seen.add(normalise_text(fact.text))
            kept_facts.append(fact)
        else:
            omitted += 1
    for trace in reversed(history):
        if budget.take(sections[HISTORY_HEADER], _turn_line(trace, line_chars)):
            kept_turns.append(trace)
        else:
            omitted += 1
    for recall in recalled:
        if normalise_text(recall.fact.text) in seen:
            continue
        if budget.take(sections[RECALLED_HEADER], _fact_line(recall.fact)):
            seen.add(normalise_text(recall.fact.text))
            kept_recalls.append(recall)
        else:
            omitted += 1

    sections[HISTORY_HEADER].lines.reverse()  # taken newest first, shown oldest first
    kept_turns.reverse()
    text = "\n".join(line for section in sections.values() for line in section.rendered())
    return WorkingContext(
        text=text,
        budget_chars=budget_chars,
        facts=tuple(kept_facts),
        history=tuple(kept_turns),
        recalled=tuple(kept_recalls),
        omitted=omitted,
    )
