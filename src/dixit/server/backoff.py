"""How long a room's background work waits after a store or fan-out error before trying again.

One pair for the lease driver and keeper (:mod:`.driver`), the timers and computer players
(:mod:`.autoplay`) and the follower (:mod:`.follow`): half a second first, doubling to five, so
a store that fails for a moment costs a moment, and one that is down is not hammered.
"""

from __future__ import annotations

BACKOFF = (0.5, 5.0)  # seconds between tries after an error: first, longest
