"""Spies on ``jax.jit`` and ``jax.pmap``: what the learner's code jitted or mapped, with which arrays, in which call.

Both are installed before the learner's file is imported, so ``jax.jit``, ``from jax import jit``, decorators,
``functools.partial(jax.jit, …)`` and ahead-of-time compiles (``jax.jit(f).lower(x).compile()``, the same for
``pmap``) are all seen. Calls made by JAX's own code pass straight through. A recorded call keeps the callable and
its arguments, so a check can run it again with changed inputs (outside the counted calls) to prove that the result
really follows the data.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import sys
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jax
import numpy as np

from jittrainer.grading.sandbox.cache_keys import KeyLog, StaticSpec
from jittrainer.grading.sandbox.checks.jit_calls import JitCall, origin_of
from jittrainer.grading.sandbox.checks.values import concrete_arrays, leaves
from jittrainer.grading.sandbox.jax_compat import COMPILED_TYPE as _COMPILED_TYPE
from jittrainer.grading.sandbox.jax_compat import JITTED_TYPE as _JITTED_TYPE
from jittrainer.grading.sandbox.safe_types import is_exactly
from jittrainer.grading.verdict import CacheMiss
from jittrainer.i18n.message import msg

if TYPE_CHECKING:
    from jittrainer.grading.sandbox.checks.context import CheckContext

_JAX_DIR = str(Path(jax.__file__).resolve().parent)


def _inside_jax(filename: str) -> bool:
    try:
        return str(Path(filename).resolve()).startswith(_JAX_DIR)
    except (OSError, ValueError):
        return False


def function_name(fun: Any) -> str:
    for candidate in (fun, getattr(fun, "func", None), inspect.unwrap(fun) if callable(fun) else None):
        name = getattr(candidate, "__name__", None)
        if name:
            return name
    return repr(fun)


# The spies this grader made, by id (the value is the spy itself, held weakly). A spy's type can be called by anyone:
# type(jax.jit(f))(jax.jit.__self__, plain_function, "f") builds one around plain Python. Only a spy made here around
# what the real jax.jit, lower() or compile() returned counts as jitted; one made by another spy only when that spy
# was made here too.
_MADE: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()


def _made(spy: Any) -> Any:
    _MADE[id(spy)] = spy
    return spy


def made_here(spy: Any) -> bool:
    """Whether ``spy`` is one the grader made (compared by identity: nothing of the object is asked)."""
    return _MADE.get(id(spy)) is spy


def _made_from(parent: Any, spy: Any) -> Any:
    """``spy``, counted as made here when ``parent`` (the spy it came from) was."""
    return _made(spy) if made_here(parent) else spy


def is_jitted(fn: Any) -> bool:
    """True for what jax.jit returns, and for an ahead-of-time compiled function (also when a spy the grader made
    wraps them). Exact types only (a subclass of a spy's type could be anything, run as plain Python), compared by
    identity."""
    return is_exactly(fn, _JITTED_TYPE, _COMPILED_TYPE) or (is_exactly(fn, _SpiedJit, _SpiedCompiled) and made_here(fn))


def is_compiled(fn: Any) -> bool:
    return is_exactly(fn, _COMPILED_TYPE) or (is_exactly(fn, _SpiedCompiled) and made_here(fn))


# -------------------------------------------------------------------------------------------------------- jit


class JitSpy:
    def __init__(self, context: CheckContext, keys: KeyLog | None = None) -> None:
        self.context = context
        # Each call's cache key, for the misses JAX does not explain (the watch reads it when one is logged).
        self.keys = keys if keys is not None else context.watch.keys
        self.real = jax.jit
        self.calls: list[JitCall] = []
        self.jitted_names: set[str] = set()  # "jit(mean)": everything the learner's code jitted, JAX functions too
        # Entered around every call of a spied function (a scratch run numbers the program's own calls there).
        self.around: Callable[[str, tuple, dict], contextlib.AbstractContextManager] = _no_context
        # (origin, result) -> what the caller gets instead: a check that perturbs what jitted code returns.
        self.after: Callable[[Any, Any], Any] | None = None
        # Set by keep_jit_outputs: (recorded call) -> None when it starts, (origin, result) -> None when it returns.
        # Hooks held as data, not methods replaced on the instance: the integrity check refuses a hidden method.
        self.on_record: Callable[[JitCall], None] | None = None
        self.on_return: Callable[[Any, Any], None] | None = None

    @property
    def first(self) -> JitCall | None:
        """The first call of a jitted function during the graded calls, with array arguments."""
        return next((c for c in self.calls if c.call is not None and c.arrays), None)

    def install(self) -> None:
        jax.jit = self.jit  # type: ignore[assignment]

    def jit(self, fun: Any = None, /, **options: Any) -> Any:
        if fun is None:
            return functools.partial(self.jit, **options)
        real = self.real(fun, **options)
        # Spy on what the learner's code jits (its own functions and JAX's, jax.jit(jnp.mean)), not on jax.jit
        # calls JAX makes internally. A partial() adds no Python frame, so frame 1 is the real caller.
        if _inside_jax(sys._getframe(1).f_code.co_filename):
            return real
        name = function_name(fun)
        self.jitted_names.add(f"jit({name})")
        return _made(_SpiedJit(self, real, name, StaticSpec.of(fun, options), origin_of(fun)))

    def arrays_in(self, call: int) -> list[np.ndarray]:
        return [a for c in self.calls if c.call == call for a in c.arrays]

    def record(self, fn: Any, name: str, args: tuple, kwargs: dict, ahead_of_time: bool = False,
               **more: Any) -> JitCall:
        call = self.context.current_call if self.context is not None else None
        record = JitCall.at_call(call, name, fn, args, kwargs, ahead_of_time, **more)
        self.calls.append(record)
        if self.on_record is not None:
            self.on_record(record)
        return record

    def returned(self, origin: Any, out: Any) -> Any:
        if self.on_return is not None:
            self.on_return(origin, out)
        return out if self.after is None else self.after(origin, out)


def _no_context(name: str, args: tuple, kwargs: dict) -> contextlib.AbstractContextManager:
    return contextlib.nullcontext()


def _out_sizes(out: Any) -> list[int]:
    return [int(np.size(leaf)) for leaf in leaves(out) if hasattr(leaf, "shape")]


def _delegate(spied: Any, name: str) -> Any:
    """An attribute the spy does not define, from the object it wraps. Read without ``__getattr__``: an instance
    made without ``__init__`` (``object.__new__`` of the spy's type, by the learner) has no ``_real``, and asking
    for it through ``__getattr__`` would recurse."""
    return getattr(object.__getattribute__(spied, "_real"), name)


class _SpiedJit:
    def __init__(self, spy: JitSpy, real: Any, name: str, statics: StaticSpec = StaticSpec(),
                 origin: Any = None) -> None:
        self._spy, self._real, self.__name__ = spy, real, name
        self._statics = statics
        self._origin = origin if origin is not None else real
        functools.update_wrapper(self, real, assigned=("__doc__", "__wrapped__"), updated=())

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with self._spy.around(self.__name__, args, kwargs):
            record = self._spy.record(self._real, self.__name__, args, kwargs, origin=self._origin,
                                      statics=self._statics)
            keys = self._spy.keys
            keys.enter(self, self.__name__, self._statics, args, kwargs)
            try:
                out = self._real(*args, **kwargs)
            finally:
                keys.leave(self)
            record.out_sizes = _out_sizes(out)
            return self._spy.returned(self._origin, out)

    def lower(self, *args: Any, **kwargs: Any) -> _SpiedLowered:
        real = self._real
        return _made_from(self, _SpiedLowered(self._spy.context, real.lower(*args, **kwargs), self.__name__,
                                              lambda: real.trace(*args, **kwargs).jaxpr, origin=self._origin))

    def trace(self, *args: Any, **kwargs: Any) -> _SpiedTraced:
        return _made_from(self, _SpiedTraced(self._spy.context, self._real.trace(*args, **kwargs), self.__name__,
                                             self._origin))

    def __getattr__(self, name: str) -> Any:
        return _delegate(self, name)

    def __get__(self, obj: Any, objtype: Any = None) -> Any:  # jitted methods
        return self if obj is None else functools.partial(self, obj)


class _SpiedTraced:
    def __init__(self, context: CheckContext, real: Any, name: str, origin: Any = None) -> None:
        self._context, self._real, self._name, self._origin = context, real, name, origin

    def lower(self, *args: Any, **kwargs: Any) -> _SpiedLowered:
        real = self._real
        return _made_from(self, _SpiedLowered(self._context, real.lower(*args, **kwargs), self._name,
                                              lambda: real.jaxpr, origin=self._origin))

    def __getattr__(self, name: str) -> Any:
        return _delegate(self, name)


class _SpiedLowered:
    def __init__(self, context: CheckContext, real: Any, name: str, jaxpr_source: Callable[[], Any] | None,
                 mapped: PmapSpec | None = None, origin: Any = None) -> None:
        self._context, self._real, self._name = context, real, name
        self._jaxpr_source, self._mapped, self._origin = jaxpr_source, mapped, origin

    def compile(self, *args: Any, **kwargs: Any) -> _SpiedCompiled:
        return _made_from(self, _SpiedCompiled(self._context, self._real.compile(*args, **kwargs), self._name,
                                               self._jaxpr_source, self._mapped, self._origin))

    def __getattr__(self, name: str) -> Any:
        return _delegate(self, name)


class _SpiedCompiled:
    """An ahead-of-time compiled function. Its compile happened when it was made: if that was before the graded
    calls (at import), the first graded call that runs it charges that compile to the window it runs in."""

    def __init__(self, context: CheckContext, real: Any, name: str, jaxpr_source: Callable[[], Any] | None,
                 mapped: PmapSpec | None, origin: Any = None) -> None:
        self._context, self._real, self.__name__ = context, real, name
        self.jaxpr_source = jaxpr_source
        self._mapped = mapped
        self._origin = origin if origin is not None else real
        self._made_in = context.watch.window  # None: compiled outside any graded calls (at import)
        self._charged: set[int] = set()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        context = self._context
        window = context.watch.window
        if window is not None and window is not self._made_in and id(window) not in self._charged:
            self._charged.add(id(window))
            kind = "pmap" if self._mapped is not None else "jit"
            window.aot.append(CacheMiss(
                call=context.current_call, function=f"{kind}({self.__name__})", kind="aot",
                reason=msg("miss.aot", "{name} was compiled ahead of time (lower().compile()) before these calls; "
                           "its compile counts here", name=self.__name__)))
        with context.jit_spy.around(self.__name__, args, kwargs):
            if self._mapped is not None:
                record = context.pmap_spy.record(self._real, args, kwargs, self._mapped)
            else:
                record = context.jit_spy.record(self._real, self.__name__, args, kwargs, ahead_of_time=True,
                                                origin=self._origin, source=self.jaxpr_source)
            out = self._real(*args, **kwargs)
            record.outputs = concrete_arrays(out) if self._mapped is not None else []
            if self._mapped is None:
                record.out_sizes = _out_sizes(out)
                out = context.jit_spy.returned(self._origin, out)
            return out

    def __getattr__(self, name: str) -> Any:
        return _delegate(self, name)


# ------------------------------------------------------------------------------------------------------- pmap


@dataclass(frozen=True)
class PmapSpec:
    in_axes: Any
    static: tuple[int, ...]


@dataclass
class PmapCall:
    call: int | None  # graded call it happened in
    mapped_sizes: list[int]  # size of every mapped axis among the arguments
    devices: int  # jax.local_device_count() at the time
    arrays: list[np.ndarray] = field(default_factory=list)  # concrete array arguments, as NumPy
    mapped_arrays: list[np.ndarray] = field(default_factory=list)  # the ones passed along a mapped axis
    outputs: list[np.ndarray] = field(default_factory=list)  # concrete array results, as NumPy

    def passes_input_through(self) -> bool:
        """Every result is one of the arguments, unchanged: the pmapped function did no work."""
        return bool(self.outputs) and all(
            any(o.shape == a.shape and np.array_equal(o, a) for a in self.arrays) for o in self.outputs
        )


class PmapSpy:
    """Wraps ``jax.pmap`` so every call of a pmapped function records the sizes of its mapped axes."""

    def __init__(self, context: CheckContext) -> None:
        self.context = context
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
        static = options.get("static_broadcasted_argnums", ())
        spec = PmapSpec(options.get("in_axes", 0), (static,) if isinstance(static, int) else tuple(static))
        spy = self
        context = self.context

        @functools.wraps(fun)
        def mapped(*args: Any, **kwargs: Any) -> Any:
            record = spy.record(real, args, kwargs, spec)
            out = real(*args, **kwargs)
            record.outputs = concrete_arrays(out)
            return out

        def lower(*args: Any, **kwargs: Any) -> _SpiedLowered:
            return _made(_SpiedLowered(context, real.lower(*args, **kwargs), function_name(fun),
                                       lambda: jax.make_jaxpr(real)(*args, **kwargs), spec))

        mapped.lower = lower  # type: ignore[attr-defined]
        for attr in ("trace", "eval_shape"):
            if hasattr(real, attr):
                setattr(mapped, attr, getattr(real, attr))
        return mapped

    def record(self, real: Callable, args: tuple, kwargs: dict, spec: PmapSpec) -> PmapCall:
        sizes: list[int] = []
        mapped_values: list[Any] = []
        try:
            per_arg = spec.in_axes if isinstance(spec.in_axes, (list, tuple)) else [spec.in_axes] * len(args)
            for i, (arg, axis) in enumerate(zip(args, per_arg)):
                if i in spec.static:
                    continue
                found = _mapped_sizes(arg, axis)
                sizes += found
                if found:
                    mapped_values.append(arg)
            for value in kwargs.values():  # pmap maps keyword arguments along axis 0
                sizes += _mapped_sizes(value, 0)
                mapped_values.append(value)
        except Exception:
            pass
        call = self.context.current_call
        record = PmapCall(call, sizes, jax.local_device_count(), concrete_arrays((args, kwargs)),
                          concrete_arrays(mapped_values))
        self.calls.append(record)
        if self.first is None and call is not None:
            self.first = (real, args, kwargs)
        return record


def _mapped_sizes(arg: Any, spec: Any) -> list[int]:
    if spec is None:
        return []
    if isinstance(spec, int):
        return [int(np.shape(leaf)[spec]) for leaf in leaves(arg) if np.ndim(leaf) > spec]
    sizes: list[int] = []
    jax.tree_util.tree_map(
        lambda ax, sub: sizes.extend(_mapped_sizes(sub, ax)), spec, arg, is_leaf=lambda v: v is None
    )
    return sizes
