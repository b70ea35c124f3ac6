"""Servers started by tests run without per-client rate limits (every test client is
127.0.0.1); the tests of the limits turn them on with ``--rate-limits on``."""

import os

os.environ.setdefault("DIXIT_RATE_LIMITS", "off")
