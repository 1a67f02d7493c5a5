"""The check toolkit: what an exercise's ``checks.py`` uses to grade a submission.

A ``checks.py`` declares its checks and grades with a ``Grading`` object::

    CHECKS = {"runs": "normalize runs under jax.jit", "values": "returns (x - mean) / std", ...}

    def setup(g):            # optional: before the learner's file is imported (install spies here)
        ...

    def grade(g):
        normalize = g.graded(params=1)                  # the learner's function, under jax.jit
        xs = [g.rng.normal(5.0, 1.0, 16).astype("float32") for _ in range(3)]   # inputs first...
        calls = g.calls(normalize, [(x,) for x in xs])  # ...then the counted, captured calls
        g.check_ran("runs", calls)
        ...

The file says *what* to call and *what* must hold; this module knows *how* to count compiles, capture output,
spy on pmap/jit, and describe failures. Checks not reported because grading stopped early are shown as skipped.
"""

from __future__ import annotations

import functools
import inspect
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import jax
import numpy as np

from jittrainer.core import learner_errors
from jittrainer.core.capture import OutputRecorder
from jittrainer.core.jaxwatch import JaxWatch, Window, feeding_callbacks
from jittrainer.core.units import plural  # noqa: F401  (checks.py files import it from the toolkit)
from jittrainer.core.verdict import CacheMiss, CheckResult, ErrorInfo

try:  # public in 0.10; kept optional so a later release that moves it still imports
    from jax.core import Tracer as _Tracer
except ImportError:  # pragma: no cover
    _Tracer = None

_JAX_DIR = str(Path(jax.__file__).resolve().parent)
# What jax.jit really returns. jax.stages.Wrapped is a runtime-checkable Protocol, so any object with .lower and
# .trace attributes would pass for jitted (and escape the grader's jit); the concrete type cannot be faked.
_JITTED_TYPE = type(jax.jit(lambda: None))


_UNSET = object()


class LearnerFailure(Exception):
    """The submission cannot be graded at all (missing or uncallable function, wrong signature): status "error"."""

    def __init__(self, message: str, error: ErrorInfo | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.error = error


class StopChecks(Exception):
    """Stop grading here; checks not yet reported are listed as skipped."""


class ExerciseBug(Exception):
    """The exercise's checks.py misused the toolkit: an authoring error, reported as the exercise's fault."""


# ----------------------------------------------------------------------------------------------- small helpers


def is_jitted(fn: Any) -> bool:
    """True for a function returned by jax.jit (also when the jit spy wraps it)."""
    return type(fn) is _JITTED_TYPE or (isinstance(fn, _SpiedJit) and type(fn._real) is _JITTED_TYPE)


def is_tracer(value: Any) -> bool:
    if _Tracer is not None and isinstance(value, _Tracer):
        return True
    return type(value).__name__.endswith("Tracer")


def concrete_float(value: Any) -> float | None:
    """A concrete number (Python, NumPy or a jax.Array holding one value), or None for tracers and non-numbers."""
    if is_tracer(value):
        return None
    try:
        return float(value)
    except Exception:
        return None


_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w])")


def numbers_in(text: str) -> list[float]:
    """Every decimal number written in ``text`` (``float32`` does not count as 32)."""
    out = []
    for match in _NUMBER.finditer(text):
        try:
            out.append(float(match.group()))
        except ValueError:
            pass
    return out


def type_name(value: Any) -> str:
    if value is None:
        return "None"
    if is_tracer(value):
        return "a tracer (an abstract value that only exists while tracing)"
    if isinstance(value, (np.ndarray, jax.Array)):
        return f"an array of shape {tuple(value.shape)} and dtype {value.dtype}"
    return f"a {type(value).__name__}"


