"""``Closeable``: a resource whose ``with`` block ends by calling its ``close()``."""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType

from typing_extensions import Self


class Closeable(ABC):
    """Base for stores, runners and clients: ``with thing: ...`` closes it on the way out."""

    @abstractmethod
    def close(self) -> None:
        """Release what the object holds (files, connections, worker threads)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
