"""The game store: real SQLite files, damage set aside, disk faults, and SIGKILL between writes."""

from __future__ import annotations

import errno
import json
import os
import random
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tmpfs import small_tmpfs as mount_small_tmpfs

from tests.conftest import ExpectedErrors
from firmware.store import (
    DB_NAME,
    GameStore,
    MemoryStore,
    Settings,
    StorageError,
    Store,
    StoredGame,
    memory_copy,
)

REPO = Path(__file__).resolve().parents[2]
DAMAGED = "state database was damaged"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def state_dir(tmp_path: Path) -> Path:
    return tmp_path / "state"


@pytest.fixture(params=["sqlite", "memory"])
def store(request: pytest.FixtureRequest, state_dir: Path) -> Iterator[Store]:
    opened: Store = GameStore.open(state_dir) if request.param == "sqlite" else MemoryStore()
    yield opened
    opened.close()


# -- the interface, on disk and in memory ----------------------------------------------------------

def test_empty_store_has_no_game(store: Store) -> None:
    assert store.load() is None
    assert store.notice is None


def test_game_and_log_round_trip_in_order(store: Store) -> None:
    game = {"code": "K7Q2", "rules": "alchemists", "level": "master", "golem": True, "seed": [1, 2]}
    store.save_game(game)
    entries = [{"n": i, "text": "ž" * i, "nested": {"list": [None, 1.5, False]}} for i in range(30)]
    for entry in entries:
        store.append(entry)
    assert store.load() == StoredGame(game, entries)


def test_save_game_replaces_the_game_and_clears_the_log(store: Store) -> None:
    store.save_game({"code": "A"})
    store.append({"n": 1})
    store.save_game({"code": "B"})
    assert store.load() == StoredGame({"code": "B"}, [])
    store.append({"n": 2})
    assert store.load() == StoredGame({"code": "B"}, [{"n": 2}])


def test_clear_forgets_the_game_but_not_the_settings(store: Store) -> None:
    store.settings.set("language", "ru")
    store.save_game({"code": "A"})
    store.append({"n": 1})
    store.clear()
    assert store.load() is None
    assert store.settings.get("language") == "ru"
    with pytest.raises(ValueError, match="no game is saved"):
        store.append({"n": 2})


def test_loaded_values_are_copies(store: Store) -> None:
    game: dict[str, Any] = {"code": "A", "list": [1]}
    store.save_game(game)
    game["list"].append(2)
    loaded = store.load()
    assert loaded is not None and loaded.game == {"code": "A", "list": [1]}
    loaded.game["code"] = "Z"
    assert store.load() == StoredGame({"code": "A", "list": [1]}, [])


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        ([1, 2], TypeError, "log entry must be a dict, not list"),
        ({"x": float("nan")}, ValueError, "log entry is not JSON-able"),
        ({"x": object()}, TypeError, "log entry is not JSON-able"),
        ({"x": b"bytes"}, TypeError, "log entry is not JSON-able"),
    ],
)
def test_bad_entries_are_refused_and_change_nothing(
    store: Store, value: Any, error: type[Exception], message: str
) -> None:
    store.save_game({"code": "A"})
    store.append({"n": 0})
    with pytest.raises(error, match=message):
        store.append(value)
    with pytest.raises(TypeError, match="game must be a dict"):
        store.save_game("A")  # type: ignore[arg-type]
    assert store.load() == StoredGame({"code": "A"}, [{"n": 0}])


def test_append_without_a_game_is_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="no game is saved"):
        store.append({"n": 1})
    assert store.load() is None


def test_settings(store: Store) -> None:
    settings = store.settings
    assert isinstance(settings, Settings)
    assert settings.get("tolerance") is None and settings.get("tolerance", 0.5) == 0.5
    settings.set("language", "sk")
    settings.set("level", "master")
    settings.set("tolerance", 0.25)
    settings.set("brightness", 128)
    settings.set("language", "pl")
    assert settings.as_dict() == {"language": "pl", "level": "master", "tolerance": 0.25, "brightness": 128}
    assert "level" in settings
    settings.delete("level")
    settings.delete("never-set")
    assert "level" not in settings
    with pytest.raises(ValueError, match="not JSON-able"):
        settings.set("brightness", float("inf"))
    with pytest.raises(ValueError, match="non-empty"):
        settings.set("", 1)
    assert settings.get("brightness") == 128