def compare(
    actual: Any,
    expected: Any,
    *,
    rtol: float = 1e-4,
    atol: float = 1e-5,
    what: str = "the result",
) -> tuple[bool, str]:
    """Compare a learner's return value with the expected numbers. Never raises; the message says what differs."""
    expected_arr = np.asarray(expected, dtype=np.float64)
    if is_tracer(actual) or (isinstance(actual, (list, tuple)) and any(is_tracer(a) for a in actual)):
        return False, f"{what} is a tracer, not a value: it leaked out of a traced function"
    if isinstance(actual, (str, bytes, dict, type(None))) or callable(actual):
        return False, f"{what} is {type_name(actual)}; expected {_shape_words(expected_arr)}"
    try:
        actual_arr = np.asarray(actual, dtype=np.float64)
    except Exception:
        return False, f"{what} is {type_name(actual)}, which is not a number or an array of numbers"
    if actual_arr.shape != expected_arr.shape:
        squeezable = actual_arr.size == expected_arr.size
        if squeezable and np.squeeze(actual_arr).shape == np.squeeze(expected_arr).shape:
            actual_arr = actual_arr.reshape(expected_arr.shape)
        else:
            return False, f"{what} has shape {actual_arr.shape}; expected shape {expected_arr.shape}"
    nan = np.isnan(actual_arr) & ~np.isnan(expected_arr)
    if nan.any():
        return False, f"{what} holds NaN at {nan.sum()} of {nan.size} positions"
    close = np.isclose(actual_arr, expected_arr, rtol=rtol, atol=atol, equal_nan=True)
    if close.all():
        return True, ""
    bad = np.argwhere(~close)
    first = tuple(int(i) for i in bad[0]) if actual_arr.ndim else ()
    got, want = actual_arr[first] if first else actual_arr, expected_arr[first] if first else expected_arr
    where = f" at index {list(first)}" if first else ""
    more = f" ({len(bad)} of {close.size} values differ)" if close.size > 1 else ""
    return False, f"{what} is {float(got):.6g}{where} where {float(want):.6g} was expected{more}"


def _shape_words(arr: np.ndarray) -> str:
    return "a number" if arr.ndim == 0 else f"an array of shape {arr.shape}"


# ------------------------------------------------------------------------------------------------ call records


@dataclass
class CallRecord:
    index: int  # 1-based
    args: tuple
    result: Any = None
    output: str = ""
    error: ErrorInfo | None = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class Calls:
    """The graded calls of one counting window, in order. Stops at the first call that raised."""

    name: str
    planned: int
    fn: Callable | None = None
    records: list[CallRecord] = field(default_factory=list)
    window: Window = field(default_factory=Window)
    params: Sequence[str] = ()
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return len(self.records) == self.planned and all(r.ok for r in self.records)

    @property
    def failed(self) -> CallRecord | None:
        return next((r for r in self.records if not r.ok), None)

    @property
    def results(self) -> list[Any]:
        return [r.result for r in self.records if r.ok]

    @property
    def outputs(self) -> list[str]:
        return [r.output for r in self.records]

    @property
    def compiles(self) -> int:
        return self.window.compiles

    @property
    def traces(self) -> int:
        return self.window.traces

    def reasons(self) -> list[CacheMiss]:
        function = getattr(inspect.unwrap(self.fn), "__name__", "") if self.fn is not None else ""
        return self.window.explained(self.params, function)

    def why_compiled(self, limit: int = 3) -> str:
        """'call 2: static argument rows changed from 3 to 4; call 3: …' for failure messages."""
        misses = [m for m in self.reasons() if m.call and m.call > 1] or self.reasons()
        parts = [f"call {m.call}: {m.reason}" for m in misses[:limit]]
        if len(misses) > limit:
            parts.append(f"and {len(misses) - limit} more")
        return "; ".join(parts)

    def error_message(self) -> str:
        """'normalize raised IndexError on call 1 (line 7): Slice entries must be static integers…'"""
        record = self.failed
        if record is None:
            return ""
        err = record.error
        line = f", line {err.line}" if err.line else ""
        text = learner_errors.headline(err, join_dangling=True)
        if learner_errors.out_of_memory(err):
            return f"memory limit exceeded during call {record.index} of {self.name}{line} ({err.type}: {text})"
        if err.type == "EOFError":
            text += " — input() cannot read anything while grading: stdin is closed"
        return f"{self.name} raised {err.type} on call {record.index}{line}: {text}"


