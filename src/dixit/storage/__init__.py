"""Event stores: memory, SQLite (the default) and PostgreSQL, chosen by URL."""

from __future__ import annotations

import os
from pathlib import Path

from .base import (
    CommandKey,
    DuplicateCommand,
    EventStore,
    JSONDict,
    Lease,
    RoomRecord,
    StaleRoom,
    StorageError,
    StoreBusy,
    StoredEvent,
    StoreFull,
    StoreStats,
    StoreUnavailable,
    VersionConflict,
    VersionedRoom,
)
from .memory import MemoryEventStore
from .sqlite import SQLiteEventStore


def default_data_dir() -> Path:
    """``$DIXIT_DATA_DIR``, else ``$XDG_DATA_HOME/dixit``, else ``~/.local/share/dixit``."""
    explicit = os.environ.get("DIXIT_DATA_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "dixit"


def default_database_url() -> str:
    return f"sqlite:///{default_data_dir() / 'dixit.sqlite3'}"


def open_store(url: str) -> EventStore:
    """A store for ``memory://``, ``sqlite:///path`` (``sqlite:///:memory:``) or
    ``postgresql://…``. Call ``await store.open()`` before use."""
    if url.startswith("memory:"):
        return MemoryEventStore()
    if url.startswith("sqlite:"):
        # As SQLAlchemy spells it: sqlite:///relative.db, sqlite:////absolute/path.db
        path = url.removeprefix("sqlite:").removeprefix("///")
        if not path or path.startswith("sqlite:"):
            raise ValueError(f"no path in database URL {url!r}")
        return SQLiteEventStore(path)
    if url.startswith(("postgresql:", "postgres:")):
        from .postgres import PostgresEventStore

        return PostgresEventStore(url)
    raise ValueError(f"unsupported database URL {url!r} (memory://, sqlite:///…, postgresql://…)")


__all__ = [
    "CommandKey",
    "DuplicateCommand",
    "EventStore",
    "JSONDict",
    "Lease",
    "MemoryEventStore",
    "RoomRecord",
    "SQLiteEventStore",
    "StaleRoom",
    "StorageError",
    "StoreBusy",
    "StoreFull",
    "StoreStats",
    "StoreUnavailable",
    "StoredEvent",
    "VersionConflict",
    "VersionedRoom",
    "default_data_dir",
    "default_database_url",
    "open_store",
]
