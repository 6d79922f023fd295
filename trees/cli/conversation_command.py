"""``cogtree chat`` and ``cogtree ask``: talk to the assistant turn tree in the simulator's world.

Both build the same session: the domain packs (shipped plus ``--packs``), the memory and
the failure experience in SQLite files kept across runs (``--memory``, ``--experience``, by
default in the user's data directory, :mod:`trees.cli.user_data`), the
robot's belief and executor from a simulator scenario (``--scenario``), and the models
(``--llm`` and friends). ``--explain`` prints every gate's decision and rationale after each
reply.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import TextIO

from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.embedding import (
    DEFAULT_EMBED_MODEL,
    RECALL_METHODS,
    RecallChoice,
    choose_recall,
)
from cogtree.knowledge.llm.errors import LLMError
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.trees.assistant_session import MAX_UTTERANCE_CHARS, AssistantSession, TurnResult
from cogtree.trees.cli.commands import add_subcommand
from cogtree.trees.cli.domain_options import add_domain_arguments, domains_from_args
from cogtree.trees.cli.errors import CLIError
from cogtree.trees.cli.llm_options import add_llm_arguments, client_from_args
from cogtree.trees.cli.user_data import (
    add_experience_argument,
    default_memory_path,
    experience_path,
)
from cogtree.trees.cli.watch_options import add_watch_arguments, linger, watch_from_args
from cogtree.trees.handles import Handles
from cogtree.trees.sim_wiring import step_when_busy
from cogtree.trees.voice.recognizer import DEFAULT_ENGINE, ENGINES
from cogtree.trees.voice.synthesizer import DEFAULT_TTS, TTS_ENGINES

DEFAULT_WORLD = "everyday_home"
"""The scenario whose world chat and ask run in when ``--scenario`` is not given."""

QUIT_WORDS = frozenset({"quit", "exit", "bye", ":q"})


def add_conversation_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``chat`` and ``ask`` to the ``cogtree`` subcommands."""
    chat = add_subcommand(
        commands,
        "chat",
        description="A multi-turn conversation with the assistant turn tree. Type quit or "
        "press Ctrl-D to leave.",
    )
    ask = add_subcommand(
        commands,
        "ask",
        epilog='example: cogtree ask "How many carbohydrates are in tiramisu?" --explain',
    )
    ask.add_argument(
        "text",
        help=f"what the user says (at most {MAX_UTTERANCE_CHARS:,} characters: a longer "
        "utterance is answered 'too long' and not acted on)",
    )
    for parser in (chat, ask):
        add_llm_arguments(parser)
        parser.add_argument(
            "--scenario",
            default=DEFAULT_WORLD,
            metavar="ID",
            help=f"simulator world to run in (default {DEFAULT_WORLD}; `cogtree sim list`)",
        )
        parser.add_argument(
            "--speaker", metavar="ID", help="who is talking (default: the scenario's speaker)"
        )
        add_pack_arguments(parser)
        parser.add_argument(
            "--explain", action="store_true", help="print each gate's decision and rationale"
        )
        add_watch_arguments(parser)
        parser.add_argument("--log", metavar="FILE", help="write the tick log (JSON Lines) here")
    add_voice_arguments(chat)


def add_voice_arguments(chat: argparse.ArgumentParser) -> None:
    """The voice options of ``chat``: audio in and out, microphone, recogniser, synthesiser.

    ``--audio-in``, ``--audio-out``, ``--voice``, ``--asr``, ``--tts``, ``--min-confidence``.
    """
    voice = chat.add_argument_group("voice (the voice extra, flite or espeak-ng: docs/voice.md)")
    voice.add_argument(
        "--audio-in",
        action="append",
        metavar="FILE.wav",
        help="a spoken request: one turn per file, in order (repeat the option)",
    )
    voice.add_argument(
        "--audio-out", metavar="DIR", help="write each spoken reply, a WAV per sentence, here"
    )
    voice.add_argument(
        "--voice",
        action="store_true",
        help="talk through the microphone and the speaker (needs PortAudio and the devices)",
    )
    voice.add_argument(
        "--asr",
        choices=ENGINES,
        default=DEFAULT_ENGINE,
        help=f"the speech recogniser (default {DEFAULT_ENGINE}; docs/voice.md compares them)",
    )
    add_tts_argument(voice)
    voice.add_argument(
        "--min-confidence",
        type=float,
        metavar="P",
        help="below this recognition confidence the robot asks to hear it again (default: "
        "trees/voice/hearing.py's MIN_CONFIDENCE; moonshine gives no confidence)",
    )


def add_tts_argument(group: argparse._ActionsContainer) -> None:
    """``--tts``: the speech synthesiser the robot speaks with."""
    group.add_argument(
        "--tts",
        choices=TTS_ENGINES,
        default=DEFAULT_TTS,
        help=f"the speech synthesiser (default {DEFAULT_TTS}: apt-get install -y flite)",
    )


def add_pack_arguments(parser: argparse.ArgumentParser) -> None:
    """``--memory``, ``--experience``, ``--packs`` and ``--domain``: the user's files, the packs."""
    parser.add_argument(
        "--memory", metavar="FILE", help=f"SQLite memory file (default {default_memory_path()})"
    )
    add_experience_argument(parser, persist_by_default=True)
    add_domain_arguments(parser)
    parser.add_argument(
        "--recall",
        choices=RECALL_METHODS,
        default="auto",
        help="how old facts are found: auto (Ollama's embedding model when it has it, else "
        "TF-IDF with synonyms), tfidf, ollama, or llama-cpp (SmolLM2 embeddings: integration "
        "only)",
    )
    parser.add_argument(
        "--embed-model",
        default=DEFAULT_EMBED_MODEL,
        metavar="NAME",
        help=f"Ollama embedding model for --recall (default {DEFAULT_EMBED_MODEL})",
    )


