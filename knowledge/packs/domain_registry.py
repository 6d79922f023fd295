"""The registry of loaded domain packs and the one that is active now.

Packs are found in the shipped ``knowledge/packs/domains/`` and in any directory a user adds (each
sub-directory with a ``pack.yaml`` is a pack; a directory that holds ``pack.yaml`` itself is
one pack). A broken pack is skipped with its :class:`~knowledge.packs.domain_pack.PackError` kept in
:attr:`DomainRegistry.problems` and logged, so the others keep working. Switching the active
pack changes only which tasks the next turn is read against; memory is shared by all packs.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

from cogtree.knowledge.packs.domain_pack import MANIFEST, DomainPack, PackError, load_pack

log = logging.getLogger(__name__)

SHIPPED_PACKS = Path(__file__).with_name("domains")
"""Where the packs that ship with cogtree live."""

OPTIONAL_PACKS = Path(__file__).with_name("optional_packs")
"""Packs that ship with cogtree but load only when asked (``--packs``): the SQLite-grounded
``larder``."""

SHIPPED_NAMES = ("household", "advisor", "office")
"""The shipped packs, in the order the registry lists them."""


def pack_directories(root: Path) -> list[Path]:
    """``root`` itself when it holds a pack, else its sub-directories that do, sorted."""
    if (root / MANIFEST).is_file():
        return [root]
    if not root.is_dir():
        raise PackError(f"{root} is not a directory holding domain packs")
    return sorted(child for child in root.iterdir() if (child / MANIFEST).is_file())


class DomainRegistry:
    """The loaded packs by name and the active one (thread-safe switching)."""

    def __init__(
        self,
        packs: Sequence[DomainPack],
        *,
        active: str | None = None,
        problems: Sequence[PackError] = (),
    ) -> None:
        if not packs:
            raise PackError("no domain pack could be loaded; " + _problem_text(problems))
        self._packs: dict[str, DomainPack] = {}
        for pack in packs:
            if pack.name in self._packs:
                raise PackError(
                    f"two packs are called {pack.name}: {self._packs[pack.name].directory} "
                    f"and {pack.directory}; rename one in its pack.yaml"
                )
            self._packs[pack.name] = pack
        self.problems: list[PackError] = list(problems)
        self._lock = threading.Lock()
        if active is not None and active not in self._packs:
            raise PackError(
                f"cannot start in domain {active!r}: no such pack is loaded "
                f"(loaded: {', '.join(self._packs)})"
            )
        self._active = active or packs[0].name

    @classmethod
    def discover(
        cls,
        extra: Iterable[str | Path] = (),
        *,
        shipped: bool = True,
        only: Sequence[str] | None = None,
        active: str | None = None,
    ) -> DomainRegistry:
        """Load the shipped packs (unless ``shipped`` is False) and those under ``extra``.

        ``only`` keeps just the packs with those names. Broken packs are skipped and kept in
        :attr:`problems`.
        """
        folders: list[Path] = []
        problems: list[PackError] = []
        roots = ([SHIPPED_PACKS] if shipped else []) + [Path(path) for path in extra]
        for root in roots:
            try:
                folders.extend(pack_directories(root))
            except PackError as error:
                problems.append(error)
        packs: dict[str, DomainPack] = {}
        for folder in folders:
            try:
                pack = load_pack(folder)
                if pack.name in packs:
                    raise PackError(
                        f"{folder / MANIFEST}: name {pack.name!r} is already used by the pack "
                        f"in {packs[pack.name].directory}; rename one of them in its {MANIFEST}"
                    )
            except PackError as error:
                log.warning("skipping domain pack %s: %s", folder, error)
                problems.append(error)
                continue
            if only is None or pack.name in only:
                packs[pack.name] = pack
        for name in only or ():
            if name not in packs:
                problems.append(
                    PackError(f"no domain pack called {name!r} was loaded; check the name")
                )
        return cls(sorted(packs.values(), key=_shipped_first), active=active, problems=problems)

    @property
    def names(self) -> list[str]:
        """Every loaded pack's name."""
        return list(self._packs)

    @property
    def packs(self) -> list[DomainPack]:
        """Every loaded pack."""
        return list(self._packs.values())

    def get(self, name: str) -> DomainPack:
        """The pack called ``name``; KeyError lists the loaded ones."""
        try:
            return self._packs[name]
        except KeyError:
            raise KeyError(
                f"no domain pack {name!r}; loaded packs: {', '.join(self._packs)}"
            ) from None

    def __contains__(self, name: object) -> bool:
        return name in self._packs

    @property
    def active(self) -> DomainPack:
        """The pack the current turn is read against."""
        with self._lock:
            return self._packs[self._active]

    def switch(self, name: str) -> str:
        """Make ``name`` the active pack; return the previous one's name."""
        pack = self.get(name)
        with self._lock:
            previous, self._active = self._active, pack.name
        if previous != pack.name:
            log.info("active domain: %s -> %s", previous, pack.name)
        return previous


def _shipped_first(pack: DomainPack) -> tuple[int, str]:
    if pack.name in SHIPPED_NAMES and pack.directory.parent == SHIPPED_PACKS:
        return SHIPPED_NAMES.index(pack.name), pack.name
    return len(SHIPPED_NAMES), pack.name


def _problem_text(problems: Sequence[PackError]) -> str:
    return "; ".join(str(problem) for problem in problems) or "no pack directories were given"
