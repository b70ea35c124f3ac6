"""The wire protocol: typed, versioned JSON messages, their JSON Schema, per-viewer redaction."""

from .messages import PROTOCOL_VERSION, ClientMessage, ServerMessage
from .parse import ProtocolError, parse_client_message

__all__ = [
    "PROTOCOL_VERSION",
    "ClientMessage",
    "ProtocolError",
    "ServerMessage",
    "parse_client_message",
]
