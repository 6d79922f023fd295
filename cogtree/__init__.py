"""cogtree: a behaviour-tree controller for assistive robots.

The importable name of the project's five top-level folders. ``cogtree.trees`` is
``trees/`` (tree factories, runner, command line), ``cogtree.behaviours`` is ``behaviours/``
(the py_trees nodes), ``cogtree.skills`` is ``skills/`` (skills, HTN planning, execution),
``cogtree.knowledge`` is ``knowledge/`` (scene graph, language, memory, packs, safety) and
``cogtree.sim`` is ``sim/`` (the symbolic simulator). setup.py installs each folder under
this name; the links in this folder give tools that read the source tree (mypy,
import-linter) the same layout.
"""

__version__ = "0.1.0"
