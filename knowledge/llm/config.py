"""The LLM manifest: backend, model, temperature, max tokens and timeout per module.

The packaged ``modules.yaml`` is the base layer; user files given with ``--config`` are
merged on top, key by key. Errors name the file and the offending field. Where the Ollama
server is (:func:`resolve_host`) is settled here too, so that finding it imports no HTTP client.
"""

from __future__ import annotations

import ipaddress
import os
import urllib.parse
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

from cogtree.knowledge.llm.errors import LLMConfigError, first_problem
from cogtree.knowledge.llm.types import BACKEND_NAMES, ModuleSettings
from cogtree.knowledge.yaml_files import LOADER

DEFAULT_MANIFEST = Path(__file__).with_name("modules.yaml")

JUDGE_MODULE = "plan_validation"
"""The ValidationGate's LLM judge: the one module that may be switched off (``enabled``)."""

SWITCHABLE_MODULES = (JUDGE_MODULE,)
"""Modules whose node works without them: ``enabled: false`` leaves them out."""

DEFAULT_HOST = "http://127.0.0.1:11434"
"""Where Ollama listens when neither the settings nor ``$OLLAMA_HOST`` say otherwise."""

DEFAULT_PORT = 11434
PROBE_TIMEOUT_S = 2.0
"""Upper bound on the ``/api/tags`` request of :meth:`OllamaBackend.probe`."""


class LLMConfig(BaseModel):
    """Validated manifest. ``settings_for(module)`` is the only way modules read it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    defaults: ModuleSettings = ModuleSettings()
    modules: dict[str, dict[str, Any]] = {}

    @classmethod
    def load(cls, *paths: str | Path) -> LLMConfig:
        """Load the packaged manifest, then each of ``paths`` merged on top, in order."""
        merged: dict[str, Any] = {}
        sources: list[Path] = [DEFAULT_MANIFEST, *(Path(p) for p in paths)]
        for source in sources:
            merged = _deep_merge(merged, _read_yaml(source))
            _validate(merged, source)
        return _validate(merged, sources[-1])

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], origin: str = "<mapping>") -> LLMConfig:
        """Build a config from a mapping merged on top of the packaged manifest."""
        merged = _deep_merge(_read_yaml(DEFAULT_MANIFEST), dict(data))
        return _validate(merged, Path(origin))

    @property
    def module_names(self) -> list[str]:
        """Every module the manifest knows, sorted."""
        return sorted(self.modules)

    def settings_for(self, module: str) -> ModuleSettings:
        """The effective settings of ``module``; unknown names list the valid ones."""
        if module not in self.modules:
            raise LLMConfigError(
                f"unknown LLM module {module!r}; valid modules: {', '.join(self.module_names)}. "
                "Add it under `modules:` in a --config file to define a new one."
            )
        return ModuleSettings(**{**self.defaults.model_dump(), **self.modules[module]})

    def with_backend(self, backend: str) -> LLMConfig:
        """A copy in which every module uses ``backend`` (what ``--llm`` does)."""
        check_backend_name(backend)
        return self._everywhere(backend=backend)

    def with_model(self, model: str) -> LLMConfig:
        """A copy in which every module uses the model tag ``model`` (``cogtree ros --model``)."""
        return self._everywhere(model=model)

    def _everywhere(self, **setting: Any) -> LLMConfig:
        """A copy with ``setting`` in the defaults and in every module's overrides."""
        modules = {name: {**over, **setting} for name, over in self.modules.items()}
        return LLMConfig(defaults=self.defaults.model_copy(update=setting), modules=modules)

    def with_judge(self, on: bool) -> LLMConfig:
        """A copy with the plan judge switched on or off (what ``--judge/--no-judge`` do)."""
        return self.with_module(JUDGE_MODULE, enabled=on)

    def with_module(self, module: str, **overrides: Any) -> LLMConfig:
        """A copy with ``module`` defined or overridden (used by trees that add modules)."""
        modules = dict(self.modules)
        modules[module] = {**modules.get(module, {}), **overrides}
        return _validate({"defaults": self.defaults.model_dump(), "modules": modules}, Path(module))


def check_backend_name(backend: str) -> str:
    """Return ``backend`` if it is a known backend name, else raise listing the valid ones."""
    if backend not in BACKEND_NAMES:
        raise LLMConfigError(
            f"unknown LLM backend {backend!r}; valid backends: {', '.join(BACKEND_NAMES)}"
        )
    return backend


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise LLMConfigError(f"cannot read LLM config {path}: {error.strerror}") from error
    try:
        data = yaml.load(text, Loader=LOADER)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        raise LLMConfigError(f"{path}{where}: not valid YAML ({error})") from error
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise LLMConfigError(f"{path}: expected a mapping with `defaults` and `modules`")
    return data