# ---------------------------------------------------------------------------------------------------- spies


def _leaves(value: Any) -> list[Any]:
    try:
        return jax.tree_util.tree_leaves(value)
    except Exception:
        return [value]


def _concrete_arrays(tree: Any) -> list[np.ndarray]:
    """The concrete (non-tracer) array leaves of ``tree``, as NumPy."""
    arrays = []
    for leaf in _leaves(tree):
        if isinstance(leaf, (np.ndarray, jax.Array)) and not is_tracer(leaf):
            try:
                arrays.append(np.asarray(leaf))
            except Exception:
                pass
    return arrays


def _inside_jax(filename: str) -> bool:
    try:
        return str(Path(filename).resolve()).startswith(_JAX_DIR)
    except (OSError, ValueError):
        return False


def _function_name(fun: Any) -> str:
    for candidate in (fun, getattr(fun, "func", None), inspect.unwrap(fun) if callable(fun) else None):
        name = getattr(candidate, "__name__", None)
        if name:
            return name
    return repr(fun)


@dataclass
class PmapCall:
    call: int | None  # graded call it happened in
    mapped_sizes: list[int]  # size of every mapped axis among the arguments
    devices: int  # jax.local_device_count() at the time
    arrays: list[np.ndarray] = field(default_factory=list)  # concrete array arguments, as NumPy
    outputs: list[np.ndarray] = field(default_factory=list)  # concrete array results, as NumPy

    def passes_input_through(self) -> bool:
        """Every result is one of the arguments, unchanged: the pmapped function did no work."""
        return bool(self.outputs) and all(
            any(o.shape == a.shape and np.array_equal(o, a) for a in self.arrays) for o in self.outputs
        )


class PmapSpy:
    """Wraps ``jax.pmap`` so every call of a pmapped function records the sizes of its mapped axes."""

    def __init__(self, grading: Grading) -> None:
        self.grading = grading
        self.real = jax.pmap
        self.calls: list[PmapCall] = []
        self.first: tuple[Callable, tuple, dict] | None = None

    def install(self) -> None:
        jax.pmap = self.pmap  # type: ignore[assignment]

    def calls_in(self, call: int) -> list[PmapCall]:
        return [c for c in self.calls if c.call == call]

    def pmap(self, fun: Callable, axis_name: Any = None, **options: Any) -> Callable:
        # ``fun`` is required, as in the real jax.pmap: code that only works under the spy must not pass.
        real = self.real(fun, axis_name, **options)
        in_axes = options.get("in_axes", 0)
        static = options.get("static_broadcasted_argnums", ())
        static = (static,) if isinstance(static, int) else tuple(static)
        spy = self

        @functools.wraps(fun)
        def mapped(*args: Any, **kwargs: Any) -> Any:
            record = spy._record(real, args, kwargs, in_axes, static)
            out = real(*args, **kwargs)
            record.outputs = _concrete_arrays(out)
            return out

        for attr in ("lower", "trace", "eval_shape"):
            if hasattr(real, attr):
                setattr(mapped, attr, getattr(real, attr))
        return mapped

    def _record(self, real: Callable, args: tuple, kwargs: dict, in_axes: Any, static: tuple) -> PmapCall:
        sizes: list[int] = []
        try:
            per_arg = in_axes if isinstance(in_axes, (list, tuple)) else [in_axes] * len(args)
            for i, (arg, spec) in enumerate(zip(args, per_arg)):
                if i in static:
                    continue
                sizes += _mapped_sizes(arg, spec)
            for value in kwargs.values():  # pmap maps keyword arguments along axis 0
                sizes += _mapped_sizes(value, 0)
        except Exception:
            pass
        record = PmapCall(self.grading.current_call, sizes, jax.local_device_count(), _concrete_arrays((args, kwargs)))
        self.calls.append(record)
        if self.first is None and self.grading.current_call is not None:
            self.first = (real, args, kwargs)
        return record


