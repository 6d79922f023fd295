"""Read a YAML file that holds one mapping and check it against a pydantic model.

The files people write by hand (a domain pack's ``pack.yaml``, a domain profile) are read
the same way: libyaml's safe loader when PyYAML has it (the pure-Python one takes ~0.2 s a
pack), and every way the file can be wrong (missing, unreadable, not UTF-8, not YAML, not a
mapping, not what the model describes) is one error of the caller's type that names the file
and what to fix.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from cogtree.knowledge.validation_errors import first_problem

M = TypeVar("M", bound=BaseModel)

LOADER: Final = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader when PyYAML has it (about ten times faster), else the pure-Python one."""


def read_yaml(path: Path, error: type[Exception]) -> Any:
    """The document the YAML file ``path`` holds; ``error`` naming the file and the fix."""
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=LOADER)
    except FileNotFoundError:
        raise error(f"{path} not found") from None
    except OSError as problem:
        raise error(f"cannot read {path}: {problem.strerror}") from problem
    except UnicodeDecodeError as problem:
        raise error(f"{path} is not UTF-8 text: {problem.reason}; save it as UTF-8") from problem
    except yaml.YAMLError as problem:
        raise error(f"{path} is not valid YAML: {problem}") from problem


def read_yaml_mapping(path: Path, error: type[Exception], *, expected: str) -> dict[str, Any]:
    """The mapping the YAML file ``path`` holds; ``error`` naming the file and the fix.

    ``expected`` says what the mapping should hold ("a mapping of name, title, ..."), for
    a file that holds something else.
    """
    raw = read_yaml(path, error)
    if not isinstance(raw, dict):
        raise error(f"{path}: expected {expected}")
    return raw


def read_yaml_model(path: Path, model: type[M], error: type[Exception], *, expected: str) -> M:
    """The YAML file ``path`` as an instance of ``model``; ``error`` naming the first problem."""
    raw = read_yaml_mapping(path, error, expected=expected)
    try:
        return model.model_validate(raw)
    except ValidationError as problem:
        raise error(f"{path}: {first_problem(problem)}") from None
