"""The game server: lobby HTTP API, one WebSocket per player per room, durable event log.

The application itself is :func:`dixit.server.app.create_app`; it is not imported here, so
that a supervisor (``dixit serve``), which only reads the configuration, does not import
FastAPI and pydantic as well as its workers' fork server."""

from .config import Limits, ServerConfig

__all__ = ["Limits", "ServerConfig"]
