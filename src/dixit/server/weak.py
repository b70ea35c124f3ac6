"""Callables that do not keep their object alive.

A room hands its parts (driver, computer players, card shelf, table talk) callables made of its
own methods and fields. Held as they are, each would be a reference cycle (room → part →
method → room), and an unloaded room would wait for a full garbage collection, which the server
makes rare; made here, the room is freed by reference counting the moment the hub drops it.
Once the object is gone, a call raises :class:`ReferenceError` (as a ``weakref.proxy`` does).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")


def _target(ref: weakref.ReferenceType[T]) -> T:
    target = ref()
    if target is None:
        raise ReferenceError("its object is gone")
    return target


def weakly(obj: T, method: Callable[Concatenate[T, P], R]) -> Callable[P, R]:
    """``method`` of ``obj`` (``weakly(room, Room.apply)``), ``obj`` held weakly."""
    ref = weakref.ref(obj)

    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        return method(_target(ref), *args, **kwargs)

    return call


def weakly_read(obj: T, read: Callable[[T], R]) -> Callable[[], R]:
    """What ``read`` answers of ``obj`` now (``weakly_read(room, lambda room: room.data)``),
    ``obj`` held weakly. ``read`` must not hold ``obj`` itself."""
    ref = weakref.ref(obj)
    return lambda: read(_target(ref))
