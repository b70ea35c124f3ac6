"""Who holds a room's lease, told apart: a live process, or a dead one on this machine.

A lease's holder is ``ORIGIN@HOST:PID:START``: the process's random origin, a key of the
machine and process namespace it runs in (the kernel's boot id, the PID namespace, the host
name), its process id and the moment the kernel started it (``/proc/PID/stat``). A process
that finds a room's lease held by a holder with its own ``HOST`` key looks the ``PID`` up in
the kernel's process table, the live registry every process on the machine shares: no such
process, or one started at another moment (the id was reused), means the holder is dead, and
its lease may be taken over at once rather than after its time to live. That is what a
restarted single server (SQLite, or one of ``--workers``) finds after a crash. A holder on
another machine, in another container, or whose process is alive is never judged dead: its
lease is left to expire as before.
"""

from __future__ import annotations

import functools
import hashlib
import os
import socket
from pathlib import Path

PROC = Path("/proc")


def _read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


def _started(pid: int) -> str | None:
    """When the kernel started process ``pid`` (clock ticks since boot); None: no such
    process. Without ``/proc``, "0" for any process that exists."""
    stat = PROC / str(pid) / "stat"
    if not PROC.is_dir():
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            pass
        return "0"
    text = _read(stat)
    if not text:
        return None
    # The command name (field 2) is in parentheses and may hold spaces: split after it.
    fields = text.rpartition(")")[2].split()
    return fields[19] if len(fields) > 19 else None  # field 22: starttime


@functools.cache
def host_key() -> str:
    """This machine and PID namespace: process ids are comparable only within it."""
    try:
        namespace = os.readlink("/proc/self/ns/pid")
    except OSError:
        namespace = ""
    boot = _read(PROC / "sys/kernel/random/boot_id")
    seed = f"{boot}|{namespace}|{socket.gethostname()}"
    return hashlib.sha256(seed.encode()).hexdigest()[:12]


@functools.cache
def this_process() -> str:
    pid = os.getpid()
    return f"{host_key()}:{pid}:{_started(pid) or '0'}"


def lease_holder(origin: str) -> str:
    """The holder name of this process's leases."""
    return f"{origin}@{this_process()}"


def dead(holder: str) -> bool:
    """``holder`` is a process of this machine that is no longer running. False whenever that
    cannot be told (another machine, an older build's holder name): its lease then expires."""
    where = holder.rpartition("@")[2]
    host, _, rest = where.partition(":")
    pid_text, _, start = rest.partition(":")
    if host != host_key() or not pid_text.isdigit() or not start:
        return False
    started = _started(int(pid_text))
    return started is None or started != start
