"""cogtree: a behaviour-tree controller for assistive robots.

The importable name of the project's six top-level folders. ``cogtree.trees`` is ``trees/``
(tree factories, runner, command line), ``cogtree.behaviours`` is ``behaviours/`` (the py_trees
nodes: gates and actions), ``cogtree.skills`` is ``skills/`` (planning, execution, the action
model), ``cogtree.knowledge`` is ``knowledge/`` (scene graph, language, memory, packs, safety,
the LLM client), ``cogtree.sim`` is ``sim/`` (the symbolic simulator) and
``cogtree.evaluation`` is ``evaluation/`` (benchmarks and evaluation sets, which the robot
never imports). setup.py installs each folder under this name; the links in this folder give
tools that read the source tree (mypy, import-linter) the same layout.
"""

__version__ = "0.1.0"


def require_namespace(module_name: str, folder: str) -> None:
    """Refuse a folder imported under its bare name (``trees``) instead of ``cogtree.trees``.

    From a checkout whose root is on ``sys.path`` (``python -m pytest``, a script run from the
    root) ``import trees`` would load a second copy of every module, with classes that are not
    the installed ones; the ModuleNotFoundError says which name to write.
    """
    if module_name != f"cogtree.{folder}":
        raise ModuleNotFoundError(
            f"{module_name} is imported as cogtree.{folder}: write 'import cogtree.{folder}' "
            f"(the project's folders install under the cogtree namespace; pip install -e .)",
            name=module_name,
        )
