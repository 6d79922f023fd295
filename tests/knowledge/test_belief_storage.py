"""Where the belief's triples live: Oxigraph in memory, or on disk in a directory of its own."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from cogtree.knowledge.collector import collector_paused, release_free_memory
from cogtree.knowledge.scene import rdf_store
from cogtree.knowledge.scene.rdf_store import Storage, StorageError, TurtleError, is_on_disk
from cogtree.knowledge.scene.scene_graph import SCENES_DIR, SceneGraph
from cogtree.knowledge.scene.scene_models import Observation

HOME = SCENES_DIR / "home.ttl"
SEEN = datetime(2025, 6, 2, 8, 0, tzinfo=timezone.utc)


def stores(parent: Path) -> list[Path]:
    return sorted(parent.glob("cogtree-belief-*"))


def test_a_small_home_stays_in_memory_by_default() -> None:
    with SceneGraph.from_turtle_file(HOME) as scene:
        assert not is_on_disk(scene.graph)


def test_a_home_over_the_size_goes_to_disk_and_its_directory_goes_with_close(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rdf_store, "ON_DISK_FROM", HOME.stat().st_size)
    scene = SceneGraph.from_turtle_file(HOME, storage=Storage(directory=tmp_path))
    assert is_on_disk(scene.graph)
    assert len(stores(tmp_path)) == 1
    scene.close()
    assert stores(tmp_path) == []


def test_text_is_measured_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = HOME.read_text(encoding="utf-8")
    monkeypatch.setattr(rdf_store, "ON_DISK_FROM", len(text) + 1)
    with SceneGraph.from_turtle_text(text, storage=Storage(directory=tmp_path)) as scene:
        assert not is_on_disk(scene.graph)
    monkeypatch.setattr(rdf_store, "ON_DISK_FROM", len(text))
    with SceneGraph.from_turtle_text(text, storage=Storage(directory=tmp_path)) as scene:
        assert is_on_disk(scene.graph)


def test_the_belief_on_disk_answers_as_the_one_in_memory(tmp_path: Path) -> None:
    seen = Observation(
        subject="bottle_blue", predicate="on", object="kitchen_table", source="cam", time=SEEN
    )
    answers = []
    for on_disk in (False, True):
        storage = Storage(on_disk=on_disk, directory=tmp_path)
        with SceneGraph.from_turtle_file(HOME, storage=storage) as scene:
            scene.observe([seen])
            answers.append(
                (
                    len(scene),
                    scene.rooms(),
                    scene.objects_in_room("kitchen"),
                    scene.locate_object("bottle_blue"),
                    scene.robot_state(),
                    scene.humans(),
                    scene.resolve_referent("the blue bottle"),
                    len(scene.index),
                )
            )
    assert answers[0] == answers[1]


def test_malformed_turtle_on_disk_leaves_no_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "broken.ttl"
    broken.write_text("@prefix : <https://cogtree.dev/scene#> .\n:a :b :c .\n:oops oops\n")
    parent = tmp_path / "stores"
    parent.mkdir()
    with pytest.raises(TurtleError, match=r"broken\.ttl"):
        SceneGraph.from_turtle_file(broken, storage=Storage(on_disk=True, directory=parent))
    assert stores(parent) == []


def test_a_directory_that_cannot_be_written_is_a_clear_error(tmp_path: Path) -> None:
    not_a_directory = tmp_path / "file"
    not_a_directory.write_text("")
    storage = Storage(on_disk=True, directory=not_a_directory / "below")
    with pytest.raises(StorageError, match=r"cannot make the belief's store in .*below"):
        SceneGraph.from_turtle_file(HOME, storage=storage)


def test_a_belief_on_disk_is_unusable_after_close(tmp_path: Path) -> None:
    scene = SceneGraph.from_turtle_file(HOME, storage=Storage(on_disk=True, directory=tmp_path))
    scene.close()
    with pytest.raises(AttributeError):
        len(scene.graph)


def test_freed_memory_is_given_back_after_a_build() -> None:
    release_free_memory()  # glibc's malloc_trim; nothing where there is none
    with collector_paused():
        built = [str(number) for number in range(1000)]
    assert len(built) == 1000


def test_a_belief_on_disk_never_closed_is_removed_at_exit(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from cogtree.knowledge.scene.rdf_store import Storage\n"
        "from cogtree.knowledge.scene.scene_graph import SCENES_DIR, SceneGraph\n"
        "storage = Storage(on_disk=True, directory=Path(sys.argv[1]))\n"
        "scene = SceneGraph.from_turtle_file(SCENES_DIR / 'home.ttl', storage=storage)\n"
        "raise SystemExit(3)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], check=False)
    assert done.returncode == 3
    assert stores(tmp_path) == []


def test_a_file_written_into_the_store_as_it_is_removed_is_removed_on_the_next_try(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = tmp_path / "cogtree-belief-x"
    (directory / "000001.sst").parent.mkdir()
    (directory / "000001.sst").write_bytes(b"table")
    real_rmtree = rdf_store.shutil.rmtree
    calls = []

    def rocksdb_still_writing(path: Path, ignore_errors: bool = False) -> None:
        calls.append(path)
        real_rmtree(path, ignore_errors=ignore_errors)
        if len(calls) == 1:  # a background compaction's output lands as the directory goes
            directory.mkdir()
            (directory / "000002.sst").write_bytes(b"compacted")

    monkeypatch.setattr(rdf_store.shutil, "rmtree", rocksdb_still_writing)
    rdf_store.remove_store_directory(directory)
    assert not directory.exists()
    assert len(calls) == 2


def test_a_store_directory_that_stays_is_named_in_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    directory = tmp_path / "cogtree-belief-y"
    directory.mkdir()
    monkeypatch.setattr(rdf_store.shutil, "rmtree", lambda path, ignore_errors=False: None)
    monkeypatch.setattr(rdf_store.time, "sleep", lambda seconds: None)
    rdf_store.remove_store_directory(directory)
    assert str(directory) in caplog.text
    assert "remove it by hand" in caplog.text
