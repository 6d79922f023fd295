"""The ROS host's utterance inbox: bounded, the newest request wins, and what was dropped is
said. Pure Python: no DDS needed."""

from __future__ import annotations

import threading

import pytest

from cogtree.trees.ros.inbox import DROPPED_CHARS, INBOX_CAPACITY, Taken, UtteranceInbox


def test_a_flood_of_3000_utterances_keeps_the_newest_and_counts_the_rest() -> None:
    inbox = UtteranceInbox()
    dropped = [inbox.put(f"request {n}") for n in range(3000)]
    assert len(inbox) == INBOX_CAPACITY
    assert dropped[:INBOX_CAPACITY] == [None] * INBOX_CAPACITY
    assert [waiting.text for waiting in dropped[INBOX_CAPACITY:] if waiting] == [
        f"request {n}" for n in range(3000 - INBOX_CAPACITY)
    ]
    first = inbox.take()
    assert first is not None
    newest = [f"request {n}" for n in range(3000 - INBOX_CAPACITY, 3000)]
    assert first.text == newest[0]
    assert first.dropped == 3000 - INBOX_CAPACITY
    assert first.notice() == (
        f"I was busy and skipped {3000 - INBOX_CAPACITY} earlier requests that came in "
        "meanwhile, most recently "
        + ", ".join(f'"request {n}"' for n in range(2997 - INBOX_CAPACITY, 2999 - INBOX_CAPACITY))
        + f' and "request {2999 - INBOX_CAPACITY}".'
    )
    rest = [inbox.take() for _ in range(INBOX_CAPACITY - 1)]
    assert [taken.text for taken in rest if taken] == newest[1:]
    assert all(taken is not None and taken.notice() is None for taken in rest)
    assert len(inbox) == 0


def test_nothing_dropped_says_nothing() -> None:
    inbox = UtteranceInbox(capacity=2)
    assert inbox.put("hello") is None
    assert inbox.take() == Taken("hello")
    assert Taken("hello").notice() is None


def test_one_dropped_is_said_in_the_singular_and_clipped() -> None:
    inbox = UtteranceInbox(capacity=1)
    inbox.put("bring " * 100)
    dropped = inbox.put("stop", ticket="goal 7")
    assert dropped is not None and dropped.text == "bring " * 100 and dropped.ticket is None
    taken = inbox.take()
    assert taken is not None and taken.text == "stop" and taken.ticket == "goal 7"
    notice = taken.notice()
    assert notice is not None and "skipped 1 earlier request that" in notice
    assert len(taken.recent_dropped[0]) <= DROPPED_CHARS


def test_take_waits_for_a_put_from_another_thread_and_close_wakes_it() -> None:
    inbox = UtteranceInbox()
    got: list[Taken | None] = []
    taker = threading.Thread(target=lambda: got.extend([inbox.take(), inbox.take()]))
    taker.start()
    inbox.put("hello")
    inbox.close()
    taker.join(timeout=30)
    assert not taker.is_alive()
    assert got in ([Taken("hello"), None], [None, None])
    assert inbox.take() is None


def test_an_inbox_holds_at_least_one() -> None:
    with pytest.raises(ValueError, match="at least one"):
        UtteranceInbox(capacity=0)
