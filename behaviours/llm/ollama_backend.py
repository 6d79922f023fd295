"""The Ollama backend: schema-constrained chat through the official ``ollama`` client.

Every call sends the pydantic JSON schema as ``format`` so the server constrains decoding,
and maps what ``ollama`` 0.6 raises onto :mod:`behaviours.llm.errors` with messages that say
what to run (``ollama serve``, ``ollama pull MODEL``).

How ``ollama`` 0.6 reports failures (read from its ``_client.py``):

* server down: ``httpx.ConnectError`` is caught and re-raised as the builtin
  ``ConnectionError`` (``from None``, so the cause is lost);
* HTTP status >= 400: ``ollama.ResponseError`` with ``status_code`` and the server's
  ``{"error": ...}`` text as ``.error`` (the raw body when it is not JSON); a missing model
  is a 404 whose error names the model;
* timeouts and other transport failures are not wrapped: ``httpx.TimeoutException``
  (``ConnectTimeout``, ``ReadTimeout``, ...) and other ``httpx.TransportError`` escape as is.

httpx bounds each read, not a call, so the clients here run on a
:class:`~behaviours.llm.deadline_transport.DeadlineNetwork`: a call ends at ``timeout_s`` in
all (a server that drips bytes included), or soon after its cancel event is set, and its
worker thread is free again.

:meth:`OllamaBackend.probe` asks ``/api/tags`` with httpx itself, and ``ollama`` is imported
only when a client is made: importing it (its pydantic models) costs a quarter of a second of
CPU, which every command would pay at start to learn that no server runs.
"""

from __future__ import annotations

import importlib
import ipaddress
import json
import logging
import os
import threading
import urllib.parse
from typing import TYPE_CHECKING, Any

import httpx

from behaviours.llm.backend import BackendStatus
from behaviours.llm.deadline_transport import DeadlineNetwork, deadline_transport
from behaviours.llm.errors import (
    LLMCancelledError,
    LLMConfigError,
    LLMError,
    LLMTimeoutError,
    LLMUnavailableError,
    ModelMissingError,
)
from behaviours.llm.types import Completion, LLMRequest, ModuleSettings

if TYPE_CHECKING:
    import ollama

log = logging.getLogger(__name__)

DEFAULT_HOST = "http://127.0.0.1:11434"
"""Where Ollama listens when neither the settings nor ``$OLLAMA_HOST`` say otherwise."""

DEFAULT_PORT = 11434
PROBE_TIMEOUT_S = 2.0
"""Upper bound on the ``/api/tags`` request of :meth:`OllamaBackend.probe`."""

_LISTED_MODELS = 5
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


def _model_matches(wanted: str, available: str) -> bool:
    """``qwen2.5:3b`` matches itself; a name without a tag matches ``name:latest``.

    Case is ignored, as Ollama ignores it in model names.
    """
    wanted, available = wanted.casefold(), available.casefold()
    if wanted == available:
        return True
    if ":" not in wanted.rsplit("/", 1)[-1]:
        return available == f"{wanted}:latest"
    return False


def _unreachable(host: str) -> str:
    return (
        f"Ollama is not reachable at {host}: start it with `ollama serve` "
        "(or set OLLAMA_HOST to where it runs)"
    )