def test_memory_store_can_take_over_a_game() -> None:
    memory = MemoryStore({"code": "A"}, [{"n": 1}], {"language": "pl"}, notice="disk full")
    assert memory.load() == StoredGame({"code": "A"}, [{"n": 1}])
    assert memory.settings.get("language") == "pl" and memory.notice == "disk full"
    with pytest.raises(ValueError, match="a log needs a game"):
        MemoryStore(None, [{"n": 1}])


# -- on disk ---------------------------------------------------------------------------------------

def test_everything_survives_reopening(state_dir: Path) -> None:
    with GameStore.open(state_dir) as store:
        store.save_game({"code": "A"})
        store.append({"n": 1})
        store.append({"n": 2})
        store.settings.set("brightness", 40)
    with GameStore.open(state_dir) as store:
        assert store.load() == StoredGame({"code": "A"}, [{"n": 1}, {"n": 2}])
        assert store.settings.as_dict() == {"brightness": 40}
        assert store.notice is None


def test_pragmas_and_schema_version(state_dir: Path) -> None:
    with GameStore.open(state_dir) as store:
        connection = store._conn
        assert connection is not None
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert connection.execute("PRAGMA user_version").fetchone()[0] == 1


def test_modes_are_private(tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    state_dir.mkdir(mode=0o755)
    os.chmod(state_dir, 0o755)
    with GameStore.open(state_dir) as store:
        store.save_game({"code": "A"})
        assert mode(state_dir) == 0o700
        assert mode(state_dir / DB_NAME) == 0o600
        assert mode(state_dir / (DB_NAME + "-wal")) == 0o600
        assert mode(state_dir / (DB_NAME + "-shm")) == 0o600
    os.chmod(state_dir / DB_NAME, 0o644)
    GameStore.open(state_dir).close()
    assert mode(state_dir / DB_NAME) == 0o600


def test_new_state_dir_is_created_private(tmp_path: Path) -> None:
    state_dir = tmp_path / "a" / "b" / "state"
    GameStore.open(state_dir).close()
    assert mode(state_dir) == 0o700


def test_closed_store_refuses_use(state_dir: Path) -> None:
    store = GameStore.open(state_dir)
    store.close()
    store.close()
    with pytest.raises(ValueError, match="closed"):
        store.load()
    assert "closed" in repr(store)


def test_threads_append_without_losing_entries(state_dir: Path) -> None:
    with GameStore.open(state_dir) as store:
        store.save_game({"code": "A"})

        def worker(k: int) -> None:
            for i in range(25):
                store.append({"thread": k, "i": i})

        threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        loaded = store.load()
        assert loaded is not None and len(loaded.log) == 100
        for k in range(4):
            assert [e["i"] for e in loaded.log if e["thread"] == k] == list(range(25))


# -- damage ----------------------------------------------------------------------------------------

def make_game(state_dir: Path, entries: int = 50) -> None:
    with GameStore.open(state_dir) as store:
        store.save_game({"code": "OLD"})
        for i in range(entries):
            store.append({"n": i, "padding": "x" * 200})


def damage_garbage(path: Path) -> None:
    path.write_bytes(os.urandom(8192))


def damage_truncate_header(path: Path) -> None:
    with open(path, "r+b") as file:
        file.truncate(60)


def damage_truncate_half(path: Path) -> None:
    with open(path, "r+b") as file:
        file.truncate(path.stat().st_size // 2)


def damage_page(path: Path) -> None:
    with open(path, "r+b") as file:
        file.seek(4096)  # the b-tree header of the second page: an invalid page type
        file.write(b"\xff" * 12)


def damage_schema_version(path: Path) -> None:
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA user_version = 7")
    connection.commit()
    connection.close()


def damage_other_database(path: Path) -> None:
    path.unlink()
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE photos (id INTEGER)")
    connection.commit()
    connection.close()


def damage_game_record(path: Path) -> None:
    connection = sqlite3.connect(path)
    connection.execute("UPDATE game SET data = '{not json'")
    connection.commit()
    connection.close()


def damage_empty(path: Path) -> None:
    path.write_bytes(b"")


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (damage_garbage, "file is not a database"),
        (damage_truncate_header, ""),
        (damage_truncate_half, ""),
        (damage_page, ""),
        (damage_schema_version, "unknown schema version 7"),
        (damage_other_database, "unknown schema version 0"),
        (damage_game_record, "unreadable game record"),
        (damage_empty, "the file is empty"),
    ],
)
def test_damaged_database_is_set_aside_and_a_clean_one_started(
    state_dir: Path, expected_errors: ExpectedErrors, damage: Any, reason: str
) -> None:
    expected_errors.expect(DAMAGED)
    make_game(state_dir)
    path = state_dir / DB_NAME
    damage(path)
    damaged_bytes = path.read_bytes()
    with GameStore.open(state_dir) as store:
        assert store.notice is not None
        assert store.notice.startswith(DAMAGED) and store.notice.endswith("started clean")
        assert reason in store.notice
        asides = sorted(state_dir.glob(DB_NAME + ".damaged-*"))
        assert [p.name for p in asides if not p.name.endswith(("-wal", "-shm"))] == [
            asides[0].name]
        assert asides[0].name in store.notice
        assert asides[0].read_bytes() == damaged_bytes
        assert store.load() is None
        store.save_game({"code": "NEW"})
        store.append({"n": 0})
    with GameStore.open(state_dir) as store:
        assert store.notice is None
        assert store.load() == StoredGame({"code": "NEW"}, [{"n": 0}])


