"""Spies for a benchmark: reads of the clock made by the learner's own code, waits on arrays (block_until_ready,
is_ready), and backend compiles, each handed to the exercise's callback in the order they happen. Installed from an
exercise's ``setup(g)``, before the learner's file is imported: ``import time``, ``from time import perf_counter``
and timeit then all see the spies."""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable
from typing import Any

import jax
import jax.monitoring as monitoring
import numpy as np

from jittrainer.grading.sandbox.jax_compat import BACKEND_COMPILE_EVENT

# Every clock of the time module, with the factor that turns its reading into seconds.
CLOCKS = {"perf_counter": 1.0, "perf_counter_ns": 1e-9, "monotonic": 1.0, "monotonic_ns": 1e-9, "time": 1.0,
          "time_ns": 1e-9}
TIMEIT_SOURCE = "<timeit-src>"  # the file name of the loop timeit compiles


def spy_clocks(filename: str, on_read: Callable[[float, str], None]) -> None:
    """Replace the time module's clocks (and timeit's default timer) with spies that call ``on_read(seconds, clock
    name)`` for every read made by code of ``filename`` (or by the loop timeit compiles from it); reads made
    anywhere else pass through unseen."""
    import timeit  # imported here first, so its default timer can be pointed at the spy

    for name, scale in CLOCKS.items():
        real = getattr(time, name)
        spy = _clock_spy(real, name, scale, filename, on_read)
        setattr(time, name, spy)
        if name == "perf_counter":  # timeit's functions bound the real clock as a default argument
            timeit.default_timer = spy
            for fn in (timeit.Timer.__init__, timeit.timeit, timeit.repeat):
                if fn.__defaults__:
                    fn.__defaults__ = tuple(spy if d is real else d for d in fn.__defaults__)


def _clock_spy(real: Callable[[], Any], name: str, scale: float, filename: str,
               on_read: Callable[[float, str], None]) -> Callable[[], Any]:
    def clock() -> Any:
        value = real()
        if sys._getframe(1).f_code.co_filename in (filename, TIMEIT_SOURCE):
            on_read(value * scale, name)
        return value

    clock.__name__ = clock.__qualname__ = name
    clock.__doc__ = real.__doc__
    return clock


_REAL_IS_READY: list[Callable[[Any], bool]] = []


def spy_waits(on_wait: Callable[[Any, str], None]) -> None:
    """Replace ``jax.block_until_ready`` and the arrays' ``.block_until_ready()`` and ``.is_ready()`` with spies
    that call ``on_wait(value, how)``: how is "function" (with the tree it was given), "method", or "is_ready" (only
    when it answered True). The arrays a ``jax.block_until_ready`` waits on through their method are not reported
    twice. ``still_running`` asks the real ``is_ready``, unseen."""
    array_type = type(jax.device_put(np.float32(0.0)))
    block, ready = array_type.block_until_ready, array_type.is_ready
    _REAL_IS_READY[:] = [ready]
    quiet = [0]  # inside jax.block_until_ready: its own method calls are not the learner's

    def block_until_ready(self: Any) -> Any:
        if not quiet[0]:
            on_wait(self, "method")
        return block(self)

    def is_ready(self: Any) -> bool:
        answer = ready(self)
        if answer:
            on_wait(self, "is_ready")
        return answer

    array_type.block_until_ready = block_until_ready
    array_type.is_ready = is_ready
    real_block = jax.block_until_ready

    def block_tree(x: Any) -> Any:
        on_wait(x, "function")
        quiet[0] += 1
        try:
            return real_block(x)
        finally:
            quiet[0] -= 1

    functools.update_wrapper(block_tree, real_block)
    jax.block_until_ready = block_tree


def still_running(arrays: Any) -> int:
    """How many of ``arrays`` were still being computed at this moment (asked without ``spy_waits`` seeing it; an
    array that cannot answer, a deleted one, counts as done)."""
    is_ready = _REAL_IS_READY[0] if _REAL_IS_READY else type(jax.device_put(np.float32(0.0))).is_ready
    busy = 0
    for out in arrays:
        try:
            busy += not is_ready(out)
        except Exception:
            pass
    return busy


def spy_compiles(on_compile: Callable[[str], None]) -> None:
    """Call ``on_compile(function name)`` for every backend compile from now on ("jit(step)", "?" when unnamed)."""

    def on_event(event: str, duration: float, **kwargs: Any) -> None:
        if event == BACKEND_COMPILE_EVENT:
            on_compile(str(kwargs.get("fun_name", "?")))

    monitoring.register_event_duration_secs_listener(on_event)


class EventLog:
    """What spies saw while a watched function ran: ``add`` logs an event (a tuple) only then; ``runs`` holds each
    call's (events, ``keep()``), in order."""

    def __init__(self) -> None:
        self.active = False
        self.events: list[tuple] = []
        self.runs: list[tuple[list[tuple], Any]] = []

    def add(self, *event: Any) -> None:
        if self.active:
            self.events.append(event)

    def watching(self, fn: Callable[..., Any], reset: Callable[[], Any] = lambda: None,
                 keep: Callable[[], Any] = lambda: None) -> Callable[..., Any]:
        """``fn``, logging while it runs: each call empties the log and runs ``reset()`` first."""

        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            self.events.clear()
            reset()
            self.active = True
            try:
                return fn(*args, **kwargs)
            finally:
                self.active = False
                self.runs.append((list(self.events), keep()))

        return run
