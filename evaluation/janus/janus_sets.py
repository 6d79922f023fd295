"""The JANUS-scale sets of ``cogtree eval modules``: 11-domain scope and outer speech.

Both files are optional in an evaluation directory: ``scope_profiles.jsonl`` (scope over the
domain profiles, :mod:`evaluation.janus.profile_scope`) and ``outer_speech.jsonl``
(:mod:`evaluation.janus.outer_speech`); a directory without them skips them with a note.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cogtree.evaluation.janus.outer_speech import (
    OUTER_SPEECH_COLUMNS,
    OUTER_SPEECH_FILE,
    OuterSpeechItem,
    OuterSpeechScore,
    load_outer_speech,
    score_outer_speech,
)
from cogtree.evaluation.janus.profile_scope import (
    PROFILE_SCOPE_FILE,
    ProfileScopeItem,
    load_profile_scope,
    score_profile_scope,
)
from cogtree.evaluation.janus.report import Section
from cogtree.evaluation.janus.runner import ModuleRunner, ModuleScore
from cogtree.knowledge.packs.domain_profile import DomainProfile, load_profiles
from cogtree.knowledge.packs.domain_registry import DomainRegistry


@dataclass(frozen=True)
class JanusSets:
    """The profiles, and the sets found in the evaluation directory (None when absent)."""

    profiles: list[DomainProfile]
    scope: list[ProfileScopeItem] | None
    speech: list[OuterSpeechItem] | None

    @classmethod
    def load(cls, directory: Path, registry: DomainRegistry) -> JanusSets:
        """Read the sets of ``directory`` that exist (DatasetError or ProfileError when bad)."""
        profiles = load_profiles(registry.packs)
        scope_file, speech_file = directory / PROFILE_SCOPE_FILE, directory / OUTER_SPEECH_FILE
        return cls(
            profiles,
            load_profile_scope(scope_file, profiles) if scope_file.is_file() else None,
            load_outer_speech(speech_file) if speech_file.is_file() else None,
        )

    def notes(self) -> list[str]:
        """What was skipped, and why."""
        notes = []
        if self.scope is None:
            notes.append(
                f"scope over {len(self.profiles)} domains skipped: no {PROFILE_SCOPE_FILE}"
            )
        if self.speech is None:
            notes.append(f"outer speech skipped: no {OUTER_SPEECH_FILE}")
        return notes


def run_janus_sets(
    runner: ModuleRunner,
    sets: JanusSets,
    *,
    limit: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> tuple[list[ModuleScore], list[OuterSpeechScore]]:
    """The scope row over the profiles and the outer-speech score, on ``runner``'s backend."""
    scope = []
    if sets.scope is not None:
        scope.append(
            score_profile_scope(
                sets.profiles,
                sets.scope,
                backend=runner.backend,
                llm=runner.client,
                label=runner.label,
                limit=limit,
                progress=progress,
            )
        )
    speech = []
    if sets.speech is not None:
        speech.append(score_outer_speech(runner, sets.speech, limit=limit, progress=progress))
    return scope, speech


def speech_section(scores: list[OuterSpeechScore]) -> Section:
    """The outer-speech table of the report."""
    return Section(
        "Outer speech (tests/data/eval/outer_speech.jsonl)",
        OUTER_SPEECH_COLUMNS,
        [score.row() for score in scores],
    )
