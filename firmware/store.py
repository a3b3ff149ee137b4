"""Persistence of the current game and its log in SQLite, so a power cut or a crash loses nothing.

One file, ``<state_dir>/labkit.db``, in WAL mode with ``synchronous=FULL``: every :meth:`GameStore.append`
is one transaction, fsynced before it returns, so after a crash the game is there with an intact
prefix of its log. The game and the log entries are opaque JSON-able dicts made by the engine.

The state directory is created with mode 0700 and the database with mode 0600. A new database is
built under another name and renamed into place, so a power cut never leaves an empty ``labkit.db``.
A damaged database (empty, not a database, a failed integrity check, an unknown schema version, an
unreadable game record) is moved aside to ``labkit.db.damaged-<UTC timestamp>`` and a fresh one
started; :attr:`GameStore.notice` then says so, for the screen. Opening never raises for damage, so
the daemon cannot crash-loop on it. A log entry that is not a JSON object is left out of
:meth:`GameStore.load` and counted in :attr:`StoredGame.unreadable`: one bad entry does not cost the
game, and the session decides what to keep (:meth:`GameStore.keep_copy`, :meth:`GameStore.rewrite`).

A full disk, a read-only state directory or an I/O error raises :class:`StorageError` (an
:class:`OSError`) with a clear message; the daemon can then go on with a :class:`MemoryStore`, which
has the same interface and keeps everything in memory.

>>> store = MemoryStore()
>>> store.save_game({"code": "ABCD"})
>>> store.append({"mix": [1, 2]})
>>> store.load()
StoredGame(game={'code': 'ABCD'}, log=[{'mix': [1, 2]}], unreadable=0)
"""

from __future__ import annotations

import errno
import json
import logging
import os
import sqlite3
import stat
import threading
import time
import urllib.parse
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

__all__ = [
    "DB_NAME",
    "SCHEMA_VERSION",
    "GameStore",
    "MemoryStore",
    "Settings",
    "StorageError",
    "Store",
    "StoredGame",
    "memory_copy",
]

log = logging.getLogger(__name__)

#: The database file inside the state directory.
DB_NAME = "labkit.db"

#: ``PRAGMA user_version`` of the schema below; another version is treated as damage.
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE game (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    data TEXT NOT NULL,
    saved_at REAL NOT NULL
);
CREATE TABLE log (
    seq INTEGER PRIMARY KEY,
    data TEXT NOT NULL
);
CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""
_TABLES = {"game", "log", "settings"}

JSON = dict[str, Any]


class StorageError(OSError):
    """The state cannot be written (full disk, read-only directory, I/O error); ``errno`` says which."""

    def __init__(self, message: str, code: int = errno.EIO, path: Path | str | None = None) -> None:
        super().__init__(code, message, None if path is None else str(path))
        self.message = message

    def __str__(self) -> str:
        return self.message


class _Damaged(Exception):
    """The database file cannot be trusted; the message says why."""


@dataclass(frozen=True)
class StoredGame:
    """The current game and its readable log entries, oldest first, and how many could not be read."""

    game: JSON
    log: list[JSON] = field(default_factory=list)
    unreadable: int = 0


def _decode_entries(texts: Iterable[str]) -> tuple[list[JSON], int]:
    """The log entries that are JSON objects, and the number of the others."""
    entries: list[JSON] = []
    unreadable = 0
    for text in texts:
        try:
            entry = json.loads(text)
        except (ValueError, TypeError):
            entry = None
        if isinstance(entry, dict):
            entries.append(entry)
        else:
            unreadable += 1
    return entries, unreadable


def _decode_settings(rows: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The settings whose values are JSON; the others are dropped (their defaults apply again)."""
    settings: dict[str, str] = {}
    for key, text in rows:
        try:
            json.loads(text)
        except (ValueError, TypeError):
            log.warning("the saved setting %r is unreadable; its default applies", key)
            continue
        settings[key] = text
    return settings


def _encode(value: object, what: str) -> str:
    """JSON text of a value, or TypeError/ValueError naming what it was (strict API, before any write)."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as error:
        raise type(error)(f"{what} is not JSON-able: {error}") from None


def _encode_dict(value: object, what: str) -> str:
    if not isinstance(value, dict):
        raise TypeError(f"{what} must be a dict, not {type(value).__name__}")
    return _encode(value, what)


_REASONS: dict[str, tuple[int, str]] = {
    "SQLITE_FULL": (errno.ENOSPC, "the disk is full"),
    "SQLITE_READONLY": (errno.EROFS, "the state directory is read-only"),
    "SQLITE_CANTOPEN": (errno.EACCES, "the state database cannot be opened"),
    "SQLITE_IOERR": (errno.EIO, "the storage reports an I/O error"),
    "SQLITE_CORRUPT": (errno.EIO, "the state database is damaged"),
    "SQLITE_NOTADB": (errno.EIO, "the state database is damaged"),
    "SQLITE_BUSY": (errno.EBUSY, "another process holds the state database"),
    "SQLITE_LOCKED": (errno.EBUSY, "another process holds the state database"),
    "SQLITE_PERM": (errno.EACCES, "access to the state database is denied"),
}
_OS_REASONS: dict[int, str] = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exhausted",
    errno.EROFS: "the state directory is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOTDIR: "a path component is not a directory",
    errno.EIO: "the storage reports an I/O error",
}


