"""``UtteranceInbox``: what the user said, waiting for the tree's thread; bounded, newest wins.

The ROS host answers one utterance per turn, and a turn can take seconds. Utterances that
arrive meanwhile wait here, but at most :data:`INBOX_CAPACITY` of them: when one more
arrives, the oldest waiting one is dropped, so a flood (a stuck publisher, a replayed bag)
costs a bounded amount of memory and the robot answers what the user said last. What was
dropped is counted and the last few are kept, clipped, so the host can say what it skipped
(:meth:`Taken.notice`) before the turn it runs. This module needs no ROS, so it is tested
without DDS.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass

from cogtree.knowledge.wording import clip, counted, joined

INBOX_CAPACITY = 1
"""How many utterances wait for a turn at most; the newest are kept. One: whatever floods
the topic, the newest request waits behind at most the turn in progress."""

DROPPED_SHOWN = 3
"""How many of the dropped utterances the notice quotes (the most recent ones)."""

DROPPED_CHARS = 60
"""Each quoted dropped utterance is clipped to this many characters."""

SKIPPED = "I was busy and skipped {count} that came in meanwhile, most recently {quoted}."
"""What the host says before a turn when utterances were dropped."""


@dataclass(frozen=True)
class Waiting:
    """An utterance waiting for its turn, and the ticket of who waits for its answer (if any)."""

    text: str
    ticket: object | None = None


@dataclass(frozen=True)
class Taken:
    """An utterance to answer, and what was dropped before it since the last one taken.

    ``ticket`` is the one it was put with (None for a plain utterance).
    """

    text: str
    dropped: int = 0
    recent_dropped: tuple[str, ...] = ()
    ticket: object | None = None

    def notice(self) -> str | None:
        """The sentence telling the user what was skipped; None when nothing was."""
        if not self.dropped:
            return None
        quoted = joined([f'"{text}"' for text in self.recent_dropped])
        return SKIPPED.format(count=counted(self.dropped, "earlier request"), quoted=quoted)


class UtteranceInbox:
    """A bounded queue of utterances between the node's callbacks and the tree's thread.

    :meth:`put` never blocks (a callback must return at once); :meth:`take` blocks until an
    utterance waits or the inbox is closed. Safe to share between threads.
    """

    def __init__(self, capacity: int = INBOX_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError(f"an inbox holds at least one utterance, not {capacity}")
        self.capacity = capacity
        self._waiting: deque[Waiting] = deque()
        self._dropped = 0
        self._recent: deque[str] = deque(maxlen=DROPPED_SHOWN)
        self._closed = False
        self._changed = threading.Condition()

    def put(self, text: str, ticket: object | None = None) -> Waiting | None:
        """Add ``text`` (with the ``ticket`` of who waits for its answer, if anyone).

        Returns the oldest waiting utterance it pushed out, if any.
        """
        with self._changed:
            dropped = None
            if len(self._waiting) == self.capacity:
                dropped = self._waiting.popleft()
                self._dropped += 1
                self._recent.append(clip(dropped.text, DROPPED_CHARS, trim=True))
            self._waiting.append(Waiting(text, ticket))
            self._changed.notify()
            return dropped

    def take(self) -> Taken | None:
        """The oldest waiting utterance with what was dropped before it; None once closed."""
        with self._changed:
            while not self._waiting and not self._closed:
                self._changed.wait()
            if self._closed:
                return None
            waiting = self._waiting.popleft()
            taken = Taken(waiting.text, self._dropped, tuple(self._recent), waiting.ticket)
            self._dropped = 0
            self._recent.clear()
            return taken

    def close(self) -> None:
        """Wake the taker: :meth:`take` returns None from now on."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def __len__(self) -> int:
        with self._changed:
            return len(self._waiting)
