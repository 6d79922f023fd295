"""Why a ROS test module is skipped when rclpy is absent: the extra to install."""

from __future__ import annotations

ROS_EXTRA = (
    "rclpy is not installed: the ros extra (pip install -e '.[ros]', then "
    "pip install --no-build-isolation ./interfaces)"
)
"""The reason each ROS test module's ``pytest.importorskip("rclpy", ...)`` gives."""
