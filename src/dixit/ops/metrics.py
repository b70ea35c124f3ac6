"""A small Prometheus text-format registry: counters, gauges read at scrape time, histograms
with fixed buckets, and the garbage collector's pauses (``gc.callbacks``).

Recording is a few additions (no locks: everything runs on the event loop's thread, except
the collector callback, which the interpreter calls with the GIL held)."""

from __future__ import annotations

import bisect
import gc
import math
import os
import time
from collections.abc import Callable, Iterable

Labels = tuple[tuple[str, str], ...]

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


def _labels(labels: Labels, extra: str = "") -> str:
    parts = [f'{k}="{_escape(v)}"' for k, v in labels]
    if extra:
        parts.append(extra)
    return "{" + ",".join(parts) + "}" if parts else ""


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _number(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return repr(float(value)) if not float(value).is_integer() else str(int(value))


class Counter:
    def __init__(self) -> None:
        self.values: dict[Labels, float] = {}

    def inc(self, amount: float = 1.0, labels: Labels = ()) -> None:
        self.values[labels] = self.values.get(labels, 0.0) + amount

    def samples(self, name: str) -> Iterable[str]:
        for labels, value in sorted(self.values.items()):
            yield f"{name}{_labels(labels)} {_number(value)}"


class Gauge:
    """A value read when scraped (``read``) or set by hand."""

    def __init__(self, read: Callable[[], Iterable[tuple[Labels, float]]] | None = None) -> None:
        self.read = read
        self.values: dict[Labels, float] = {}

    def set(self, value: float, labels: Labels = ()) -> None:
        self.values[labels] = value

    def samples(self, name: str) -> Iterable[str]:
        values = dict(self.values)
        if self.read is not None:
            values.update(self.read())
        for labels, value in sorted(values.items()):
            yield f"{name}{_labels(labels)} {_number(value)}"


class Histogram:
    def __init__(self, buckets: tuple[float, ...] = LATENCY_BUCKETS) -> None:
        self.bounds = buckets
        self.series: dict[Labels, tuple[list[int], list[float]]] = {}  # counts, [sum, max]

    def observe(self, value: float, labels: Labels = ()) -> None:
        series = self.series.get(labels)
        if series is None:
            series = self.series[labels] = ([0] * (len(self.bounds) + 1), [0.0, 0.0])
        series[0][bisect.bisect_left(self.bounds, value)] += 1
        series[1][0] += value
        if value > series[1][1]:
            series[1][1] = value

    def count(self, labels: Labels = ()) -> int:
        series = self.series.get(labels)
        return 0 if series is None else sum(series[0])

    def samples(self, name: str) -> Iterable[str]:
        for labels, (counts, (total, _)) in sorted(self.series.items()):
            running = 0
            for bound, count in zip((*self.bounds, math.inf), counts, strict=True):
                running += count
                le = f'le="{_number(bound)}"'
                yield f"{name}_bucket{_labels(labels, le)} {running}"
            yield f"{name}_sum{_labels(labels)} {_number(total)}"
            yield f"{name}_count{_labels(labels)} {running}"


Metric = Counter | Gauge | Histogram


class Registry:
    def __init__(self) -> None:
        self._metrics: dict[str, tuple[str, str, Metric]] = {}

    def _add(self, name: str, kind: str, help_text: str, metric: Metric) -> Metric:
        if name in self._metrics:
            raise ValueError(f"metric {name!r} registered twice")
        self._metrics[name] = (kind, help_text, metric)
        return metric

    def counter(self, name: str, help_text: str) -> Counter:
        metric = Counter()
        self._add(name, "counter", help_text, metric)
        return metric

    def gauge(
        self,
        name: str,
        help_text: str,
        read: Callable[[], Iterable[tuple[Labels, float]]] | None = None,
    ) -> Gauge:
        metric = Gauge(read)
        self._add(name, "gauge", help_text, metric)
        return metric

    def histogram(
        self, name: str, help_text: str, buckets: tuple[float, ...] = LATENCY_BUCKETS
    ) -> Histogram:
        metric = Histogram(buckets)
        self._add(name, "histogram", help_text, metric)
        return metric

    def render(self) -> str:
        """The whole registry in the Prometheus text exposition format (version 0.0.4)."""
        lines: list[str] = []
        for name, (kind, help_text, metric) in self._metrics.items():
            lines.append(f"# HELP {name} {help_text}")
            lines.append(f"# TYPE {name} {kind}")
            lines.extend(metric.samples(name))
        return "\n".join(lines) + "\n"


CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

GC_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


class GCPauses:
    """Every garbage-collector pass, timed from ``gc.callbacks``: a pause of the whole process
    (the event loop included). ``install`` once; ``remove`` on shutdown."""

    def __init__(self, registry: Registry) -> None:
        self.pauses = registry.histogram(
            "dixit_gc_pause_seconds",
            "Garbage-collector passes by generation (the whole process stops meanwhile)",
            GC_BUCKETS,
        )
        self.longest = registry.gauge(
            "dixit_gc_pause_max_seconds", "Longest garbage-collector pass since start"
        )
        self._started = 0.0
        self._max = 0.0

    def install(self) -> None:
        if self._callback not in gc.callbacks:
            gc.callbacks.append(self._callback)

    def remove(self) -> None:
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        pause = time.perf_counter() - self._started
        self.pauses.observe(pause, (("generation", str(info.get("generation", -1))),))
        if pause > self._max:
            self._max = pause
            self.longest.set(pause)


def process_samples() -> Iterable[tuple[Labels, float]]:
    """Resident memory in bytes (Linux ``/proc``; nothing elsewhere)."""
    try:
        with open("/proc/self/statm") as statm:
            resident_pages = int(statm.read().split()[1])
    except (OSError, IndexError, ValueError):
        return []
    return [((), resident_pages * os.sysconf("SC_PAGE_SIZE"))]


def cpu_samples() -> Iterable[tuple[Labels, float]]:
    times = os.times()
    return [((), times.user + times.system)]
