"""Computer players. A bot sees only a :class:`~dixit.engine.PlayerView` and answers a command."""

from .base import Bot
from .random_bot import RandomBot

__all__ = ["Bot", "RandomBot"]