def test_damage_twice_keeps_both_copies(state_dir: Path, expected_errors: ExpectedErrors) -> None:
    expected_errors.expect(DAMAGED)
    for _ in range(2):
        make_game(state_dir, 1)
        damage_garbage(state_dir / DB_NAME)
        with GameStore.open(state_dir) as store:
            assert store.notice is not None
    assert len(list(state_dir.glob(DB_NAME + ".damaged-*"))) == 2


def test_a_power_cut_while_the_database_is_made_leaves_no_empty_file(
    state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def cut(*args: object) -> None:
        raise KeyboardInterrupt("power cut")

    monkeypatch.setattr("firmware.store.os.replace", cut)
    with pytest.raises(KeyboardInterrupt):
        GameStore.open(state_dir)
    monkeypatch.undo()
    assert not (state_dir / DB_NAME).exists()
    assert list(state_dir.glob(DB_NAME + ".new-*"))  # the half-built file, cleared at the next start
    with GameStore.open(state_dir) as store:
        assert store.notice is None and store.load() is None
    assert [p.name for p in state_dir.iterdir() if not p.name.endswith(("-wal", "-shm"))] == [DB_NAME]


def test_an_unreadable_log_entry_is_left_out_and_counted(state_dir: Path) -> None:
    make_game(state_dir, 5)
    connection = sqlite3.connect(state_dir / DB_NAME)
    connection.execute("UPDATE log SET data = '{not json' WHERE seq = 2")
    connection.execute("UPDATE log SET data = '[1, 2]' WHERE seq = 4")
    connection.commit()
    connection.close()
    with GameStore.open(state_dir) as store:
        assert store.notice is None
        stored = store.load()
        assert stored is not None and stored.unreadable == 2
        assert [entry["n"] for entry in stored.log] == [0, 2, 4]
    assert memory_copy(state_dir).load() == StoredGame({"code": "OLD"}, stored.log)


def test_an_unreadable_setting_is_dropped_and_the_game_kept(state_dir: Path) -> None:
    make_game(state_dir, 1)
    with GameStore.open(state_dir) as store:
        store.settings.set("language", "pl")
        store.settings.set("level", "master")
    connection = sqlite3.connect(state_dir / DB_NAME)
    connection.execute("UPDATE settings SET value = '{broken' WHERE key = 'language'")
    connection.commit()
    connection.close()
    with GameStore.open(state_dir) as store:
        assert store.notice is None and store.load() is not None
        assert store.settings.as_dict() == {"level": "master"}


def test_keep_copy_and_rewrite(state_dir: Path) -> None:
    make_game(state_dir, 3)
    with GameStore.open(state_dir) as store:
        before = store.load()
        copy = store.keep_copy()
        assert copy.name.startswith(DB_NAME + ".damaged-") and mode(copy) == 0o600
        store.rewrite({"code": "NEW"}, [{"n": 7}, {"n": 8}])
        assert store.load() == StoredGame({"code": "NEW"}, [{"n": 7}, {"n": 8}])
        with pytest.raises(TypeError, match="log entry"):
            store.rewrite({"code": "BAD"}, [{"n": 9}, ["not", "a", "dict"]])  # type: ignore[list-item]
        assert store.load() == StoredGame({"code": "NEW"}, [{"n": 7}, {"n": 8}])
    aside = state_dir / "copy"
    aside.mkdir()
    os.replace(copy, aside / DB_NAME)
    with GameStore.open(aside) as kept:
        assert kept.notice is None and kept.load() == before


# -- a disk that refuses writes --------------------------------------------------------------------

def test_full_disk_raises_storage_error_and_keeps_the_state(state_dir: Path) -> None:
    with GameStore.open(state_dir) as store:
        store.save_game({"code": "A"})
        store.append({"n": 0})
        assert store._conn is not None
        pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
        store._conn.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own SQLITE_FULL path
        with pytest.raises(StorageError) as caught:
            for i in range(1, 1000):
                store.append({"n": i, "padding": "x" * 1000})
        error = caught.value
        assert isinstance(error, OSError) and error.errno == errno.ENOSPC
        assert str(error) == f"cannot record the result: the disk is full ({state_dir / DB_NAME})"
        assert error.filename == str(state_dir / DB_NAME)
        stored = store.load()
        assert stored is not None and [e["n"] for e in stored.log] == list(range(len(stored.log)))
        with pytest.raises(StorageError, match="cannot save the game: the disk is full"):
            store.save_game({"code": "B", "padding": "y" * 100_000})
        assert store.load() == stored


def test_read_only_database_raises_storage_error(state_dir: Path) -> None:
    with GameStore.open(state_dir) as store:
        store.save_game({"code": "A"})
        assert store._conn is not None
        store._conn.execute("PRAGMA query_only = ON")  # SQLite's own SQLITE_READONLY path
        with pytest.raises(StorageError) as caught:
            store.append({"n": 1})
        assert caught.value.errno == errno.EROFS
        assert str(caught.value).startswith("cannot record the result: the state directory is read-only")
        with pytest.raises(StorageError, match="cannot save a setting: the state directory is read-only"):
            store.settings.set("language", "pl")
        assert store.settings.get("language") is None
        assert store.load() == StoredGame({"code": "A"}, [])


def test_state_dir_that_cannot_be_created(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a directory")
    with pytest.raises(StorageError) as caught:
        GameStore.open(tmp_path / "file" / "state")
    assert caught.value.errno == errno.ENOTDIR
    assert str(caught.value) == (
        f"cannot create the state directory: a path component is not a directory ({tmp_path}/file/state)")


_OPEN_AS_NOBODY = textwrap.dedent("""
    import sys
    from firmware.store import GameStore, StorageError
    try:
        GameStore.open(sys.argv[1])
    except StorageError as error:
        print(error.errno, error)
    """)


def test_read_only_state_dir_at_open(tmp_path: Path) -> None:
    """chmod cannot stop root, so as root the check runs in a child that drops to ``nobody``."""
    if os.geteuid() != 0:
        state_dir = tmp_path / "state"
        state_dir.mkdir()
        os.chmod(state_dir, 0o500)
        try:
            with pytest.raises(StorageError) as caught:
                GameStore.open(state_dir)
            assert caught.value.errno in (errno.EACCES, errno.EROFS)
            assert "cannot open the state database" in str(caught.value)
        finally:
            os.chmod(state_dir, 0o700)
        return
    nobody = 65534
    base = Path(tempfile.mkdtemp(prefix="labkit-ro-"))
    try:
        os.chmod(base, 0o755)
        state_dir = base / "state"
        state_dir.mkdir()
        os.chown(state_dir, nobody, nobody)
        os.chmod(state_dir, 0o500)
        # the store needs only the standard library: any python3 that nobody may run will do
        for python in (sys.executable, "/usr/bin/python3"):
            try:
                result = subprocess.run(
                    [python, "-c", _OPEN_AS_NOBODY, str(state_dir)], cwd=REPO, user=nobody,
                    group=nobody, extra_groups=[], capture_output=True, text=True, timeout=60,
                    env={"PYTHONPATH": str(REPO), "PATH": os.environ.get("PATH", "")},
                )
            except OSError:
                continue
            if result.stdout or "StorageError" not in result.stderr and result.returncode == 0:
                break
        else:
            pytest.skip("no python3 that the user nobody may run")
        assert result.stdout.strip() == (
            f"{errno.EACCES} cannot open the state database: permission denied ({state_dir / DB_NAME})"
        ), result.stderr
    finally:
        shutil.rmtree(base)


@pytest.fixture
def small_tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A real 512 KiB tmpfs (root with mount rights only), unmounted afterwards."""
    with mount_small_tmpfs(tmp_path / "tmpfs", "512k") as mount_point:
        yield mount_point


def test_real_full_disk(small_tmpfs: Path) -> None:
    with GameStore.open(small_tmpfs / "state") as store:
        store.save_game({"code": "A"})
        written = 0
        with pytest.raises(StorageError) as caught:
            for written in range(10_000):
                store.append({"n": written, "padding": "x" * 4000})
        assert caught.value.errno in (errno.ENOSPC, errno.EIO)
        assert str(caught.value).startswith("cannot record the result: ")
        stored = store.load()
        assert stored is not None and [e["n"] for e in stored.log] == list(range(written))


def test_real_read_only_filesystem(small_tmpfs: Path) -> None:
    """Remounting needs no open writers, so the store is closed first: the failure comes at open."""
    with GameStore.open(small_tmpfs / "state") as store:
        store.save_game({"code": "A"})
    subprocess.run(["mount", "-o", "remount,ro", str(small_tmpfs)], check=True)
    with pytest.raises(StorageError) as caught:
        GameStore.open(small_tmpfs / "state")
    assert caught.value.errno == errno.EROFS
    assert str(caught.value) == (
        f"cannot open the state database: the state directory is read-only ({small_tmpfs}/state/{DB_NAME})")
    with pytest.raises(StorageError) as caught:
        GameStore.open(small_tmpfs / "other")
    assert str(caught.value) == (
        f"cannot create the state directory: the state directory is read-only ({small_tmpfs}/other)")


def test_memory_copy_of_a_read_only_state_dir(small_tmpfs: Path) -> None:
    with GameStore.open(small_tmpfs / "state") as store:
        store.save_game({"code": "A"})
        store.append({"n": 0})
        store.settings.set("language", "pl")
    subprocess.run(["mount", "-o", "remount,ro", str(small_tmpfs)], check=True)
    memory = memory_copy(small_tmpfs / "state", notice="read-only")
    assert memory.load() == StoredGame({"code": "A"}, [{"n": 0}])
    assert memory.settings.get("language") == "pl" and memory.notice == "read-only"
    memory.append({"n": 1})
    assert memory.load() == StoredGame({"code": "A"}, [{"n": 0}, {"n": 1}])


# -- SIGKILL between writes ------------------------------------------------------------------------

_WRITER = textwrap.dedent("""
    import random, sys
    from firmware.store import GameStore
    store = GameStore.open(sys.argv[1])
    stored = store.load()
    generation = stored.game["generation"] + 1 if stored else 0
    rng = random.Random(int(sys.argv[2]))
    while True:
        store.save_game({"generation": generation, "code": "G%d" % generation})
        print("game", generation, flush=True)
        for i in range(rng.randrange(1, 40)):
            store.append({"generation": generation, "i": i, "padding": "x" * rng.randrange(3000)})
            print("entry", generation, i, flush=True)
        generation += 1
    """)


def acknowledgements(lines: list[str]) -> list[str]:
    """The writer's complete lines: the kill can cut its last line short (with PYTHONUNBUFFERED set,
    ``print`` writes each word on its own), and a line cut short acknowledged nothing."""
    return [line for line in lines if line.endswith("\n")]


def test_a_line_the_kill_cut_short_acknowledges_nothing() -> None:
    assert acknowledgements(["game 3\n", "entry 3 0\n", "entry"]) == ["game 3\n", "entry 3 0\n"]


def kill_loop(state_dir: Path, rounds: int, seed: int) -> None:
    """Kill a writer at random moments; each time the game and a gap-free prefix of its log survive."""
    rng = random.Random(seed)
    acknowledged: tuple[int, int] = (-1, -1)  # (generation, last entry index) confirmed before the kill
    for round_ in range(rounds):
        child = subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(state_dir), str(seed * 1000 + round_)], cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE, text=True,
        )
        assert child.stdout is not None
        deadline = time.monotonic() + rng.uniform(0.05, 0.4)
        lines: list[str] = []
        while time.monotonic() < deadline or not lines:
            line = child.stdout.readline()
            if not line:
                break
            lines.append(line)
        child.send_signal(signal.SIGKILL)
        child.wait()
        lines += child.stdout.readlines()  # buffered acknowledgements written before the kill
        child.stdout.close()
        for line in acknowledgements(lines):
            words = line.split()
            acknowledged = (int(words[1]), -1) if words[0] == "game" else (int(words[1]), int(words[2]))
        with GameStore.open(state_dir) as store:
            assert store.notice is None
            stored = store.load()
        assert stored is not None, f"round {round_}: the game was lost"
        generation = stored.game["generation"]
        assert stored.game == {"generation": generation, "code": f"G{generation}"}
        assert [e["i"] for e in stored.log] == list(range(len(stored.log))), f"round {round_}: gap"
        assert all(e["generation"] == generation for e in stored.log), f"round {round_}: mixed log"
        assert (generation, len(stored.log) - 1) >= acknowledged, f"round {round_}: acknowledged write lost"
        acknowledged = (generation, len(stored.log) - 1)


def test_sigkill_between_writes_leaves_the_game_and_a_prefix_of_its_log(state_dir: Path) -> None:
    kill_loop(state_dir, rounds=8, seed=1)


@pytest.mark.slow
def test_sigkill_between_writes_many_times(state_dir: Path) -> None:
    kill_loop(state_dir, rounds=300, seed=2)


def test_memory_copy_reads_without_writing(state_dir: Path) -> None:
    with GameStore.open(state_dir) as store:
        store.save_game({"code": "A"})
        store.append({"n": 0})
        # still open: the entry may sit in the WAL only, and is read from there
        files = [state_dir / DB_NAME, state_dir / (DB_NAME + "-wal")]  # -shm holds readers' marks
        before = [p.read_bytes() for p in files]
        memory = memory_copy(state_dir)
        assert memory.load() == StoredGame({"code": "A"}, [{"n": 0}])
        assert [p.read_bytes() for p in files] == before


@pytest.mark.parametrize("damage", [damage_garbage, damage_schema_version])
def test_memory_copy_of_nothing_readable_is_empty(state_dir: Path, damage: Any) -> None:
    assert memory_copy(state_dir / "missing", notice="n").load() is None
    make_game(state_dir, 2)
    damage(state_dir / DB_NAME)
    memory = memory_copy(state_dir, notice="disk trouble")
    assert memory.load() is None and memory.notice == "disk trouble"


def test_stored_game_is_json_plain(state_dir: Path) -> None:
    with GameStore.open(state_dir) as store:
        store.save_game({"code": "A", "ü": "ß"})
    connection = sqlite3.connect(state_dir / DB_NAME)
    assert json.loads(connection.execute("SELECT data FROM game").fetchone()[0]) == {"code": "A", "ü": "ß"}
    connection.close()


def test_docstring_examples() -> None:
    import doctest

    import firmware.store

    result = doctest.testmod(firmware.store)
    assert result.failed == 0 and result.attempted > 0
