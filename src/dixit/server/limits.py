"""Rate limits: the one token bucket of the server, and per-client buckets for the lobby
routes and WebSocket connects and hellos.

A client is its address: the peer's, or, with ``trust_proxy``, the last address a proxy in
front of us added to ``X-Forwarded-For`` (a client can write any value it likes before it,
never after it). A party behind one home router is one client, so the defaults let a dozen
people create, join and reconnect at once (docs/deploy.md, *Limits*).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

# Per client address: (burst, sustained per minute). A dozen people behind one router each
# create or join a room, open a socket, reconnect now and then and poll the open tables.
DEFAULT_RATES: dict[str, tuple[int, float]] = {
    "create": (20, 30.0),  # POST /api/rooms
    "join": (40, 60.0),  # POST /api/rooms/{code}/join
    "spectate": (20, 30.0),  # POST /api/rooms/{code}/spectate
    "upload": (10, 10.0),  # POST /api/decks and /api/decks/{slug}/cards
    "decks": (60, 120.0),  # deck edits: captions, rename, delete
    "tables": (60, 240.0),  # GET /api/tables, and reports of a table
    "connect": (60, 240.0),  # WebSocket handshakes of /ws/{code}
    "hello": (60, 240.0),  # hello messages on those sockets
}
ROUTES = tuple(DEFAULT_RATES)
MAX_CLIENTS = 50_000  # buckets kept per route; past it, the full (idle) ones are forgotten


class Bucket:
    """``burst`` at once, ``per_second`` sustained."""

    __slots__ = ("burst", "per_second", "stamp", "tokens")

    def __init__(self, burst: float, per_second: float) -> None:
        self.burst, self.per_second = float(burst), per_second
        self.tokens, self.stamp = float(burst), time.monotonic()

    def _refill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.per_second)
        self.stamp = now

    def take(self) -> bool:
        self._refill(time.monotonic())
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait_s(self) -> float:
        """Seconds until the next token (0 when one is there)."""
        self._refill(time.monotonic())
        if self.tokens >= 1:
            return 0.0
        return math.inf if self.per_second <= 0 else (1 - self.tokens) / self.per_second

    def full(self, now: float) -> bool:
        return self.tokens + (now - self.stamp) * self.per_second >= self.burst


@dataclass(frozen=True)
class Rate:
    burst: int
    per_minute: float


def parse_rate(text: str) -> tuple[str, Rate]:
    """``ROUTE=BURST/PER_MINUTE`` (``create=20/30``) as a route and its rate."""
    route, _, value = text.partition("=")
    burst, _, per_minute = value.partition("/")
    route = route.strip()
    if route not in DEFAULT_RATES:
        raise ValueError(f"no rate-limited route {route!r} (one of {', '.join(ROUTES)})")
    try:
        rate = Rate(int(burst), float(per_minute))
    except ValueError:
        raise ValueError(f"{text!r}: write ROUTE=BURST/PER_MINUTE, e.g. create=20/30") from None
    if rate.burst < 1 or not 0 < rate.per_minute < math.inf:
        raise ValueError(f"{text!r}: the burst is at least 1 and the rate positive")
    return route, rate


@dataclass(frozen=True)
class RateLimits:
    """What a server limits: on or off, each route's rate, and whether to read the client's
    address from ``X-Forwarded-For``."""

    enabled: bool = True
    trust_proxy: bool = False
    rates: Mapping[str, Rate] = field(
        default_factory=lambda: {k: Rate(*v) for k, v in DEFAULT_RATES.items()}
    )

    def with_rates(self, changes: Iterable[tuple[str, Rate]]) -> RateLimits:
        return RateLimits(self.enabled, self.trust_proxy, {**self.rates, **dict(changes)})


class Limiter:
    """Per route, one bucket per client address."""

    def __init__(
        self, limits: RateLimits, refused: Callable[[str], None] = lambda route: None
    ) -> None:
        self.limits = limits
        self._buckets: dict[str, dict[str, Bucket]] = {route: {} for route in limits.rates}
        self._refused = refused  # told the route of each refusal (for /metrics)

    def check(self, route: str, client: str) -> float:
        """0 when ``client`` may go on (a token is taken), else seconds to wait."""
        if not self.limits.enabled:
            return 0.0
        buckets = self._buckets[route]
        bucket = buckets.get(client)
        if bucket is None:
            if len(buckets) >= MAX_CLIENTS:
                self._forget_idle(buckets)
            rate = self.limits.rates[route]
            bucket = buckets[client] = Bucket(rate.burst, rate.per_minute / 60)
        if bucket.take():
            return 0.0
        self._refused(route)
        return max(bucket.wait_s(), 0.001)

    @staticmethod
    def _forget_idle(buckets: dict[str, Bucket]) -> None:
        """Drop the buckets that have filled up again (as good as new), then the oldest until
        a quarter of the room is free: memory stays bounded under a spread of addresses, and
        this scan (the only step not O(1)) runs at most once per ``MAX_CLIENTS // 4`` new
        clients, however few buckets are idle."""
        now = time.monotonic()
        for client in [c for c, bucket in buckets.items() if bucket.full(now)]:
            del buckets[client]
        excess = len(buckets) - MAX_CLIENTS * 3 // 4
        for client in list(itertools.islice(buckets, max(0, excess))):
            del buckets[client]

    def clients(self, route: str) -> int:
        return len(self._buckets[route])


def client_address(peer: str | None, forwarded_for: Iterable[str], trust_proxy: bool) -> str:
    """Who a request comes from: the peer, or with ``trust_proxy`` the address the proxy
    appended last to ``X-Forwarded-For`` (every header line of it taken in order)."""
    if trust_proxy:
        hops = [h.strip() for line in forwarded_for for h in line.split(",") if h.strip()]
        if hops:
            return hops[-1]
    return peer or "unknown"
