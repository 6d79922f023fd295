"""``cogtree view``: exactly one source (LOG or --ros), and a domain id in range.

``view --ros`` without ROS 2 installed: tests/trees/test_ros_command.py, with ``cogtree ros``.
"""

from __future__ import annotations

import pytest

from cogtree.trees.cli.main import main


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["view"], "nothing to show: give a tick log (cogtree view run.jsonl) or --ros [TOPIC]"),
        (
            ["view", "run.jsonl", "--ros"],
            "give either the tick log 'run.jsonl' or --ros /cogtree/tree/snapshot, not both",
        ),
        (
            ["view", "--ros", "/r1/tree/snapshot", "run.jsonl"],
            "give either the tick log 'run.jsonl' or --ros /r1/tree/snapshot, not both",
        ),
        (["view", "run.jsonl", "--domain-id", "3"], "--domain-id and --ros-args only apply"),
        (["view", "run.jsonl", "--ros-args", "-r", "a:=b"], "--domain-id and --ros-args only"),
    ],
)
def test_view_needs_exactly_one_source(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert f"cogtree: error: {expected}" in capsys.readouterr().err


def test_a_domain_id_out_of_range_is_refused_by_the_parser(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["view", "--ros", "--domain-id", "300"])
    assert raised.value.code == 2
    assert "give a domain id in 0..232, not 300" in capsys.readouterr().err
