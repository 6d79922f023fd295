"""BT.CPP v4's control nodes (Fallback, Parallel, IfThenElse, Switch2-Switch6, ...).

Here: Fallback, ReactiveSequence, ReactiveFallback, SequenceWithMemory, Parallel, ParallelAll,
IfThenElse, WhileDoElse and Switch2-Switch6.

``Sequence`` is py_trees' own (with memory, BT.CPP's ``Sequence``); ``Fallback``,
``ReactiveSequence`` and ``ReactiveFallback`` are py_trees' Selector and Sequence with the
memory BT.CPP gives them. The others are written here after BT.CPP's documented behaviour. A
control that ends halts the children still running; the statuses of the others stay visible
until they are ticked again.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence

import py_trees
from py_trees.behaviour import Behaviour
from py_trees.common import Access, Status

from cogtree.behaviours.btcpp.script_scope import SCRIPT_ENUMS, BlackboardEntry
from cogtree.behaviours.btcpp.steering import Steered, Ticking, halt, tick_child, was_skipped


class Fallback(py_trees.composites.Selector):
    """Try the children in order until one does not fail (BT.CPP ``Fallback``, with memory).

    SUCCESS: a child succeeded. FAILURE: every child failed. RUNNING: a child is running; the
    next tick resumes at it.
    """

    def __init__(self, children: Sequence[Behaviour] = (), name: str = "Fallback") -> None:
        super().__init__(name=name, memory=True, children=list(children))


class ReactiveFallback(py_trees.composites.Selector):
    """Try the children from the first on every tick (BT.CPP ``ReactiveFallback``).

    SUCCESS: a child succeeded (a running later child is halted). FAILURE: every child
    failed. RUNNING: a child is running.
    """

    def __init__(self, children: Sequence[Behaviour] = (), name: str = "ReactiveFallback"):
        super().__init__(name=name, memory=False, children=list(children))


class ReactiveSequence(py_trees.composites.Sequence):
    """Run the children from the first, every tick, while they succeed (``ReactiveSequence``).

    SUCCESS: every child succeeded. FAILURE: a child failed; a later child left running is
    halted. RUNNING: a child is running; the earlier ones are ticked again on the next tick.
    """

    def __init__(self, children: Sequence[Behaviour] = (), name: str = "ReactiveSequence"):
        super().__init__(name=name, memory=False, children=list(children))


class _Control(Steered, py_trees.composites.Composite):
    """A composite whose :meth:`steer` generator ticks the children and returns its status."""


class SequenceWithMemory(_Control, py_trees.composites.Sequence):
    """Run the children in order; after a failure, resume at the child that failed.

    BT.CPP ``SequenceWithMemory``: the children that succeeded are not run again until the
    whole sequence has succeeded, even after a failure or a halt. SUCCESS: every child
    succeeded. FAILURE: a child failed (the next tick starts with it). RUNNING: a child is
    running.
    """

    def __init__(self, children: Sequence[Behaviour] = (), name: str = "SequenceWithMemory"):
        super().__init__(name=name, memory=True, children=list(children))
        self.index = 0

    def steer(self) -> Ticking:
        """Tick from the remembered child on."""
        while self.index < len(self.children):
            child = self.children[self.index]
            self.current_child = child
            status = yield from tick_child(child)
            if status != Status.SUCCESS:
                return status
            self.index += 1
        self.index = 0
        return Status.SUCCESS


_ALL = py_trees.common.ParallelPolicy.SuccessOnAll(synchronise=False)
"""py_trees' policy, unused: a BT.CPP parallel keeps its own counts (kept for display)."""


def _threshold(count: int, children: int) -> int:
    """BT.CPP's thresholds: a count, or counted from the end (-1: all children)."""
    return max(children + count + 1, 0) if count < 0 else count