def recall_from_args(args: argparse.Namespace) -> RecallChoice:
    """The recall method ``--recall`` asks for; one that cannot run here is a CLIError."""
    settings = LLMConfig.load(*getattr(args, "config", [])).defaults
    try:
        choice = choose_recall(args.recall, settings, embed_model=args.embed_model)
    except LLMError as error:
        raise CLIError(f"--recall {args.recall}: {error}") from error
    print(f"cogtree: memory recall: {choice.method} ({choice.detail})", file=sys.stderr)
    return choice


@contextmanager
def open_session(args: argparse.Namespace) -> Iterator[AssistantSession]:
    """The session the options describe; everything it opened is closed on exit."""
    with ExitStack() as resources:
        domains = domains_from_args(args)
        scenario = load_scenario(args.scenario)
        simulator = SimExecutor.from_scenario(scenario)
        resources.callback(simulator.close)
        handles = resources.enter_context(Handles(domains=domains))
        handles.open_experience(experience_path(args, persist_by_default=True))
        handles.open_memory(
            args.memory or default_memory_path(), embedder=recall_from_args(args).embedder
        )
        handles.attach_simulator(simulator)
        llm = resources.enter_context(client_from_args(args))
        watch = resources.enter_context(watch_from_args(args, tree_name="assistant"))
        session = resources.enter_context(
            AssistantSession(
                llm=llm,
                handles=handles.as_kwargs(),
                speaker=args.speaker or scenario.request.speaker,
                robot=scenario.main_robot,
                log_path=args.log,
                on_tick=watch.on_tick,
                before_tick=lambda: step_when_busy(simulator),
            )
        )
        yield session
        linger(watch)


def print_turn(result: TurnResult, *, explain: bool, out: TextIO | None = None) -> None:
    """The robot's reply, and with ``explain`` every gate's decision and rationale."""
    out = out or sys.stdout
    print(f"robot: {result.reply or '(no reply)'}", file=out)
    if explain:
        where = f"domain {result.domain}, control {result.control}, {result.ticks} ticks"
        switched = ", after switching domain" if result.switched else ""
        print(f"  [{where}{switched}]", file=out)
        print(result.explain(), file=out)


def run_ask(args: argparse.Namespace) -> int:
    """One turn; exit 0 when the robot answered, 1 when the turn did not finish."""
    with open_session(args) as session:
        result = session.turn(args.text)
        print_turn(result, explain=args.explain)
    return 0 if result.status != "RUNNING" else 1


def run_chat(args: argparse.Namespace) -> int:
    """Read utterances until quit or end of input; one turn each (spoken: :func:`run_voice`)."""
    if args.audio_in or args.voice:
        return run_voice(args)
    with open_session(args) as session:
        print(
            f"cogtree chat: domains {', '.join(session.domains.names)}; memory "
            f"{session.memory.path}. Type quit to leave.",
            file=sys.stderr,
        )
        while True:
            try:
                text = input("you: ")
            except EOFError:
                print(file=sys.stderr)
                return 0
            if text.strip().lower() in QUIT_WORDS:
                return 0
            if not text.strip():
                continue
            print_turn(session.turn(text), explain=args.explain)


def run_voice(args: argparse.Namespace) -> int:
    """A conversation by voice: the ``--audio-in`` files in turn, or the microphone.

    Exit 0 when every file was heard and answered or echoed for a yes (docs/voice.md), 1
    when one was asked to be said again.
    """
    from cogtree.trees.voice.audio import AudioError, read_wav
    from cogtree.trees.voice.conversation import VoiceConversation
    from cogtree.trees.voice.errors import VoiceUnavailable
    from cogtree.trees.voice.hearing import MIN_CONFIDENCE
    from cogtree.trees.voice.microphone import Microphone
    from cogtree.trees.voice.speaking import SoundDeviceOutput, Speaker, WavFolder
    from cogtree.trees.voice.synthesizer import synthesizer_named

    try:
        clips = [read_wav(path) for path in args.audio_in or []]
        microphone = Microphone() if args.voice else None
        output = WavFolder(args.audio_out) if args.audio_out else None
        speaker = (
            Speaker(synthesizer_named(args.tts), output or SoundDeviceOutput())
            if (output or args.voice)
            else None
        )
    except (AudioError, VoiceUnavailable) as error:
        raise CLIError(str(error)) from error
    with open_session(args) as session:
        try:
            recognizer = VoiceConversation.robot_recognizer(session, args.asr)
        except VoiceUnavailable as error:
            raise CLIError(str(error)) from error
        conversation = VoiceConversation(
            session,
            recognizer,
            speaker=speaker,
            min_confidence=MIN_CONFIDENCE if args.min_confidence is None else args.min_confidence,
        )
        heard_all = True
        for clip in clips if microphone is None else iter(microphone.listen, None):
            if microphone is not None and not clip.seconds:
                continue  # nobody spoke: keep listening (Ctrl-C leaves)
            turn = conversation.hear(clip)
            heard = turn.hearing.transcript
            if heard is not None:
                print(
                    f"heard: {heard.text!r} (confidence {heard.shown_confidence}, "
                    f"{heard.audio_seconds:.2f} s; {turn.settled.outcome})",
                    file=sys.stderr,
                )
            heard_all = heard_all and (turn.result is not None or turn.settled.pending is not None)
            if turn.result is not None:
                print_turn(turn.result, explain=args.explain)
            else:
                print(f"robot: {turn.reply}")
        if speaker is not None:
            speaker.wait()
    return 0 if heard_all else 1
