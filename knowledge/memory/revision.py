"""The revision rule: which of two facts about the same thing the memory believes.

Two facts *conflict* when they share a key (:attr:`~knowledge.memory.model.Claim.key`: the
same slot, or the same normalised text). Between a fact and a newer one on the same key:

1. a fact that would *lift* a hard constraint (:func:`lifts`: "Actually I like peanuts now"
   over "I'm allergic to peanuts", or its withdrawal) wins only once the user confirmed it,
   answering yes to the robot's question (source ``confirmed``); until then the constraint
   stands, whatever else the newer fact is;
2. otherwise an explicit correction by the user always wins (the user changed their mind or
   fixed a misunderstanding), and so does a retraction (a negative fact: "I'm no longer
   allergic to peanuts"), which the memory keeps only once the user said it in so many words
   and confirmed it;
3. otherwise the higher priority wins (an identifier over a hard constraint over a soft
   preference over anything else): a passing "I'd love some milk" does not cancel "I am
   lactose intolerant";
4. at equal priority the newer fact wins (it is the latest word, and a restatement refreshes
   the fact).

The same rule revises the store on write and reconciles the working context on read.
"""

from __future__ import annotations

from collections.abc import Iterable

from cogtree.knowledge.memory.model import Claim, Fact


def lifts(newer: Claim, older: Claim) -> bool:
    """Whether ``newer``, on the key of ``older``, would lift a safety constraint.

    ``older`` holds a hard constraint (an allergy, an intolerance, an exclusion, a diet) and
    ``newer`` is not one: a withdrawal, a preference ("I like peanuts now"), or anything else.
    A hard constraint restated in other terms lifts nothing.
    """
    holds_a_constraint = older.holds and older.kind == "hard_constraint"
    return holds_a_constraint and not (newer.holds and newer.kind == "hard_constraint")


def prevails(newer: Fact, older: Fact) -> bool:
    """Whether ``newer`` replaces ``older``, a fact on the same key from an earlier turn."""
    if lifts(newer, older):
        return newer.source == "confirmed"
    return newer.correction or not newer.holds or newer.priority >= older.priority


def reconcile(facts: Iterable[Fact]) -> dict[str, Fact]:
    """One believed fact per key, folding ``facts`` in turn order with :func:`prevails`.

    Facts of the same turn are taken in the order given. Returns key -> winning fact.
    """
    believed: dict[str, Fact] = {}
    for fact in sorted(facts, key=lambda item: item.turn):
        held = believed.get(fact.key)
        if held is None or prevails(fact, held):
            believed[fact.key] = fact
    return believed
