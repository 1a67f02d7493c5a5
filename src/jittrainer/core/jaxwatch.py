"""What JAX did while the learner's code ran: traces, backend compiles, cache-miss explanations, jaxprs.

Runs inside the worker only (imports jax). Counting uses ``jax.monitoring`` duration events, which fire for every
trace and backend compile in the process: the learner's jitted functions under any name (``jit(<lambda>)``,
``jit(_impl)``) and eager ``jnp`` calls alike. So the grader builds its inputs before a counting window opens and
reads results after it closes; everything in between is caused by the learner's calls.
"""

from __future__ import annotations

import contextlib
import logging
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import jax
import jax.monitoring as monitoring
from jax.extend.core import ClosedJaxpr, Jaxpr

from jittrainer.core import cachemiss
from jittrainer.core.verdict import CacheMiss
from jittrainer.core.verdict import Jaxpr as JaxprReport

BACKEND_COMPILE = "/jax/core/compile/backend_compile_duration"
TRACE = "/jax/core/compile/jaxpr_trace_duration"
CALLBACK_PRIMITIVES = ("debug_print", "debug_callback", "io_callback", "pure_callback")


@dataclass
class Event:
    kind: str  # "trace" | "compile"
    function: str
    seconds: float
    call: int | None


@dataclass
class Miss:
    text: str
    call: int | None
    function: str | None


@dataclass
class Window:
    """Events seen between ``open`` and ``close`` of one counting window."""

    events: list[Event] = field(default_factory=list)
    misses: list[Miss] = field(default_factory=list)

    @property
    def compiles(self) -> int:
        return sum(1 for e in self.events if e.kind == "compile")

    @property
    def traces(self) -> int:
        return sum(1 for e in self.events if e.kind == "trace")

    def compile_seconds(self) -> float:
        return sum(e.seconds for e in self.events if e.kind == "compile")

    def trace_seconds(self) -> float:
        return sum(e.seconds for e in self.events if e.kind == "trace")

    def compiles_in_call(self, call: int) -> int:
        return sum(1 for e in self.events if e.kind == "compile" and e.call == call)

    def explained(self, params: Sequence[str] = (), function: str = "") -> list[CacheMiss]:
        """One entry per backend compile, with JAX's explanation when it gave one for that function and call.
        ``params`` name the positional arguments of ``function`` (the graded one) in explanations about it."""
        unused = list(self.misses)
        out = []
        for event in self.events:
            if event.kind != "compile":
                continue
            miss = _take_miss(unused, event)
            if miss is not None:
                names = params if function and miss.function == function else ()
                reason = cachemiss.explain(miss.text, call=event.call, params=names)
                detail, kind = miss.text, cachemiss.kind(miss.text, call=event.call)
            else:
                reason, detail, kind = _unexplained(event.function), "", "jax_internal"
            out.append(CacheMiss(call=event.call, function=event.function, reason=reason, detail=detail, kind=kind))
        return out


def _take_miss(misses: list[Miss], event: Event) -> Miss | None:
    for i, miss in enumerate(misses):
        if miss.call == event.call and miss.function and event.function in (f"jit({miss.function})", miss.function):
            return misses.pop(i)
    for i, miss in enumerate(misses):  # JAX renamed or wrapped it (pmap compiles as jit(_fun))
        if miss.call == event.call and miss.function is None:
            return misses.pop(i)
    return None


def _unexplained(function: str) -> str:
    # JAX explains misses only for functions defined outside its own package, so silence means JAX's own code.
    return (
        f"{function} is not a function from your file: JAX compiled one of its own operations for input shapes or "
        f"dtypes it had not seen before — an eager jax.numpy call outside jit, a NumPy function applied to the "
        f"jax.Array a callback receives (np.asarray it first), or pmap's internals"
    )


class _MissHandler(logging.Handler):
    def __init__(self, watch: JaxWatch) -> None:
        super().__init__(level=logging.WARNING)
        self.watch = watch

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage()
        except Exception:
            return
        if text.startswith(cachemiss.PREFIX) and self.watch.window is not None:
            self.watch.window.misses.append(Miss(text, self.watch.call, cachemiss.function_name(text)))


class JaxWatch:
    """One per worker process: listens from start-up, records only inside a window."""

    def __init__(self) -> None:
        self.window: Window | None = None
        self.call: int | None = None
        monitoring.register_event_duration_secs_listener(self._on_event)
        # The parent "jax" logger: the cache-miss logger moved between modules across JAX releases.
        logging.getLogger("jax").addHandler(_MissHandler(self))

    def _on_event(self, event: str, duration: float, **kwargs: object) -> None:
        window = self.window
        if window is None:
            return
        kind = "compile" if event == BACKEND_COMPILE else "trace" if event == TRACE else None
        if kind:
            window.events.append(Event(kind, str(kwargs.get("fun_name", "?")), float(duration), self.call))

    @contextlib.contextmanager
    def counting(self) -> Iterator[Window]:
        window = Window()
        previous, self.window = self.window, window
        try:
            with jax.explain_cache_misses(True):
                yield window
        finally:
            self.window = previous
            self.call = None


def jaxpr_report(closed: ClosedJaxpr, function: str = "") -> JaxprReport:
    primitives: Counter[str] = Counter(eqn.primitive.name for eqn in iter_eqns(closed))
    constants = []
    for var, const in zip(closed.jaxpr.constvars, closed.consts):
        nbytes = int(getattr(const, "nbytes", 0) or 0)
        constants.append(f"{var.aval.str_short()} ({nbytes:,} bytes)")
    return JaxprReport(
        text=str(closed),
        function=function,
        primitives=dict(primitives.most_common()),
        callbacks=[name for name in CALLBACK_PRIMITIVES if primitives.get(name)],
        constants=constants,
        effects=sorted({type(e).__name__ for e in closed.effects}),
    )


def iter_eqns(jaxpr: ClosedJaxpr | Jaxpr) -> Iterator:
    inner = jaxpr.jaxpr if isinstance(jaxpr, ClosedJaxpr) else jaxpr
    for eqn in inner.eqns:
        yield eqn
        for value in eqn.params.values():
            for sub in value if isinstance(value, (tuple, list)) else (value,):
                if isinstance(sub, (ClosedJaxpr, Jaxpr)):
                    yield from iter_eqns(sub)


FETCHING_CALLBACKS = {"pure_callback": "jax.pure_callback", "io_callback": "io_callback"}


def feeding_callbacks(jaxpr: ClosedJaxpr | Jaxpr) -> list[str]:
    """Host callbacks whose results the program uses (nested jaxprs included): each fetches a value from Python at
    run time. debug_print and debug_callback return nothing, so they are never listed."""
    inner = jaxpr.jaxpr if isinstance(jaxpr, ClosedJaxpr) else jaxpr
    used = {id(v) for eqn in inner.eqns for v in eqn.invars} | {id(v) for v in inner.outvars}
    found = []
    for eqn in inner.eqns:
        name = eqn.primitive.name
        if name in FETCHING_CALLBACKS and any(id(v) in used for v in eqn.outvars):
            found.append(FETCHING_CALLBACKS[name])
        for value in eqn.params.values():
            for sub in value if isinstance(value, (tuple, list)) else (value,):
                if isinstance(sub, (ClosedJaxpr, Jaxpr)):
                    found.extend(feeding_callbacks(sub))
    return found
