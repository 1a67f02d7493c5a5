"""Watching a plain function object in place: every call of it, through any name or alias that holds the object
(``_report = report`` made at import, a default argument, a partial), is seen, and then runs as before. A check
that replaces a module's function by name uses this to recognise a call of the original it could not replace."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any


def watch_calls(fn: Any, on_call: Callable[..., Any]) -> bool:
    """Make ``on_call(*args, **kwargs)`` run before each call of ``fn``, whoever holds it: its code is swapped for a
    trampoline that calls ``on_call`` and then the original body. Only a plain function without a closure can be
    watched: False (``fn`` untouched) for anything else::

        original = g.replace("report", recorder)          # the module's name now holds the recorder
        watch_calls(original, lambda *args, **kwargs: stale.append(args))   # an alias made at import is seen too
    """
    if not isinstance(fn, types.FunctionType) or fn.__closure__:
        return False
    try:
        body = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, None)
        body.__kwdefaults__ = fn.__kwdefaults__

        def spy(*args, **kwargs):
            on_call(*args, **kwargs)
            return body(*args, **kwargs)

        def trampoline(*args, _jittrainer_spy=None, **kwargs):
            return _jittrainer_spy(*args, **kwargs)

        fn.__code__ = trampoline.__code__
        fn.__defaults__ = None
        fn.__kwdefaults__ = {"_jittrainer_spy": spy}
    except Exception:
        return False
    return True