def _mapped_sizes(arg: Any, spec: Any) -> list[int]:
    if spec is None:
        return []
    if isinstance(spec, int):
        return [int(np.shape(leaf)[spec]) for leaf in _leaves(arg) if np.ndim(leaf) > spec]
    sizes: list[int] = []
    jax.tree_util.tree_map(
        lambda ax, sub: sizes.extend(_mapped_sizes(sub, ax)), spec, arg, is_leaf=lambda v: v is None
    )
    return sizes


@dataclass
class JitCall:
    call: int | None
    function: str
    arrays: list[np.ndarray]  # concrete array arguments, as NumPy
    out_sizes: list[int] = field(default_factory=list)  # element counts of the array outputs


class JitSpy:
    """Wraps ``jax.jit`` so every call of a jitted function records its concrete array arguments."""

    def __init__(self, grading: Grading) -> None:
        self.grading = grading
        self.real = jax.jit
        self.calls: list[JitCall] = []
        self.first: tuple[Callable, tuple, dict] | None = None
        self.jitted_names: set[str] = set()  # "jit(mean)": everything the learner's code jitted, JAX functions too

    def install(self) -> None:
        jax.jit = self.jit  # type: ignore[assignment]

    def jit(self, fun: Any = None, /, **options: Any) -> Any:
        if fun is None:
            return functools.partial(self.jit, **options)
        real = self.real(fun, **options)
        # Spy on what the learner's code jits — its own functions and JAX's (jax.jit(jnp.mean)) — but not on
        # jax.jit calls JAX makes internally. A partial() adds no Python frame, so frame 1 is the real caller.
        if _inside_jax(sys._getframe(1).f_code.co_filename):
            return real
        name = _function_name(fun)
        self.jitted_names.add(f"jit({name})")
        return _SpiedJit(self, real, name)

    def arrays_in(self, call: int) -> list[np.ndarray]:
        return [a for c in self.calls if c.call == call for a in c.arrays]


class _SpiedJit:
    def __init__(self, spy: JitSpy, real: Any, name: str) -> None:
        self._spy, self._real, self.__name__ = spy, real, name
        functools.update_wrapper(self, real, assigned=("__doc__", "__wrapped__"), updated=())

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        spy = self._spy
        arrays = _concrete_arrays((args, kwargs))
        record = JitCall(spy.grading.current_call, self.__name__, arrays)
        spy.calls.append(record)
        if spy.first is None and spy.grading.current_call is not None and arrays:
            spy.first = (self._real, args, kwargs)
        out = self._real(*args, **kwargs)
        record.out_sizes = [int(np.size(leaf)) for leaf in _leaves(out) if hasattr(leaf, "shape")]
        return out

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def __get__(self, obj: Any, objtype: Any = None) -> Any:  # jitted methods
        return self if obj is None else functools.partial(self, obj)


# ------------------------------------------------------------------------------------------------- grading


