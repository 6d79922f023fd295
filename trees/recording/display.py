"""Text views of a tree at a tick: the full py_trees status tree, or a compact one-liner."""

from __future__ import annotations

import py_trees
from py_trees.common import Status

from cogtree.trees.recording.tick_log import TickEntry


def render_tick(root: py_trees.behaviour.Behaviour, entry: TickEntry) -> str:
    """A tick banner and the tree with every node's status and feedback (py_trees display)."""
    banner = f"--- tick {entry.tick}: {entry.root_status} ({entry.duration_ms:.2f} ms) ---"
    tree = py_trees.display.unicode_tree(root, show_status=True)
    calls = "".join(
        f"\n  llm {call.module} [{call.backend}] {call.outcome} {call.latency_s:.3f}s "
        f"{call.prompt_tokens}+{call.completion_tokens} tokens"
        f"{' (estimated)' if call.tokens_estimated else ''}"
        for call in entry.llm_calls
    )
    return f"{banner}\n{tree}{calls}"


def render_dot(root: py_trees.behaviour.Behaviour) -> str:
    """The tree as Graphviz dot source (py_trees' own dot export)."""
    return str(py_trees.display.dot_tree(root).to_string())


def render_text(root: py_trees.behaviour.Behaviour) -> str:
    """The tree's structure as unicode text, without statuses."""
    return str(py_trees.display.unicode_tree(root))


def status_letter(status: Status | str) -> str:
    """One letter per status: S(uccess), F(ailure), R(unning), - (invalid)."""
    value = status.value if isinstance(status, Status) else status
    return {"SUCCESS": "S", "FAILURE": "F", "RUNNING": "R"}.get(value, "-")