def _deep_merge(base: dict[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in top.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), dict):
            merged[key] = _deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _validate(data: dict[str, Any], source: Path) -> LLMConfig:
    unknown = set(data) - {"defaults", "modules"}
    if unknown:
        raise LLMConfigError(
            f"{source}: unknown field(s) {', '.join(sorted(unknown))}; "
            "expected `defaults` and `modules`"
        )
    modules = data.get("modules") or {}
    if not isinstance(modules, dict):
        raise LLMConfigError(f"{source}: field `modules` must be a mapping of module names")
    defaults = _settings(data.get("defaults") or {}, source, "defaults")
    for name, overrides in modules.items():
        if not isinstance(overrides, dict):
            raise LLMConfigError(f"{source}: field `modules.{name}` must be a mapping")
        settings = _settings({**defaults.model_dump(), **overrides}, source, f"modules.{name}")
        if not settings.enabled and name not in SWITCHABLE_MODULES:
            raise LLMConfigError(
                f"{source}: field `modules.{name}.enabled`: only {', '.join(SWITCHABLE_MODULES)} "
                f"can be switched off; {name}'s node needs an answer (set its backend to none "
                "to run it on its fast path and safe decision)"
            )
    return LLMConfig(defaults=defaults, modules={name: dict(o) for name, o in modules.items()})


def _settings(values: dict[str, Any], source: Path, where: str) -> ModuleSettings:
    try:
        settings = ModuleSettings(**values)
    except ValidationError as error:
        raise LLMConfigError(f"{source}: {first_problem(error, under=where)}") from error
    try:
        check_backend_name(settings.backend)
    except LLMConfigError as error:
        raise LLMConfigError(f"{source}: field `{where}.backend`: {error}") from error
    return settings


_SCHEME_PORTS = {"http": 80, "https": 443}
# Bind-all addresses (``OLLAMA_HOST=0.0.0.0`` for ``ollama serve``) are not places to connect to.
_UNSPECIFIED = {"0.0.0.0": "127.0.0.1", "::": "::1"}


def resolve_host(settings: ModuleSettings) -> str:
    """The Ollama base URL for ``settings``, normalised to ``scheme://host:port[/path]``.

    ``settings.ollama_host`` wins, then ``$OLLAMA_HOST``, then ``http://127.0.0.1:11434``.
    Accepts the forms the ``ollama`` CLI accepts: ``host``, ``host:port``, ``:port``,
    ``0.0.0.0:11434``, ``[::1]:11434`` and full URLs. A missing scheme means ``http``; a
    missing port means 11434 (80 / 443 when the scheme is given explicitly); the bind-all
    addresses ``0.0.0.0`` and ``::`` become the loopback address.

    Raises:
        LLMConfigError: the value cannot be parsed (e.g. a non-numeric port).

    """
    configured = settings.ollama_host
    source = "ollama_host"
    if not configured or not configured.strip():
        configured = os.environ.get("OLLAMA_HOST", "")
        source = "$OLLAMA_HOST"
    configured = configured.strip()
    if not configured:
        return DEFAULT_HOST
    return _normalise_host(configured, source)


def _normalise_host(value: str, source: str) -> str:
    scheme, separator, rest = value.partition("://")
    if separator:
        scheme = scheme.lower()
        default_port = _SCHEME_PORTS.get(scheme, DEFAULT_PORT)
    else:
        scheme, rest, default_port = "http", value, DEFAULT_PORT
    if scheme not in _SCHEME_PORTS:
        raise LLMConfigError(
            f"{source}={value!r}: unsupported scheme {scheme!r}; use http:// or https://"
        )
    split = urllib.parse.urlsplit(f"{scheme}://{rest}")
    try:
        port = split.port or default_port
    except ValueError as error:
        raise LLMConfigError(
            f"{source}={value!r}: invalid port; expected e.g. 127.0.0.1:11434"
        ) from error
    hostname = split.hostname or "127.0.0.1"
    hostname = _UNSPECIFIED.get(hostname, hostname)
    try:
        if isinstance(ipaddress.ip_address(hostname), ipaddress.IPv6Address):
            hostname = f"[{hostname}]"
    except ValueError:
        pass  # a name, not an address
    path = split.path.strip("/")
    return f"{scheme}://{hostname}:{port}" + (f"/{path}" if path else "")