class Grading:
    """Passed to ``setup(g)`` and ``grade(g)`` in an exercise's checks.py."""

    def __init__(
        self,
        *,
        exercise: str,
        function: str,
        call_mode: str,
        declared: dict[str, str],
        seed: int,
        filename: str,
        recorder: OutputRecorder,
        watch: JaxWatch,
        restore_streams: Callable[[], None],
        on_call: Callable[[int], None] = lambda index: None,
    ) -> None:
        self.exercise = exercise
        self.function_name = function
        self.call_mode = call_mode
        self.declared = dict(declared)
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.filename = filename
        self.recorder = recorder
        self.watch = watch
        self._restore_streams = restore_streams
        self._on_call = on_call
        self.module: ModuleType | None = None
        self.results: dict[str, CheckResult] = {}
        self.learner_error: ErrorInfo | None = None
        self.windows: list[Calls] = []
        self.graded_function: Callable | None = None
        self.graded_params: tuple[str, ...] = ()
        self.jaxpr_source: Callable[[], Any] | None = None  # returns a ClosedJaxpr, after the checks
        self._graded_jaxpr: Any = _UNSET
        self.jaxpr_name = ""
        self.pmap_spy: PmapSpy | None = None
        self.jit_spy: JitSpy | None = None

    # -- the learner's module --------------------------------------------------------------------------------

    @property
    def current_call(self) -> int | None:
        return self.watch.call

    def attr(self, name: str) -> Any:
        """A module-level name from the learner's file; a clear error if it is not there."""
        if self.module is None or not hasattr(self.module, name):
            raise LearnerFailure(f"{name} is not defined in your file; the exercise needs it (see the statement)")
        return getattr(self.module, name)

    def replace(self, name: str, value: Any) -> Any:
        """Set a module-level name in the learner's file (e.g. swap ``report`` for a recorder)."""
        old = self.attr(name)
        setattr(self.module, name, value)
        return old

    def function(self, name: str | None = None, *, params: int | None = None) -> Callable:
        """The learner's function ``name`` (default: the manifest's), checked callable with ``params`` arguments."""
        name = name or self.function_name
        fn = self.attr(name)
        if not callable(fn):
            raise LearnerFailure(f"{name} in your file is {type_name(fn)}, not a function")
        if params is not None:
            _check_arity(name, fn, params)
        return fn

    def graded(self, name: str | None = None, *, params: int | None = None) -> Callable:
        """The function as graded: for ``call = "jit"`` your own jitted function as it is (``@jax.jit`` or
        ``jax.jit(f, static_argnums=…)``), otherwise ``jax.jit(f)`` with no options; plain Python for
        ``call = "plain"``."""
        name = name or self.function_name
        fn = self.function(name, params=params)
        self.graded_params = _param_names(fn)
        if self.call_mode == "plain":
            graded = fn
        else:
            graded = fn if is_jitted(fn) else jax.jit(fn)
            self.jaxpr_name = name
        self.graded_function = graded
        return graded

    @property
    def source(self) -> str:
        """The learner's file as graded (for advice that depends on what they wrote)."""
        import linecache

        return "".join(linecache.getlines(self.filename))

    @property
    def wrapped_host_code(self) -> bool:
        """The graded function is not jitted itself, yet the file uses jit inside it or elsewhere: what the learner
        meant to run on the host (around an inner jitted function) is traced by the grader's own jax.jit. Worth
        saying in a failure message, since the learner did not write that outer jit."""
        try:
            fn = self.function()
        except LearnerFailure:
            return False
        code = "".join(line.split("#", 1)[0] + "\n" for line in self.source.splitlines())
        return not is_jitted(fn) and re.search(r"\bjit\b", code) is not None

    def feeding_callbacks(self) -> list[str]:
        """Host callbacks in the graded program whose results it uses (pure_callback, io_callback): values
        fetched from Python at run time. Empty when the program did not trace."""
        closed = self.graded_jaxpr()
        return feeding_callbacks(closed) if closed is not None else []

    def graded_jaxpr(self) -> Any:
        """The ClosedJaxpr of the graded function on the first graded input, or None (it did not trace).
        Traced once and kept: several checks and the verdict's Jaxpr pane all read it."""
        if self._graded_jaxpr is _UNSET:
            self._graded_jaxpr = None
            if self.jaxpr_source is not None:
                try:
                    with self.recorder.mute():  # a re-trace would run the learner's prints again
                        self._graded_jaxpr = self.jaxpr_source()
                except BaseException:  # the learner's code runs again: SystemExit, KeyboardInterrupt, ...
                    pass
        return self._graded_jaxpr

    # -- spies ----------------------------------------------------------------------------------------------

    def spy_pmap(self) -> PmapSpy:
        """Call from ``setup(g)``: record the mapped-axis sizes of every pmapped call."""
        self.pmap_spy = PmapSpy(self)
        self.pmap_spy.install()
        return self.pmap_spy

    def spy_jit(self) -> JitSpy:
        """Call from ``setup(g)``: record the concrete array arguments of every call of a jitted function."""
        self.jit_spy = JitSpy(self)
        self.jit_spy.install()
        return self.jit_spy

    # -- calls ----------------------------------------------------------------------------------------------

    def calls(
        self,
        fn: Callable,
        arglist: Iterable[tuple],
        *,
        name: str | None = None,
        before: Callable[[int, tuple], None] | None = None,
    ) -> Calls:
        """Call ``fn(*args)`` for each args, counting every trace and compile in between and capturing each
        call's output. ``before(i, args)`` runs before call i (1-based): set globals there, but build arrays
        beforehand, because eager jax operations compile too."""
        arglist = [tuple(a) for a in arglist]
        # A learner's demo call at import (or an earlier window) must not pre-fill the caches: counts and callbacks
        # then reflect these calls alone. (clear_caches keeps already-built input arrays.)
        jax.clear_caches()
        calls = Calls(name=name or self.function_name, planned=len(arglist), fn=fn, params=self.graded_params)
        start = time.perf_counter()
        with self.watch.counting() as window:
            calls.window = window
            for index, args in enumerate(arglist, 1):
                if before is not None:
                    before(index, args)
                record = CallRecord(index, args)
                calls.records.append(record)
                self._restore_streams()
                self._on_call(index)
                self.watch.call = index
                t0 = time.perf_counter()
                with self.recorder.section(f"call {index}") as section:
                    mark = len(section.chunks)
                    try:
                        result = fn(*args)
                        jax.block_until_ready(result)
                        jax.effects_barrier()
                        record.result = result
                    except BaseException as exc:  # SystemExit and KeyboardInterrupt are the learner's too
                        record.error = learner_errors.describe(exc, self.filename, f"call {index}")
                        _settle()
                    record.output = "".join(section.chunks[mark:])
                record.seconds = time.perf_counter() - t0
                self.watch.call = None
                if record.error is not None:
                    self.learner_error = self.learner_error or record.error
                    break
        calls.seconds = time.perf_counter() - start
        self.windows.append(calls)
        if self.graded_function is fn and self.jaxpr_source is None and arglist and self.call_mode != "plain":
            first = arglist[0]
            self.jaxpr_source = lambda: fn.trace(*first).jaxpr
        return calls

    # -- reporting ------------------------------------------------------------------------------------------

    def check(self, check_id: str, ok: bool, message: str = "", *, passed: str = "") -> bool:
        """Record check ``check_id``: ``message`` says what went wrong when ``ok`` is false."""
        if check_id not in self.declared:
            raise ExerciseBug(f"check {check_id!r} is not declared in CHECKS")
        if check_id in self.results:
            raise ExerciseBug(f"check {check_id!r} was reported twice")
        if not ok and not message:
            raise ExerciseBug(f"check {check_id!r} failed without a message")
        self.results[check_id] = CheckResult(
            check_id, self.declared[check_id], "pass" if ok else "fail", passed if ok else message
        )
        return bool(ok)

    def check_ran(self, check_id: str, calls: Calls, *, advice: Callable[[ErrorInfo], str] | None = None) -> bool:
        """Pass if every planned call returned; otherwise fail with the learner's exception, then stop grading
        (later checks would only repeat the same error)."""
        if calls.ok:
            return self.check(check_id, True, passed=f"{plural(calls.planned, 'call')} returned")
        record = calls.failed
        message = calls.error_message()
        if record is not None and advice is not None:
            extra = advice(record.error)
            if extra:
                message = f"{message.rstrip(' .:;,')}. {extra}"
        self.results[check_id] = CheckResult(check_id, self.declared[check_id], "error", message)
        raise StopChecks(message)


def _settle() -> None:
    try:
        jax.effects_barrier()
    except BaseException:
        pass


def _param_names(fn: Callable) -> tuple[str, ...]:
    try:
        return tuple(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return ()


def _check_arity(name: str, fn: Callable, params: int) -> None:
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(*([None] * params))
    except TypeError:
        shown = ", ".join(signature.parameters)
        raise LearnerFailure(
            f"{name} is called with {plural(params, 'positional argument')}, but yours is defined as "
            f"{name}({shown})"
        ) from None
