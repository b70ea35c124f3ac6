"""What every room of one server process shares: its settings, the event store, the card
source, the fan-out, the shared presence, and the keeper that renews its rooms' leases.

Built once by the composition root (``app.py``, the CLI, tests) and handed to the hub, which
hands each room the parts it needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dixit.pubsub import MemoryPresence, Presence, PubSub
from dixit.storage import EventStore

from .cards import CardSource
from .config import ServerConfig
from .driver import LeaseKeeper
from .liveness import lease_holder


@dataclass(frozen=True)
class Services:
    config: ServerConfig
    store: EventStore
    cards: CardSource
    pubsub: PubSub
    origin: str  # this process, in fan-out messages (several processes may share a store)
    presence: Presence = field(default_factory=MemoryPresence)  # who is connected, shared
    leases: LeaseKeeper = field(init=False, repr=False, compare=False)  # this process's

    def __post_init__(self) -> None:
        keeper = LeaseKeeper(self.store, self.holder, self.config.lease_ttl_s)
        object.__setattr__(self, "leases", keeper)  # frozen: set once, here

    @property
    def holder(self) -> str:
        """This process's name on the leases it holds (:mod:`.liveness`)."""
        return lease_holder(self.origin)
