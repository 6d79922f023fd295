"""``ViewerError``: the viewer could not start or was given something it cannot show."""

from __future__ import annotations


class ViewerError(Exception):
    """A viewer problem the user can fix; the message names the problem and the fix."""
