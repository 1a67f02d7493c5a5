"""Reading what a learner's value is without running any of its code.

``isinstance(v, T)`` asks ``v.__class__`` when ``type(v)`` is not a subclass of ``T``, and a class may define
``__class__`` as a property; ``kind in (int, float)`` and ``kind in some_set`` call the ``__eq__`` and ``__hash__``
of its metaclass; ``kind.__name__`` and ``kind.__mro__`` can be properties of the metaclass too. Here a type is read
with ``type()`` and through ``type``'s own descriptors, and compared by identity only.
"""

from __future__ import annotations

from typing import Any

_MRO = type.__dict__["__mro__"]
_NAME = type.__dict__["__name__"]


def mro(kind: type) -> tuple[type, ...]:
    """``kind.__mro__`` as ``type`` keeps it (a metaclass cannot answer instead)."""
    return _MRO.__get__(kind)


def name(kind: type) -> str:
    """``kind.__name__`` as ``type`` keeps it."""
    return str.__str__(_NAME.__get__(kind))


def type_name(value: Any) -> str:
    return name(type(value))


def is_exactly(value: Any, *kinds: type) -> bool:
    """``type(value)`` is one of ``kinds`` (identity: no ``__eq__`` is asked)."""
    kind = type(value)
    return any(kind is k for k in kinds)


def derives(value: Any, *bases: type) -> bool:
    """``type(value)`` is one of ``bases`` or a subclass of one, by its real method resolution order: what
    ``isinstance`` says without asking the value's ``__class__``."""
    chain = mro(type(value))
    return any(c is b for c in chain for b in bases)


def plain_str(value: Any) -> str | None:
    """``value`` as an exact ``str`` when it is one (a ``str`` subclass copied without its methods), else None."""
    return str.__str__(value) if derives(value, str) else None