class OllamaBackend:
    """Backend that calls a local (or remote) Ollama server through ``ollama.Client``.

    One ``ollama.Client`` is kept per (host, timeout) so connections are reused across
    calls; the cache is per instance and guarded by a lock (calls run on worker threads).
    Every call has a total deadline of its module's ``timeout_s`` (see the module).
    """

    name = "ollama"

    def __init__(self) -> None:
        self._clients: dict[tuple[str, float], ollama.Client] = {}
        self._lock = threading.Lock()
        self._network = DeadlineNetwork()

    def _client(self, host: str, timeout_s: float) -> ollama.Client:
        import ollama

        key = (host, timeout_s)
        with self._lock:
            client = self._clients.get(key)
            if client is None:
                log.debug("creating Ollama client for %s (timeout %ss)", host, timeout_s)
                client = ollama.Client(
                    host=host, timeout=timeout_s, transport=deadline_transport(self._network)
                )
                self._clients[key] = client
            return client

    def close(self) -> None:
        """Close every cached client's connections; later calls create new clients."""
        with self._lock:
            clients = list(self._clients.values())
            self._clients.clear()
        for client in clients:
            client.close()  # type: ignore[no-untyped-call]

    def prepare(self, settings: ModuleSettings) -> None:
        """Import the ``ollama`` library now, so that no call pays for it.

        The server loads the model (``keep_alive`` keeps it); a probe needs no library.
        """
        importlib.import_module("ollama")

    def model_name(self, settings: ModuleSettings) -> str:
        """The Ollama model tag of these settings."""
        return settings.model

    def complete(self, request: LLMRequest, cancel: threading.Event) -> Completion:
        """Run one non-streaming ``/api/chat`` call constrained to ``request.schema``.

        Raises:
            LLMCancelledError: ``cancel`` was already set before the request was sent.
            LLMUnavailableError: the server cannot be reached (or the host is misconfigured).
            ModelMissingError: the server answered 404 naming ``settings.model``.
            LLMTimeoutError: no whole answer within ``settings.timeout_s``.
            LLMCancelledError: ``cancel`` was set while the call was under way.
            LLMError: any other error status or an unreadable response.

        """
        settings = request.settings
        try:
            host = resolve_host(settings)
        except LLMConfigError as error:
            raise LLMUnavailableError(f"cannot locate Ollama: {error}") from error
        if cancel.is_set():
            raise LLMCancelledError("cancelled before the request was sent to Ollama")
        options: dict[str, Any] = {
            "temperature": settings.temperature,
            "num_ctx": settings.num_ctx,
            "num_predict": settings.max_tokens,
        }
        if settings.seed is not None:
            options["seed"] = settings.seed
        messages = [{"role": m.role, "content": m.content} for m in request.messages]
        client = self._client(host, settings.timeout_s)
        import ollama  # imported by prepare() or _client() already: this binds the name

        try:
            with self._network.call(settings.timeout_s, cancel):
                response = client.chat(
                    model=settings.model,
                    messages=messages,
                    format=request.schema.model_json_schema(),
                    options=options,
                    keep_alive=settings.keep_alive,
                    stream=False,
                )
        except ollama.ResponseError as error:
            raise _response_error(error, settings.model, host) from error
        except httpx.ConnectTimeout as error:
            if cancel.is_set():  # cancelled while still connecting (a busy machine): not down
                raise LLMCancelledError("cancelled while connecting to Ollama") from error
            raise LLMUnavailableError(
                f"{_unreachable(host)} (connecting timed out after {settings.timeout_s}s)"
            ) from error
        except httpx.TimeoutException as error:
            if cancel.is_set():
                raise LLMCancelledError("cancelled while waiting for Ollama") from error
            raise LLMTimeoutError(
                f"Ollama did not answer within {settings.timeout_s}s (model {settings.model!r} "
                f"at {host}); raise `timeout_s` for module {request.module!r} in a --config "
                "file, or use a smaller model"
            ) from error
        except (ConnectionError, httpx.ConnectError) as error:
            raise LLMUnavailableError(_unreachable(host)) from error
        except httpx.TransportError as error:
            raise LLMUnavailableError(
                f"{_unreachable(host)} ({type(error).__name__}: {error})"
            ) from error
        except ValueError as error:  # JSON or schema errors while reading the response body
            raise LLMError(
                f"Ollama at {host} sent a response that is not a chat reply: {error}"
            ) from error
        return Completion(
            text=response.message.content or "",
            model=response.model or settings.model,
            prompt_tokens=response.prompt_eval_count or 0,
            completion_tokens=response.eval_count or 0,
            tokens_estimated=False,
        )

    def probe(self, settings: ModuleSettings) -> BackendStatus:
        """Ask ``/api/tags`` (within ``min(2s, timeout_s)``) whether the model is there.

        Never raises: every failure becomes a not-ready status with a ``fix``.
        """
        try:
            host = resolve_host(settings)
        except LLMConfigError as error:
            return BackendStatus(
                self.name, False, str(error), fix="set OLLAMA_HOST (or ollama_host) to host:port"
            )
        serve_fix = "run `ollama serve` (or set OLLAMA_HOST to where it runs)"
        try:
            response = self._tags(host, min(PROBE_TIMEOUT_S, settings.timeout_s))
            if response.status_code >= 400:
                return BackendStatus(
                    self.name,
                    False,
                    f"{host} answered /api/tags with {response.status_code}: "
                    f"{_error_text(response.text)}",
                    fix=f"check that OLLAMA_HOST ({host}) points at an Ollama server",
                )
            names = [str(e["model"]) for e in response.json()["models"] if e.get("model")]
        except httpx.TransportError:
            return BackendStatus(self.name, False, f"not reachable at {host}", fix=serve_fix)
        except Exception as error:  # a probe must never raise
            log.debug("Ollama probe of %s failed", host, exc_info=True)
            return BackendStatus(
                self.name,
                False,
                f"probe of {host} failed: {type(error).__name__}: {error}",
                fix=serve_fix,
            )
        if any(_model_matches(settings.model, name) for name in names):
            return BackendStatus(self.name, True, f"{settings.model} on {host}")
        if names:
            shown = ", ".join(names[:_LISTED_MODELS])
            more = len(names) - _LISTED_MODELS
            has = f"it has {shown}" + (f" (+{more} more)" if more > 0 else "")
        else:
            has = "it has no models"
        return BackendStatus(
            self.name,
            False,
            f"model {settings.model} is not on {host}; {has}",
            fix=f"run `ollama pull {settings.model}`",
        )

    def _tags(self, host: str, limit_s: float) -> httpx.Response:
        """The answer to ``GET /api/tags`` within ``limit_s`` in all (raises httpx's errors)."""
        with (
            httpx.Client(transport=deadline_transport(self._network), timeout=limit_s) as client,
            self._network.call(limit_s, threading.Event()),
        ):
            return client.get(f"{host}/api/tags")


def _error_text(body: str) -> str:
    """The ``error`` of a JSON error body, else the body (as ``ollama.ResponseError`` reads it)."""
    try:
        parsed = json.loads(body)
    except json.JSONDecodeError:
        return body
    return str(parsed.get("error", body)) if isinstance(parsed, dict) else body


def _response_error(error: ollama.ResponseError, model: str, host: str) -> LLMError:
    """The error for an HTTP error status from ``/api/chat``.

    Ollama's 404 for a missing model says ``model '...' not found``; a 404 that does not
    mention a model comes from something that is not Ollama's API (a wrong OLLAMA_HOST).
    """
    text = str(error.error).strip()
    if error.status_code == 404:
        if "model" in text.lower():
            return ModelMissingError(
                f"model {model!r} is not on the Ollama server at {host}: run `ollama pull {model}`"
            )
        return LLMUnavailableError(
            f"{host} answered 404 for /api/chat ({text or 'no body'}), so it is not an Ollama "
            "server: set OLLAMA_HOST (or ollama_host) to where `ollama serve` runs"
        )
    return LLMError(f"Ollama at {host} answered {error.status_code}: {text or 'no body'}")
