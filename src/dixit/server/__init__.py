"""The game server: lobby HTTP API, one WebSocket per player per room, durable event log."""

from .app import create_app
from .config import Limits, ServerConfig

__all__ = ["Limits", "ServerConfig", "create_app"]
