"""What JAX did while the learner's code ran: traces, backend compiles and cache-miss explanations.

Runs inside the worker only (imports jax). Counting uses ``jax.monitoring`` duration events, which fire for every
trace and backend compile in the process: the learner's jitted functions under any name (``jit(<lambda>)``,
``jit(_impl)``) and eager ``jnp`` calls alike. So the grader builds its inputs before a counting window opens and
reads results after it closes; everything in between is caused by the learner's calls.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field

import jax
import jax.monitoring as monitoring

from jittrainer.grading.sandbox import cachemiss
from jittrainer.grading.sandbox.cache_keys import KeyLog
from jittrainer.grading.sandbox.jax_compat import BACKEND_COMPILE_EVENT as BACKEND_COMPILE
from jittrainer.grading.sandbox.jax_compat import TRACE_EVENT as TRACE
from jittrainer.grading.sandbox.jax_compat import hide_grader_frames
from jittrainer.grading.verdict import CacheMiss
from jittrainer.i18n.message import Msg, msg

PROBE_EVENT = "/jittrainer/probe"


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
    changes: tuple[cachemiss.KeyChange, ...] = ()  # what the jit spy saw change, for a miss JAX did not explain
    held: bool = False  # the function JAX names is one the jit spy holds (so its id is no dead function's)


@dataclass
class CountingWindow:
    """Traces and compiles seen during one run of graded calls (and the cache-miss explanations JAX gave)."""

    events: list[Event] = field(default_factory=list)
    misses: list[Miss] = field(default_factory=list)
    # Executables compiled ahead of time (``lower().compile()``) outside this window and run in it: the learner
    # paid for their compiles (at import, say), so they count here, once each.
    aot: list[CacheMiss] = field(default_factory=list)
    # The names of the learner's spied jitted functions: a compile of one that JAX left unexplained is not JAX's own.
    spied: Callable[[], Collection[str]] = field(default=lambda: ())

    @property
    def compiles(self) -> int:
        return sum(1 for e in self.events if e.kind == "compile") + len(self.aot)

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
        out = list(self.aot)
        own = {f"jit({name})" for name in self.spied()}
        compiled: dict[tuple[int | None, str], bool] = {}  # (call, "jit(f)") -> traced since its last compile
        seen: set[str] = set()  # functions (by JAX's name) that compiled earlier in this window
        compiled_ids: set[str] = set()  # ... and by JAX's id for them, from its cache-miss text
        for event in self.events:
            if event.kind == "trace":
                for key in [k for k in compiled if k[1] == f"jit({event.function})"]:
                    compiled[key] = True
                continue
            key = (event.call, event.function)
            derived = key in compiled and not compiled[key]
            compiled[key] = False
            miss = _take_miss(unused, event)
            if derived:  # JAX's explanation, if any, is about a trace that did not happen for this program
                reason, detail, kind = _derived(event.function), "", "derived"
            elif miss is not None:
                names = params if function and miss.function == function else ()
                fid = cachemiss.function_id(miss.text)
                cleared = miss.held and fid in compiled_ids
                compiled_ids |= {fid} if fid else set()
                reason = cachemiss.explain(miss.text, call=event.call, params=names, changes=miss.changes,
                                           cleared=cleared)
                detail = miss.text
                kind = cachemiss.kind(miss.text, call=event.call, changes=miss.changes, cleared=cleared)
            elif event.function in own and event.function in seen:
                reason, detail, kind = _recompiled(event.function), "", "placement"
            else:
                reason, detail, kind = _unexplained(event.function), "", "jax_internal"
            seen.add(event.function)
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


def _derived(function: str) -> Msg:
    # jax.grad of a jitted f compiles two programs from one trace (no trace event between them): f's forward pass
    # and its backward pass, both named jit(f). JAX 0.10 explains only the first; 0.12 calls the second a new
    # function "re-defined repeatedly", which it is not.
    name = function[4:-1] if function.startswith("jit(") and function.endswith(")") else function
    return msg(
        "miss.derived",
        "{function} again, with no new trace: a program JAX derived from your {name} (under jax.grad, the backward "
        "pass of {name} is compiled apart from its forward pass, the first time it is differentiated for these "
        "shapes)",
        function=function, name=name,
    )


def _unexplained(function: str) -> Msg:
    # JAX explains misses only for functions defined outside its own package, so silence means JAX's own code.
    return msg(
        "miss.jax_internal",
        "{function} is not a function from your file: JAX compiled one of its own operations for shapes or dtypes it "
        "had not seen before (a jax.numpy call run eagerly, outside a jitted function)",
        function=function,
    )


def _recompiled(function: str) -> Msg:
    # JAX explains tracing-cache misses only: a compile of the learner's function with no miss logged reused its
    # traced program, and what changed is in the rest of the key, most often where the arguments live.
    return msg(
        "miss.placement",
        "{function} was compiled again without being traced again: its program was the same, but another part of "
        "jit's cache key changed, most often where the arguments live (another device, the mesh's devices in another "
        "order, committed or not)",
        function=function,
    )


class _MissHandler(logging.Handler):
    def __init__(self, watch: CompileWatch) -> None:
        super().__init__(level=logging.WARNING)
        self.watch = watch

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage()
        except Exception:
            return
        if text.startswith(cachemiss.PREFIX) and self.watch.window is not None:
            window, name, changes = self.watch.window, cachemiss.function_name(text), ()
            if cachemiss.UNAVAILABLE in text:
                with self.watch.paused():  # comparing keys may run a static value's __eq__: the grader's doing
                    changes = tuple(self.watch.keys.changes_for(name))
            fid = cachemiss.function_id(text)
            held = fid is not None and self.watch.keys.holds_function(int(fid))
            window.misses.append(Miss(text, self.watch.call, name, changes, held))


class CompileWatch:
    """One per worker process: listens from start-up, records only inside a window."""

    def __init__(self) -> None:
        self.window: CountingWindow | None = None
        self.call: int | None = None
        self.keys = KeyLog()  # fed by the jit spy: the calls' keys, for misses JAX leaves unexplained
        hide_grader_frames()
        self._probed = False
        monitoring.register_event_duration_secs_listener(self._on_event)
        # The parent "jax" logger: the cache-miss logger moved between modules across JAX releases.
        logging.getLogger("jax").addHandler(_MissHandler(self))

    def listening(self) -> bool:
        """Whether JAX still reports events to this watch (a submission could have removed the listeners, and
        then no compile would be counted)."""
        self._probed = False
        monitoring.record_event_duration_secs(PROBE_EVENT, 0.0)
        return self._probed

    def _on_event(self, event: str, duration: float, **kwargs: object) -> None:
        if event == PROBE_EVENT:
            self._probed = True
            return
        window = self.window
        if window is None:
            return
        kind = "compile" if event == BACKEND_COMPILE else "trace" if event == TRACE else None
        if kind:
            window.events.append(Event(kind, str(kwargs.get("fun_name", "?")), float(duration), self.call))

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """The grader's own work inside a window (tracing the learner's function to read its program, say): what
        it compiles is not the learner's."""
        window, self.window = self.window, None
        try:
            yield
        finally:
            self.window = window

    @contextlib.contextmanager
    def counting(self) -> Iterator[CountingWindow]:
        window = CountingWindow(spied=self.keys.names)
        previous, self.window = self.window, window
        try:
            with jax.explain_cache_misses(True):
                yield window
        finally:
            self.window = previous
            self.call = None
