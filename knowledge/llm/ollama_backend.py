"""The Ollama backend: schema-constrained chat through the official ``ollama`` client.

Every call sends the pydantic JSON schema as ``format`` so the server constrains decoding,
and maps what ``ollama`` 0.6 raises onto :mod:`knowledge.llm.errors` with messages that say
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
:class:`~knowledge.llm.deadline_transport.DeadlineNetwork`: a call ends at ``timeout_s`` in
all (a server that drips bytes included), or soon after its cancel event is set, and its
worker thread is free again.

:meth:`OllamaBackend.score_letters` asks ``/api/chat`` for one token with ``logprobs`` and
``top_logprobs``: ollama-python has taken them since 0.6.1 (its pull request #601), and
Ollama's API has returned them since 0.12.11 (that release's notes). An older server ignores
the request fields and answers without ``logprobs``; that is reported with the server's
version (``/api/version``) and the upgrade that fixes it.

:meth:`OllamaBackend.probe` asks ``/api/tags`` with httpx itself, and ``ollama`` is imported
only when a client is made: importing it (its pydantic models) costs a quarter of a second of
CPU, which every command would pay at start to learn that no server runs.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import json
import logging
import threading
import time
from collections.abc import Iterator, Sequence
from importlib import metadata
from typing import TYPE_CHECKING, Any

import httpx
from packaging.version import InvalidVersion, Version

from cogtree.knowledge.llm.backend import BackendStatus
from cogtree.knowledge.llm.config import PROBE_TIMEOUT_S, resolve_host
from cogtree.knowledge.llm.deadline_transport import DeadlineNetwork, deadline_transport
from cogtree.knowledge.llm.errors import (
    LLMCancelledError,
    LLMConfigError,
    LLMError,
    LLMTimeoutError,
    LLMUnavailableError,
    ModelMissingError,
)
from cogtree.knowledge.llm.option_scores import (
    LetterScores,
    LogprobsUnavailableError,
    OptionPrompt,
    combine_spellings,
)
from cogtree.knowledge.llm.types import Completion, LLMRequest, ModuleSettings

if TYPE_CHECKING:
    import ollama
    from ollama._types import Logprob

log = logging.getLogger(__name__)

OLLAMA_LOGPROBS_SINCE = Version("0.12.11")
"""The first Ollama release whose API returns ``logprobs`` (its release notes say so)."""

OLLAMA_PYTHON_LOGPROBS_SINCE = "0.6.1"
"""The first ollama-python release whose ``chat`` takes ``logprobs`` and ``top_logprobs``."""

TOP_LOGPROBS = 20
"""Alternatives asked for at the one generated position (the most Ollama accepts)."""

_LISTED_MODELS = 5


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
        host = _host_for_call(settings)
        if cancel.is_set():
            raise LLMCancelledError("cancelled before the request was sent to Ollama")
        messages = [{"role": m.role, "content": m.content} for m in request.messages]
        client = self._client(host, settings.timeout_s)
        with self._calling(host, settings, cancel, f"for module {request.module!r}"):
            response = client.chat(
                model=settings.model,
                messages=messages,
                format=request.schema.model_json_schema(),
                options=_options(settings, settings.temperature, settings.max_tokens),
                keep_alive=settings.keep_alive,
                stream=False,
            )
        return Completion(
            text=response.message.content or "",
            model=response.model or settings.model,
            prompt_tokens=response.prompt_eval_count or 0,
            completion_tokens=response.eval_count or 0,
            tokens_estimated=False,
        )

    def score_letters(
        self, prompt: OptionPrompt, settings: ModuleSettings, cancel: threading.Event
    ) -> LetterScores:
        """Read each letter's log-probability as the first token of the model's reply.

        One ``/api/chat`` call generates one token (temperature 0) and returns the
        :data:`TOP_LOGPROBS` most likely first tokens; a letter's spellings ``A`` and `` A``
        are combined, and a letter not among them is absent. Errors as :meth:`complete`, and:

        Raises:
            LogprobsUnavailableError: the installed ollama-python is older than 0.6.1, or the
                server answered without ``logprobs`` (older than 0.12.11); the message names
                the version and the upgrade.

        """
        _require_logprobs_client()
        host = _host_for_call(settings)
        if cancel.is_set():
            raise LLMCancelledError("cancelled before the request was sent to Ollama")
        started = time.monotonic()
        messages = [{"role": m.role, "content": m.content} for m in prompt.messages]
        client = self._client(host, settings.timeout_s)
        with self._calling(host, settings, cancel, "for the module that scores options"):
            response = client.chat(
                model=settings.model,
                messages=messages,
                logprobs=True,
                top_logprobs=TOP_LOGPROBS,
                options=_options(settings, 0.0, 1),
                keep_alive=settings.keep_alive,
                stream=False,
            )
        if response.logprobs is None:
            left_s = started + settings.timeout_s - time.monotonic()
            version = self._server_version(host, min(PROBE_TIMEOUT_S, left_s), cancel)
            raise LogprobsUnavailableError(
                f"the Ollama server at {host} (version {version or 'unknown'}) answered "
                "without log-probabilities; "
                f"upgrade Ollama to {OLLAMA_LOGPROBS_SINCE} or later (https://ollama.com/download)"
            )
        return LetterScores(
            logprobs=_first_token_letters(response.logprobs, prompt.letters),
            model=response.model or settings.model,
            prompt_tokens=response.prompt_eval_count or 0,
            tokens_estimated=False,
        )

    def logprobs_status(self, settings: ModuleSettings) -> BackendStatus:
        """Whether :meth:`score_letters` can work here, from versions alone (no model call).

        Ready when the installed ollama-python takes ``logprobs`` and the server's
        ``/api/version`` is at least :data:`OLLAMA_LOGPROBS_SINCE`. Never raises.
        """
        try:
            _require_logprobs_client()
        except LogprobsUnavailableError as error:
            return BackendStatus(self.name, False, str(error), fix="pip install -U ollama")
        try:
            host = resolve_host(settings)
        except LLMConfigError as error:
            return BackendStatus(self.name, False, str(error), fix="set OLLAMA_HOST to host:port")
        limit_s = min(PROBE_TIMEOUT_S, settings.timeout_s)
        version = self._server_version(host, limit_s, threading.Event())
        upgrade = f"upgrade Ollama to {OLLAMA_LOGPROBS_SINCE} or later"
        if version is None:
            return BackendStatus(self.name, False, f"cannot read /api/version of {host}", upgrade)
        try:
            recent = Version(version) >= OLLAMA_LOGPROBS_SINCE
        except InvalidVersion:
            return BackendStatus(
                self.name, False, f"cannot compare Ollama version {version!r} at {host}", upgrade
            )
        if recent:
            return BackendStatus(self.name, True, f"Ollama {version} at {host} returns them")
        return BackendStatus(self.name, False, f"Ollama {version} at {host} is too old", upgrade)

    @contextlib.contextmanager
    def _calling(
        self, host: str, settings: ModuleSettings, cancel: threading.Event, caller: str
    ) -> Iterator[None]:
        """Run one ``ollama`` call within ``timeout_s`` in all and map its errors.

        Raises:
            LLMUnavailableError: the server refused or dropped the connection.
            ModelMissingError: the server answered 404 naming ``settings.model``.
            LLMTimeoutError: no whole answer within ``settings.timeout_s`` (the message
                names ``caller``, whose ``timeout_s`` to raise).
            LLMCancelledError: ``cancel`` was set while the call was under way.
            LLMError: any other error status or an unreadable response.

        """
        import ollama  # imported by prepare() or _client() already: this binds the name

        try:
            with self._network.call(settings.timeout_s, cancel):
                yield
        except ollama.ResponseError as error:
            raise _response_error(error, settings.model, host) from error
        except httpx.ConnectTimeout as error:
            if cancel.is_set():  # cancelled while still connecting (a busy machine): not down
                raise LLMCancelledError("cancelled while connecting to Ollama") from error
            # The call's whole budget went before a connection was made: on a busy machine
            # that is a slow start, not a server known to be down (a refused connection is).
            raise LLMTimeoutError(
                f"no connection to Ollama at {host} within {settings.timeout_s}s (is it "
                f"running? `ollama serve`); raise `timeout_s` {caller} if the machine is busy"
            ) from error
        except httpx.TimeoutException as error:
            if cancel.is_set():
                raise LLMCancelledError("cancelled while waiting for Ollama") from error
            raise LLMTimeoutError(
                f"Ollama did not answer within {settings.timeout_s}s (model {settings.model!r} "
                f"at {host}); raise `timeout_s` {caller} in a --config file, or use a smaller "
                "model"
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
            response = self._get(host, "/api/tags", min(PROBE_TIMEOUT_S, settings.timeout_s))
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

    def _get(
        self, host: str, path: str, limit_s: float, cancel: threading.Event | None = None
    ) -> httpx.Response:
        """The answer to ``GET path`` within ``limit_s`` in all (raises httpx's errors)."""
        with (
            httpx.Client(transport=deadline_transport(self._network), timeout=limit_s) as client,
            self._network.call(limit_s, cancel or threading.Event()),
        ):
            return client.get(f"{host}{path}")

    def _server_version(self, host: str, limit_s: float, cancel: threading.Event) -> str | None:
        """The server's version from ``/api/version`` within ``limit_s``; None if unknown."""
        if limit_s <= 0:
            return None
        try:
            response = self._get(host, "/api/version", limit_s, cancel)
            response.raise_for_status()
            return str(response.json()["version"])
        except Exception:  # a version only details a message or a status: never raise for it
            log.debug("cannot read the version of Ollama at %s", host, exc_info=True)
            return None


def _host_for_call(settings: ModuleSettings) -> str:
    try:
        return resolve_host(settings)
    except LLMConfigError as error:
        raise LLMUnavailableError(f"cannot locate Ollama: {error}") from error


def _options(settings: ModuleSettings, temperature: float, num_predict: int) -> dict[str, Any]:
    """The ``options`` of one ``/api/chat`` call."""
    options: dict[str, Any] = {
        "temperature": temperature,
        "num_ctx": settings.num_ctx,
        "num_predict": num_predict,
    }
    if settings.seed is not None:
        options["seed"] = settings.seed
    return options


@functools.cache
def _require_logprobs_client() -> None:
    """Raise :class:`LogprobsUnavailableError` when ollama-python cannot ask for logprobs."""
    import ollama

    if "logprobs" not in inspect.signature(ollama.Client.chat).parameters:
        raise LogprobsUnavailableError(
            f"the installed ollama-python {metadata.version('ollama')} cannot ask for "
            f"log-probabilities (they came in {OLLAMA_PYTHON_LOGPROBS_SINCE}); run: "
            "pip install -U ollama"
        )


def _first_token_letters(positions: Sequence[Logprob], letters: Sequence[str]) -> dict[str, float]:
    """The letters' log-probabilities among the first generated token's candidates.

    Ollama shows only the top candidates: a letter not among them gets the smallest
    log-probability shown, an upper bound of its own. Renormalised over the letters, a lone
    letter seen among many other tokens is then not made certain (the gate asks more, never
    less).
    """
    if not positions:
        return {}
    first = positions[0]
    candidates = [(first.token, first.logprob)]
    candidates += [(other.token, other.logprob) for other in first.top_logprobs or ()]
    seen = combine_spellings(candidates, letters)
    if not seen:
        return {}
    floor = min(logprob for _, logprob in candidates)
    return {letter: seen.get(letter, floor) for letter in letters}


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
