"""Everything a server instance is configured with (the CLI fills it from its options)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import dixit
from dixit.storage.retention import Retention

from .limits import RateLimits


def default_client_dir() -> Path:
    """The client an installed wheel carries (``dixit/server/client``, setup.py), or else
    ``web/dist`` of the source checkout this package is installed from (editable install)."""
    bundled = Path(__file__).resolve().parent / "client"
    if bundled.is_dir():
        return bundled
    return Path(dixit.__file__).resolve().parents[2] / "web" / "dist"


@dataclass(frozen=True)
class Limits:
    max_rooms: int = 5000
    max_spectators: int = 32
    messages_per_second: float = 20.0
    message_burst: int = 40
    send_buffer_bytes: int = 4 * 1024 * 1024  # unsent to a socket: past it, it is dropped
    hello_timeout_s: float = 15.0
    max_upload_bytes: int = 64 * 1024 * 1024


@dataclass(frozen=True)
class ServerConfig:
    database: str = "memory://"
    pubsub: str = "memory://"
    data_dir: Path = field(default_factory=lambda: Path.home() / ".local" / "share" / "dixit")
    client_dir: Path = field(default_factory=default_client_dir)
    bot_delay_s: float = 1.0  # scale of computer players' pace: 1 a person's, 0 at once
    idle_unload_s: float = 120.0  # a room nobody has used this long leaves memory (not the store)
    finished_unload_s: float = 15.0  # the same for a room whose game is over
    limits: Limits = field(default_factory=Limits)
    rate_limits: RateLimits = field(default_factory=RateLimits)
    retention: Retention = field(default_factory=Retention)  # what the store keeps, how long
    # Pages of these origins (``https://example.org``) may open room sockets besides the
    # server's own; ``*`` any.
    allowed_origins: tuple[str, ...] = ()
    # One process drives a room's timers and computer players at a time: it holds the lease
    # ``room:CODE`` in the event store for this long, renewing it every third of it. A holder
    # that dies is replaced within about this time.
    lease_ttl_s: float = 6.0
    # Each socket says "here" in the shared presence this often; an entry lives three beats.
    presence_beat_s: float = 5.0
    # Under ``dixit serve --workers N``: this process is worker ``worker`` of ``workers``, and
    # serves the sockets of the rooms it owns (:mod:`.handoff`); other rooms it loads for a
    # lobby request leave memory at the next sweep.
    workers: int = 1
    worker: int = 1
