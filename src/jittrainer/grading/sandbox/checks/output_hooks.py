"""A function whose results pass through a hook before the caller sees them, ahead-of-time copies included: what
a check installs to watch (or change) what a jitted or mapped function of the learner's returns."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any


def hooked(real: Callable[..., Any], after: Callable[[Any], Any]) -> Callable[..., Any]:
    """``real`` with ``after(out)`` returned in place of each result ``out``; ``real.lower(...).compile()`` gives a
    compiled function hooked alike."""

    @functools.wraps(real)
    def call(*args: Any, **kwargs: Any) -> Any:
        return after(real(*args, **kwargs))

    call.lower = lambda *args, **kwargs: HookedLowered(real.lower(*args, **kwargs), after)  # type: ignore[attr-defined]
    return call


class HookedLowered:
    """A lowered function whose ``compile()`` gives a compiled function with ``after`` on its results."""

    def __init__(self, real: Any, after: Callable[[Any], Any]) -> None:
        self._real, self._after = real, after

    def compile(self, *args: Any, **kwargs: Any) -> HookedCompiled:
        return HookedCompiled(self._real.compile(*args, **kwargs), self._after)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class HookedCompiled:
    def __init__(self, real: Any, after: Callable[[Any], Any]) -> None:
        self._real, self._after = real, after

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._after(self._real(*args, **kwargs))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class Hooked:
    """A stand-in for ``real`` (a jitted function handed to the learner's code) named ``name``, whose results, and
    those of its ahead-of-time copies (``.lower(x).compile()``), pass through ``after``; every other attribute is
    ``real``'s."""

    def __init__(self, real: Any, after: Callable[[Any], Any], name: str, doc: str | None = None) -> None:
        self._real, self._after = real, after
        self.__name__ = self.__qualname__ = name
        self.__doc__ = doc

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._after(self._real(*args, **kwargs))

    def lower(self, *args: Any, **kwargs: Any) -> HookedLowered:
        return HookedLowered(self._real.lower(*args, **kwargs), self._after)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def __repr__(self) -> str:
        return f"<jitted function {self.__name__}>"
