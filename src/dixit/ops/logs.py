"""Structured logs: one JSON object a line (time, level, logger, message, and the exception's
type and text when there is one), for the server's own loggers and uvicorn's."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in STANDARD and not key.startswith("_") and key != "color_message":
                entry[key] = value if isinstance(value, str | int | float | bool) else repr(value)
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            entry["error"] = type(error).__name__
            entry["error_message"] = str(error)
            entry["traceback"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def log_config(fmt: str, level: str) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for uvicorn's ``log_config``: ``text`` or ``json``, on
    stderr, for uvicorn's loggers and the root one (so ``dixit.*`` loggers too)."""
    if fmt not in ("text", "json"):
        raise ValueError(f"log format {fmt!r}: text or json")
    formatter: dict[str, Any] = (
        {"()": JsonFormatter}
        if fmt == "json"
        else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    level = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "main"}},
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": level, "propagate": False},
            "uvicorn.error": {"handlers": ["stderr"], "level": level, "propagate": False},
            "uvicorn.access": {"handlers": ["stderr"], "level": level, "propagate": False},
        },
        "root": {"handlers": ["stderr"], "level": level},
    }
