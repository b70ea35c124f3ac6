"""The Prometheus text registry, the collector-pause probe and the JSON log lines."""

from __future__ import annotations

import gc
import json
import logging
import sys

from dixit.ops.logs import JsonFormatter, log_config
from dixit.ops.metrics import GCPauses, Registry


def test_the_text_format_has_cumulative_buckets_sums_and_escaped_labels() -> None:
    registry = Registry()
    counter = registry.counter("x_total", "things")
    histogram = registry.histogram("x_seconds", "time", (0.1, 1.0))
    registry.gauge("x_now", "read at scrape", lambda: [((("k", 'a"b\n'),), 2.5)])
    counter.inc(2, (("answer", "ack"),))
    for value in (0.05, 0.5, 0.7, 3.0):
        histogram.observe(value)
    lines = registry.render().splitlines()
    assert "# TYPE x_total counter" in lines
    assert 'x_total{answer="ack"} 2' in lines
    assert [line for line in lines if line.startswith("x_seconds")] == [
        'x_seconds_bucket{le="0.1"} 1',
        'x_seconds_bucket{le="1"} 3',
        'x_seconds_bucket{le="+Inf"} 4',
        "x_seconds_sum 4.25",
        "x_seconds_count 4",
    ]
    assert 'x_now{k="a\\"b\\n"} 2.5' in lines
    assert histogram.count() == 4


def test_collector_passes_are_timed_by_generation() -> None:
    registry = Registry()
    pauses = GCPauses(registry)
    pauses.install()
    try:
        gc.collect(2)
    finally:
        pauses.remove()
    assert pauses.pauses.count((("generation", "2"),)) >= 1
    assert pauses._callback not in gc.callbacks
    assert "dixit_gc_pause_max_seconds " in registry.render()


def test_json_log_lines() -> None:
    formatter = JsonFormatter()
    try:
        raise ValueError("disk on fire")
    except ValueError:
        record = logging.LogRecord("dixit.server", logging.ERROR, "f", 1, "room %s", ("AB",), None)
        record.exc_info = sys.exc_info()
    record.room = "AB"
    entry = json.loads(formatter.format(record))
    assert entry["message"] == "room AB" and entry["level"] == "error"
    assert entry["error"] == "ValueError" and entry["room"] == "AB"
    assert log_config("json", "info")["formatters"]["main"] == {"()": JsonFormatter}
