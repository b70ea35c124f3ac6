"""Frozen values that are quick to make.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__`` (its own
``__setattr__`` refuses). :func:`quick_init` gives a frozen, slotted dataclass an ``__init__``
with the same parameters that writes each slot through its slot descriptor instead: about half
the cost, which matters for commands and events, made by the hundred in every game. Everything
else (frozen assignment, equality, hashing, ``repr``, ``fields``, ``replace``) is the dataclass's.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Replace the ``__init__`` of ``cls``, a ``@dataclass(frozen=True, slots=True)``."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a frozen, slotted dataclass")
    namespace: dict[str, Any] = {}
    parameters: list[str] = []
    body: list[str] = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if not f.init or f.default_factory is not dataclasses.MISSING or f.kw_only:
            raise TypeError(f"{cls.__name__}.{f.name}: only plain fields are supported")
        namespace[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        if f.default is dataclasses.MISSING:
            parameters.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            parameters.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = "\n".join([f"def __init__(self, {', '.join(parameters)}):", *body, "    pass"])
    exec(source, namespace)  # the way dataclasses itself writes __init__
    init = namespace["__init__"]
    original = cls.__dict__["__init__"]
    init.__qualname__ = original.__qualname__
    init.__module__ = original.__module__
    init.__annotations__ = dict(original.__annotations__)
    init.__doc__ = original.__doc__
    setattr(cls, "__init__", init)  # noqa: B010 (mypy refuses a direct assignment)
    return cls