def _storage_error(error: BaseException, what: str, path: Path) -> StorageError:
    """A clear :class:`StorageError` for an SQLite or OS error while doing ``what``."""
    if isinstance(error, sqlite3.Error):
        name = getattr(error, "sqlite_errorname", "") or ""
        code, reason = next(
            (found for prefix, found in _REASONS.items() if name.startswith(prefix)),
            (errno.EIO, f"SQLite error {name or error}"),
        )
    else:
        assert isinstance(error, OSError)
        code = error.errno or errno.EIO
        reason = _OS_REASONS.get(code, error.strerror or str(error))
    return StorageError(f"cannot {what}: {reason} ({path})", code, path)


class Settings:
    """A few persisted user settings (language, level, tolerance, brightness), as JSON values.

    >>> settings = MemoryStore().settings
    >>> settings.set("language", "pl")
    >>> settings.get("language"), settings.get("level", "apprentice")
    ('pl', 'apprentice')
    """

    def __init__(self, values: Mapping[str, Any] | None = None) -> None:
        self._values: dict[str, str] = {k: _encode(v, f"setting {k!r}") for k, v in (values or {}).items()}

    def get(self, key: str, default: Any = None) -> Any:
        """The setting's value, or ``default`` when it was never set."""
        text = self._values.get(key)
        return default if text is None else json.loads(text)

    def set(self, key: str, value: Any) -> None:
        """Persist a setting; raises :class:`StorageError` when the disk refuses."""
        if not isinstance(key, str) or not key:
            raise ValueError(f"setting name must be a non-empty string, not {key!r}")
        text = _encode(value, f"setting {key!r}")
        self._persist(key, text)
        self._values[key] = text

    def delete(self, key: str) -> None:
        """Forget a setting (its default applies again)."""
        if key in self._values:
            self._persist(key, None)
            del self._values[key]

    def as_dict(self) -> dict[str, Any]:
        """All settings that were set."""
        return {key: json.loads(text) for key, text in self._values.items()}

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.as_dict()!r})"

    def _persist(self, key: str, text: str | None) -> None:
        """Write one setting (``None``: delete it); the memory store keeps nothing else."""


class Store(Protocol):
    """What the daemon needs from a store: :class:`GameStore` on disk or :class:`MemoryStore`."""

    notice: str | None
    settings: Settings

    def save_game(self, game: JSON) -> None: ...
    def rewrite(self, game: JSON, log: Iterable[JSON]) -> None: ...
    def append(self, entry: JSON) -> None: ...
    def keep_copy(self) -> Path | None: ...
    def load(self) -> StoredGame | None: ...
    def clear(self) -> None: ...
    def close(self) -> None: ...


class MemoryStore:
    """The store's interface kept in memory: for tests, and for going on when the disk fails.

    Values go through JSON as on disk, so the same inputs are refused and nothing is shared.
    """

    def __init__(
        self,
        game: JSON | None = None,
        log: Iterable[JSON] = (),
        settings: Mapping[str, Any] | None = None,
        notice: str | None = None,
    ) -> None:
        self.notice = notice
        self.settings = Settings(settings)
        self._game: str | None = None if game is None else _encode_dict(game, "game")
        self._log: list[str] = [_encode_dict(entry, "log entry") for entry in log]
        if self._game is None and self._log:
            raise ValueError("a log needs a game")

    def save_game(self, game: JSON) -> None:
        """Make ``game`` the current game, with an empty log."""
        self.rewrite(game, ())

    def rewrite(self, game: JSON, log: Iterable[JSON]) -> None:
        """Make ``game`` the current game with exactly ``log``."""
        text = _encode_dict(game, "game")
        entries = [_encode_dict(entry, "log entry") for entry in log]
        self._game, self._log = text, entries

    def keep_copy(self) -> Path | None:
        """Nothing on disk to keep: ``None``."""
        return None

    def append(self, entry: JSON) -> None:
        """Add one entry to the current game's log."""
        text = _encode_dict(entry, "log entry")
        if self._game is None:
            raise ValueError("cannot append a log entry: no game is saved")
        self._log.append(text)

    def load(self) -> StoredGame | None:
        """The current game and its log, or ``None`` when there is no game."""
        if self._game is None:
            return None
        return StoredGame(json.loads(self._game), [json.loads(text) for text in self._log])

    def clear(self) -> None:
        """Forget the current game and its log (the settings stay)."""
        self._game = None
        self._log = []

    def close(self) -> None:
        """Nothing to release."""

    def __repr__(self) -> str:
        return f"MemoryStore(game={self._game is not None}, log={len(self._log)})"