class Parallel(_Control, py_trees.composites.Parallel):
    """Tick every child each tick until ``success_count`` succeed or ``failure_count`` fail.

    BT.CPP ``Parallel``: a negative count is counted from the number of children (-1: all).
    A child that finished is not ticked again until the parallel ends. SUCCESS: enough
    children succeeded (the running ones are halted). FAILURE: ``failure_count`` children
    failed, or too few can still succeed. RUNNING: neither yet.
    """

    def __init__(
        self,
        children: Sequence[Behaviour] = (),
        name: str = "Parallel",
        success_count: int = -1,
        failure_count: int = 1,
    ) -> None:
        super().__init__(name=name, policy=_ALL, children=list(children))
        self.success_count = success_count
        self.failure_count = failure_count
        for label, count in (("success_count", success_count), ("failure_count", failure_count)):
            if _threshold(count, len(self.children)) > len(self.children):
                raise ValueError(
                    f"{name}: {label}={count} is more than its {len(self.children)} children"
                )
        self.finished: dict[int, Status] = {}

    def initialise(self) -> None:
        """A new run: no child has finished."""
        self.finished = {}

    def steer(self) -> Ticking:
        """Tick the unfinished children, checking the thresholds after each."""
        count = len(self.children)
        need = _threshold(self.success_count, count)
        limit = _threshold(self.failure_count, count)
        skipped = 0
        for index, child in enumerate(self.children):
            if index not in self.finished:
                status = yield from tick_child(child)
                if was_skipped(child):
                    skipped += 1
                elif status != Status.RUNNING:
                    self.finished[index] = status
            wins = sum(1 for s in self.finished.values() if s == Status.SUCCESS)
            losses = len(self.finished) - wins
            if wins >= need or (self.success_count < 0 and wins + skipped >= need):
                return Status.SUCCESS
            if count - losses < need or losses == limit:
                return Status.FAILURE
        return Status.RUNNING


class ParallelAll(_Control, py_trees.composites.Parallel):
    """Tick every child until all have finished (BT.CPP ``ParallelAll``).

    SUCCESS: every child finished and fewer than ``max_failures`` failed. FAILURE: every
    child finished and at least ``max_failures`` failed (-1: all of them). RUNNING: a child is
    still running.
    """

    def __init__(
        self, children: Sequence[Behaviour] = (), name: str = "ParallelAll", max_failures: int = 1
    ) -> None:
        super().__init__(name=name, policy=_ALL, children=list(children))
        self.max_failures = max_failures
        if _threshold(max_failures, len(self.children)) > len(self.children):
            raise ValueError(
                f"{name}: max_failures={max_failures} is more than its "
                f"{len(self.children)} children: it could never fail"
            )
        self.finished: dict[int, Status] = {}

    def initialise(self) -> None:
        """A new run: no child has finished."""
        self.finished = {}

    def steer(self) -> Ticking:
        """Tick the unfinished children; decide when none is left."""
        skipped = 0
        for index, child in enumerate(self.children):
            if index in self.finished:
                continue
            status = yield from tick_child(child)
            if was_skipped(child):
                skipped += 1
            elif status != Status.RUNNING:
                self.finished[index] = status
        if skipped + len(self.finished) < len(self.children):
            return Status.RUNNING
        failures = sum(1 for s in self.finished.values() if s == Status.FAILURE)
        limit = _threshold(self.max_failures, len(self.children))
        return Status.FAILURE if failures >= limit else Status.SUCCESS


def _two_or_three(name: str, children: Sequence[Behaviour]) -> list[Behaviour]:
    if len(children) not in (2, 3):
        raise ValueError(
            f"{name} takes 2 or 3 children (condition, then, else), not {len(children)}"
        )
    return list(children)


class IfThenElse(_Control):
    """If the first child succeeds run the second, else the third (BT.CPP ``IfThenElse``).

    The condition is not ticked again while the chosen branch runs. SUCCESS or FAILURE:
    what the chosen branch ended with (FAILURE when the condition failed and there is no
    third child). RUNNING: the condition or the branch is running.
    """

    def __init__(self, children: Sequence[Behaviour], name: str = "IfThenElse") -> None:
        super().__init__(name=name, children=_two_or_three(name, children))
        self.branch = 0

    def initialise(self) -> None:
        """A new run starts with the condition."""
        self.branch = 0

    def steer(self) -> Ticking:
        """Tick the condition (once per run), then the branch it chose."""
        if self.branch == 0:
            condition = yield from tick_child(self.children[0])
            if condition == Status.RUNNING:
                return condition
            if condition == Status.FAILURE and len(self.children) == 2:
                return Status.FAILURE
            self.branch = 1 if condition == Status.SUCCESS else 2
        self.current_child = self.children[self.branch]
        status = yield from tick_child(self.current_child)
        return status


