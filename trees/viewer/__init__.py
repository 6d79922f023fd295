"""The tree viewer: a local web page that draws the tree tick by tick with py_trees_js.

``TickFeed`` holds the ticks (live from a runner, from a ROS 2 topic, or from a tick log),
``build_snapshot`` (:mod:`trees.recording.snapshot`) turns one tick into the JSON py_trees_js
draws plus each node's details,
and ``ViewerServer`` serves the page and the JSON API on localhost.
:class:`~trees.viewer.tick_watch.TickWatch` feeds it from a running tree.
"""

DEFAULT_KEEP = 2000
"""Ticks a live feed keeps by default (at 100 Hz, the last 20 seconds). Here rather than in
:mod:`trees.viewer.feed` so that the watch options name it without importing the viewer."""