class _DatabaseSettings(Settings):
    def __init__(self, store: GameStore, values: dict[str, str]) -> None:
        super().__init__()
        self._values = values
        self._store = store

    def _persist(self, key: str, text: str | None) -> None:
        if text is None:
            self._store._write("save a setting", [("DELETE FROM settings WHERE key = ?", (key,))])
        else:
            self._store._write(
                "save a setting",
                [("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, text))],
            )


def _private(path: Path) -> None:
    """Take group and other permissions away from a path we own (systemd or an admin may make it wider).

    The owner's bits are left alone: a directory made read-only on purpose stays read-only.
    """
    try:
        info = path.stat()
        current = stat.S_IMODE(info.st_mode)
        if current & 0o077 and info.st_uid == os.geteuid():
            os.chmod(path, current & 0o700)
    except OSError as error:
        log.warning("cannot make %s private: %s", path, error)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


_COMPANIONS = ("", "-wal", "-shm", "-journal")


def _aside_name(path: Path) -> Path:
    """A free ``<name>.damaged-<timestamp>`` beside the database."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while any(Path(f"{aside}{suffix}").exists() for suffix in _COMPANIONS):
        n += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    return aside


def _set_aside(path: Path) -> Path:
    """Rename the database (and its WAL files) to ``<name>.damaged-<timestamp>``; the new name."""
    aside = _aside_name(path)
    for suffix in _COMPANIONS:
        source = Path(f"{path}{suffix}")
        if source.exists():
            os.replace(source, f"{aside}{suffix}")
    _fsync_dir(path.parent)
    return aside


def _building_name(path: Path) -> Path:
    return path.with_name(f"{path.name}.new-{os.getpid()}")


def _remove_stale_builds(path: Path) -> None:
    """Remove databases a power cut left half built (see :func:`_create`)."""
    for stale in path.parent.glob(f"{path.name}.new-*"):
        try:
            stale.unlink()
        except OSError as error:
            log.warning("cannot remove the half-built %s: %s", stale, error)


def _create(path: Path) -> None:
    """Build an empty database with the schema beside ``path`` and rename it into place.

    SQLite takes an empty file for a new database, so a file created in place and cut off by a
    power cut before its schema was written would later look like a new kit and hide the loss.
    """
    building = _building_name(path)
    for suffix in _COMPANIONS:
        Path(f"{building}{suffix}").unlink(missing_ok=True)
    fd = os.open(building, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    os.close(fd)
    connection = sqlite3.connect(building, isolation_level=None)
    try:
        connection.execute("PRAGMA synchronous = FULL")
        connection.executescript(f"BEGIN IMMEDIATE; {_SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
    finally:
        connection.close()
    os.replace(building, path)
    _fsync_dir(path.parent)


class GameStore:
    """The current game, its log and the user settings in ``<state_dir>/labkit.db``.

    Open with :meth:`GameStore.open`; all methods are thread-safe. Writes raise
    :class:`StorageError` when the disk refuses them and leave the stored state as it was.
    """

    def __init__(self, path: Path, connection: sqlite3.Connection, notice: str | None,
                 has_game: bool, settings: dict[str, str]) -> None:
        self.path = path
        self.notice = notice
        self._conn: sqlite3.Connection | None = connection
        self._lock = threading.RLock()
        self._has_game = has_game
        self.settings: Settings = _DatabaseSettings(self, settings)

    @classmethod
    def open(cls, state_dir: Path | str) -> GameStore:
        """Open (or create) the store in ``state_dir``; a damaged database is set aside, see :attr:`notice`.

        Raises :class:`StorageError` only when the directory or the database cannot be created or
        opened at all (read-only, full, permission denied).
        """
        state_dir = Path(state_dir)
        path = state_dir / DB_NAME
        try:
            state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            raise _storage_error(error, "create the state directory", state_dir) from None
        _private(state_dir)
        notice = None
        try:
            opened = cls._connect(path)
        except _Damaged as damage:
            try:
                aside = _set_aside(path)
            except OSError as error:
                raise _storage_error(error, "set the damaged state database aside", path) from None
            notice = f"state database was damaged ({damage}); kept aside as {aside.name}, started clean"
            log.error("%s: %s", path, notice)
            try:
                opened = cls._connect(path)
            except _Damaged as again:  # pragma: no cover - a fresh file cannot be damaged
                raise StorageError(f"cannot start a clean state database: {again} ({path})", errno.EIO,
                                   path) from None
        connection, has_game, settings = opened
        return cls(path, connection, notice, has_game, settings)

    @staticmethod
    def _connect(path: Path) -> tuple[sqlite3.Connection, bool, dict[str, str]]:
        """Create the database if there is none; connect, set the PRAGMAs, check integrity and schema."""
        try:
            _remove_stale_builds(path)
            if not path.exists():
                _create(path)
            fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
            try:
                empty = os.fstat(fd).st_size == 0
            finally:
                os.close(fd)
        except (OSError, sqlite3.Error) as error:
            raise _storage_error(error, "open the state database", path) from None
        if empty:  # its WAL, if any, is set aside with it
            raise _Damaged("the file is empty")
        _private(path)
        try:
            connection = sqlite3.connect(path, timeout=5, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            raise _storage_error(error, "open the state database", path) from None
        try:
            result = GameStore._prepare(connection, path)
        except BaseException:
            connection.close()
            raise
        return connection, *result

    @staticmethod
    def _prepare(connection: sqlite3.Connection, path: Path) -> tuple[bool, dict[str, str]]:
        try:
            # look before touching: a foreign or damaged file is set aside unmodified
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            problems = [row[0] for row in connection.execute("PRAGMA integrity_check(5)")]
            if problems != ["ok"]:
                raise _Damaged("integrity check: " + "; ".join(problems))
            tables = {row[0] for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if version != SCHEMA_VERSION:
                raise _Damaged(f"unknown schema version {version}")
            if not _TABLES <= tables:
                raise _Damaged("tables missing: " + ", ".join(sorted(_TABLES - tables)))
            games = [row[0] for row in connection.execute("SELECT data FROM game")]
            has_log = connection.execute("SELECT EXISTS (SELECT 1 FROM log)").fetchone()[0]
            settings = _decode_settings(connection.execute("SELECT key, value FROM settings").fetchall())
            for text in games:
                if not isinstance(json.loads(text), dict):
                    raise _Damaged("the game record is not a JSON object")
            if has_log and not games:
                raise _Damaged("a log without a game")
            mode = connection.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":
                raise StorageError(f"cannot open the state database: WAL mode refused ({path})",
                                   errno.EIO, path)
            connection.execute("PRAGMA synchronous = FULL")
            return bool(games), settings
        except (ValueError, TypeError) as error:  # json.JSONDecodeError is a ValueError
            raise _Damaged(f"unreadable game record: {error}") from None
        except sqlite3.DatabaseError as error:
            name = getattr(error, "sqlite_errorname", "") or ""
            if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or isinstance(
                error, (sqlite3.IntegrityError, sqlite3.DataError)
            ):
                raise _Damaged(str(error)) from None
            raise _storage_error(error, "open the state database", path) from None

    # -- writing ----------------------------------------------------------------------------------

    def _write(self, what: str, statements: list[tuple[str, tuple[object, ...]]]) -> None:
        """Run ``statements`` in one transaction; on failure roll back and raise StorageError."""
        with self._lock:
            connection = self._connection()
            try:
                connection.execute("BEGIN IMMEDIATE")
                try:
                    for sql, parameters in statements:
                        connection.execute(sql, parameters)
                    connection.execute("COMMIT")
                except BaseException:
                    if connection.in_transaction:
                        try:
                            connection.execute("ROLLBACK")
                        except sqlite3.Error as error:
                            log.warning("rollback failed on %s: %s", self.path, error)
                    raise
            except sqlite3.Error as error:
                raise _storage_error(error, what, self.path) from None

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise ValueError(f"the store {self.path} is closed")
        return self._conn

    def save_game(self, game: JSON) -> None:
        """Make ``game`` the current game and clear the log, in one transaction."""
        self.rewrite(game, ())

    def rewrite(self, game: JSON, log: Iterable[JSON]) -> None:
        """Make ``game`` the current game with exactly ``log``, in one transaction."""
        text = _encode_dict(game, "game")
        entries = [("INSERT INTO log (data) VALUES (?)", (_encode_dict(entry, "log entry"),)) for entry in log]
        with self._lock:
            self._write("save the game", [
                ("DELETE FROM log", ()),
                ("INSERT OR REPLACE INTO game (id, data, saved_at) VALUES (1, ?, ?)", (text, time.time())),
                *entries,
            ])
            self._has_game = True

    def keep_copy(self) -> Path:
        """Copy the database as it is to a free ``labkit.db.damaged-<timestamp>``, before a repair."""
        with self._lock:
            connection = self._connection()
            copy = _aside_name(self.path)
            try:
                fd = os.open(copy, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
                os.close(fd)
                target = sqlite3.connect(copy)
                try:
                    connection.backup(target)
                finally:
                    target.close()
            except (OSError, sqlite3.Error) as error:
                raise _storage_error(error, "keep a copy of the saved game", copy) from None
            _fsync_dir(self.path.parent)
            return copy

    def append(self, entry: JSON) -> None:
        """Add one entry to the current game's log, in one transaction (durable when this returns)."""
        text = _encode_dict(entry, "log entry")
        with self._lock:
            if not self._has_game:
                raise ValueError("cannot append a log entry: no game is saved")
            self._write("record the result", [("INSERT INTO log (data) VALUES (?)", (text,))])

    def clear(self) -> None:
        """Forget the current game and its log (the settings stay)."""
        with self._lock:
            self._write("clear the game", [("DELETE FROM log", ()), ("DELETE FROM game", ())])
            self._has_game = False

    # -- reading ----------------------------------------------------------------------------------

    def load(self) -> StoredGame | None:
        """The current game and its log in order, or ``None`` when there is no game."""
        with self._lock:
            connection = self._connection()
            try:
                connection.execute("BEGIN")
                try:
                    row = connection.execute("SELECT data FROM game WHERE id = 1").fetchone()
                    entries = [r[0] for r in connection.execute("SELECT data FROM log ORDER BY seq")]
                finally:
                    connection.execute("COMMIT")
            except sqlite3.Error as error:
                raise _storage_error(error, "read the game", self.path) from None
        if row is None:
            return None
        log_entries, unreadable = _decode_entries(entries)
        return StoredGame(json.loads(row[0]), log_entries, unreadable)

    def close(self) -> None:
        """Close the database (idempotent); SQLite checkpoints the WAL on the last close."""
        with self._lock:
            if self._conn is not None:
                try:
                    self._conn.close()
                except sqlite3.Error as error:
                    log.warning("closing %s: %s", self.path, error)
                self._conn = None

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._conn is None else ("a game" if self._has_game else "no game")
        return f"<GameStore {self.path} ({state})>"


def memory_copy(state_dir: Path | str, notice: str | None = None) -> MemoryStore:
    """A :class:`MemoryStore` holding whatever can still be read from ``state_dir`` without writing.

    For going on in memory when :meth:`GameStore.open` raised :class:`StorageError` (say the SD card
    was remounted read-only): the game in progress and the settings stay visible. Nothing readable
    (no file, unreadable, damaged) gives an empty memory store; this function never raises.
    """
    path = Path(state_dir) / DB_NAME
    empty = MemoryStore(notice=notice)
    if not path.is_file():
        return empty
    quoted = urllib.parse.quote(str(path.resolve()))
    # mode=ro still reads the WAL; immutable=1 also works where no -shm file can be created
    for options in ("mode=ro", "mode=ro&immutable=1"):
        try:
            connection = sqlite3.connect(f"file:{quoted}?{options}", uri=True, timeout=1)
        except sqlite3.Error:
            continue
        try:
            if connection.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
                return empty
            row = connection.execute("SELECT data FROM game WHERE id = 1").fetchone()
            entries = [r[0] for r in connection.execute("SELECT data FROM log ORDER BY seq")]
            settings = {k: json.loads(v) for k, v in
                        _decode_settings(connection.execute("SELECT key, value FROM settings")).items()}
            game = None if row is None else json.loads(row[0])
            log_entries = _decode_entries(entries)[0] if game is not None else []
            return MemoryStore(game, log_entries, settings, notice)
        except (sqlite3.Error, ValueError, TypeError) as error:
            log.warning("cannot read %s (%s): %s", path, options, error)
        finally:
            connection.close()
    return empty