class WhileDoElse(_Control):
    """Tick the condition every tick; run the second child while it succeeds, else the third.

    BT.CPP ``WhileDoElse``: when the condition changes, the branch that was running is
    halted. SUCCESS or FAILURE: what the branch ended with (FAILURE when the condition fails
    and there is no third child). RUNNING: the condition or a branch is running.
    """

    def __init__(self, children: Sequence[Behaviour], name: str = "WhileDoElse") -> None:
        super().__init__(name=name, children=_two_or_three(name, children))

    def steer(self) -> Ticking:
        """Tick the condition, halt the other branch, tick the chosen one."""
        condition = yield from tick_child(self.children[0])
        if condition == Status.RUNNING:
            return condition
        if condition == Status.FAILURE and len(self.children) == 2:
            return Status.FAILURE
        chosen, other = (1, 2) if condition == Status.SUCCESS else (2, 1)
        halt(self.children[other : other + 1])
        self.current_child = self.children[chosen]
        status = yield from tick_child(self.current_child)
        return status


def _matches(value: object, case: str) -> bool:
    """BT.CPP's case test: the same text, the same enum, or the same number."""
    text = ("true" if value else "false") if isinstance(value, bool) else str(value)
    if text == case or SCRIPT_ENUMS.get(case) == value:
        return True
    try:
        return float(text) == float(case)
    except ValueError:
        return False


class _Switch(_Control):
    """Run the child of the first case equal to the entry ``variable``; the last is the default.

    Checked every tick: when the matching case changes, the child that was running is
    halted. SUCCESS or FAILURE: what the chosen child ended with. RUNNING: it is running.
    """

    def __init__(
        self, name: str, children: Sequence[Behaviour], variable: str, cases: Sequence[str]
    ) -> None:
        if len(children) != len(cases) + 1:
            raise ValueError(
                f"{name} takes {len(cases) + 1} children ({len(cases)} cases and the default), "
                f"not {len(children)}"
            )
        super().__init__(name=name, children=list(children))
        self.variable = variable
        self.cases = tuple(cases)
        self.reader = self.attach_blackboard_client(name=name)
        self.reader.register_key(variable, access=Access.READ)

    def steer(self) -> Ticking:
        """Pick the child of the matching case (the default when the entry is unset)."""
        chosen = len(self.cases)
        if self.reader.exists(self.variable):
            value = self.reader.get(self.variable)
            chosen = next((i for i, c in enumerate(self.cases) if _matches(value, c)), chosen)
        halt(child for i, child in enumerate(self.children) if i != chosen)
        self.current_child = self.children[chosen]
        status = yield from tick_child(self.current_child)
        return status


def _switch_class(cases: int) -> type[_Switch]:
    """BT.CPP's ``Switch<cases>``: ``variable``, ``case_1``..``case_<cases>``, and a default.

    The constructor's signature names each case, so the node registry (and Groot2's palette)
    sees BT.CPP's ports.
    """
    tag = f"Switch{cases}"
    case_names = [f"case_{number}" for number in range(1, cases + 1)]

    def __init__(
        self: _Switch,
        children: Sequence[Behaviour],
        variable: BlackboardEntry,
        name: str = tag,
        **values: str,
    ) -> None:
        if sorted(values) != sorted(case_names):
            raise TypeError(f"{tag} takes the cases {', '.join(case_names)}, got {sorted(values)}")
        _Switch.__init__(self, name, children, variable, [values[case] for case in case_names])

    keyword = inspect.Parameter.KEYWORD_ONLY
    positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
    __init__.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter("self", positional),
            inspect.Parameter("children", positional, annotation=Sequence[Behaviour]),
            inspect.Parameter("variable", positional, annotation=BlackboardEntry),
            *(inspect.Parameter(case, keyword, annotation=str) for case in case_names),
            inspect.Parameter("name", keyword, default=tag, annotation=str),
        ]
    )
    __init__.__annotations__ = {
        "children": Sequence[Behaviour],
        "variable": BlackboardEntry,
        **dict.fromkeys(case_names, str),
        "name": str,
        "return": None,
    }
    doc = (
        f"Run the child of the first of {cases} cases equal to ``variable`` (BT.CPP ``{tag}``).\n\n"
        "    The last child is the default. The entry is read every tick; when the matching\n"
        "    case changes, the child that was running is halted. SUCCESS or FAILURE: what the\n"
        "    chosen child ended with. RUNNING: it is running.\n    "
    )
    namespace = {"__init__": __init__, "__doc__": doc, "__module__": __name__, "__qualname__": tag}
    return type(tag, (_Switch,), namespace)


Switch2 = _switch_class(2)
Switch3 = _switch_class(3)
Switch4 = _switch_class(4)
Switch5 = _switch_class(5)
Switch6 = _switch_class(6)
