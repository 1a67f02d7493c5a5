"""One recorded call of a jitted function: what it received (copied at the call), what it is of, and how to run it
again or read its program, for checks that prove the data reached jitted code and the work was done there."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import jax
import numpy as np

from jittrainer.grading.sandbox.cache_keys import StaticSpec
from jittrainer.grading.sandbox.checks.values import copied_array


@dataclass
class JitCall:
    call: int | None  # the graded call it happened in (None: outside the graded calls)
    function: str
    fn: Callable[..., Any]  # the real jitted (or compiled) function
    args: tuple  # the arguments themselves (a donated one may be deleted since)
    kwargs: dict
    out_sizes: list[int] = field(default_factory=list)  # element counts of the array outputs
    ahead_of_time: bool = False
    # The arguments as they were at the call: their structure, and their leaves with every concrete array copied
    # as NumPy (a learner's buffer refilled or donated later must not rewrite what was recorded).
    tree: Any = None
    snapshot: list[Any] = field(default_factory=list)
    # What the call is of, the same for every jax.jit of one Python function (its code): a jitted lambda made per
    # step is one origin. ``statics`` says which arguments are static; ``source`` gives an ahead-of-time
    # compiled function's jaxpr.
    origin: Any = None
    statics: StaticSpec | None = None
    source: Callable[[], Any] | None = None
    # The mesh the learner's code had set (jax.set_mesh) around the call, or None: a program whose bare
    # PartitionSpecs or reshards name it traces again only inside it.
    mesh: Any = None
    # What the call returned, as NumPy copies of its array leaves, once ``keep_jit_outputs`` is on (None: not kept,
    # or the call was traced inside another jitted function and returned tracers).
    outputs: list[np.ndarray] | None = None

    @classmethod
    def at_call(cls, call: int | None, function: str, fn: Callable, args: tuple, kwargs: dict,
                ahead_of_time: bool = False, **more: Any) -> JitCall:
        try:
            found, tree = jax.tree_util.tree_flatten((args, kwargs))
        except Exception:
            found, tree = [], None
        return cls(call, function, fn, args, kwargs, ahead_of_time=ahead_of_time, tree=tree,
                   snapshot=[copied_array(_primal(leaf)) for leaf in found], mesh=_set_mesh(), **more)

    @contextlib.contextmanager
    def context(self) -> Iterator[None]:
        """The mesh that was set around the call, set again (nothing when none was)."""
        if self.mesh is None:
            yield
            return
        with jax.set_mesh(self.mesh):
            yield

    def jaxpr(self) -> Any:
        """The call's program (a ClosedJaxpr), traced again on the recorded arguments: the learner's Python runs
        again, so mute the recorder around it."""
        if self.source is not None:
            return self.source()
        args, kwargs = self.arguments()
        with self.context():
            return self.fn.trace(*args, **kwargs).jaxpr

    def dynamic_leaves(self) -> list[Any]:
        """The argument leaves the program receives as its inputs, in order: static arguments left out."""
        args, kwargs = self.arguments()
        if self.statics is not None:
            _, dynamic = self.statics.split(args, kwargs)
            args = tuple(v for path, _, v in dynamic if path.startswith("[0]"))
            kwargs = {label: v for path, label, v in dynamic if path.startswith("[1]")}
        return jax.tree_util.tree_leaves((args, kwargs))

    def input_indices(self, x: np.ndarray) -> set[int]:
        """The program inputs that hold ``x`` (the array itself, or a stacked array with x as a row)."""
        return {i for i, leaf in enumerate(self.dynamic_leaves()) if _place(leaf, x) is not None}

    @property
    def arrays(self) -> list[np.ndarray]:
        """The concrete array arguments, as NumPy, copied at the call."""
        return [leaf for leaf in self.snapshot if isinstance(leaf, np.ndarray)]

    @property
    def types(self) -> tuple[str, ...]:
        """Each argument leaf's abstract type as jit saw it (weak types shown with ~), from the arguments
        themselves: a NumPy copy would lose a JAX scalar's weak type."""
        out = []
        for leaf in jax.tree_util.tree_leaves((self.args, self.kwargs)):
            try:
                out.append(str(jax.typeof(leaf)))
            except Exception:
                out.append(type(leaf).__name__)
        return tuple(out)

    def shown_types(self) -> list[str]:
        """The arguments as a person reads the call: a static one as ``name=value`` (its value is part of the
        cache key), every other leaf as its type (``types``)."""
        if self.statics is None:
            return list(self.types)
        static, dynamic = self.statics.split(self.args, self.kwargs)
        paths = [f"[0][{i}]" for i in range(len(self.args))] + [f"[1][{k!r}]" for k in self.kwargs]
        shown = []
        for path, label, value in sorted(static + dynamic, key=lambda item: paths.index(item[0])):
            if any(path == p for p, _, _ in static):
                text = repr(value)
                shown.append(f"{label}={text if len(text) <= 40 else text[:39] + '…'}")
                continue
            for leaf in jax.tree_util.tree_leaves(value):
                try:
                    shown.append(str(jax.typeof(leaf)))
                except Exception:
                    shown.append(type(leaf).__name__)
        return shown

    def arguments(self, arrays: list[np.ndarray] | None = None) -> tuple[tuple, dict]:
        """(args, kwargs) as at the call; with ``arrays``, its array leaves replaced in order by those."""
        replace = iter(arrays) if arrays is not None else None
        leaves = [next(replace) if replace is not None and isinstance(leaf, np.ndarray) else leaf
                  for leaf in self.snapshot]
        args, kwargs = jax.tree_util.tree_unflatten(self.tree, leaves)
        return tuple(args), dict(kwargs)

    def holds(self, x: np.ndarray) -> bool:
        """Whether an argument is ``x`` (equal values), or holds it as one row of a stacked array."""
        return any(_place(leaf, x) is not None for leaf in self.snapshot)

    def replacing(self, x: np.ndarray, new_x: np.ndarray) -> tuple[tuple, dict]:
        """(args, kwargs) as at the call with ``x`` (or its row in a stacked argument) replaced by ``new_x``."""
        swapped = []
        for leaf in self.snapshot:
            place = _place(leaf, x)
            if place == "same":
                leaf = new_x
            elif place is not None:
                leaf = leaf.copy()
                leaf[place] = new_x
            swapped.append(leaf)
        args, kwargs = jax.tree_util.tree_unflatten(self.tree, swapped)
        return tuple(args), dict(kwargs)

    def reinvoke(self, args: tuple, kwargs: dict | None = None) -> Any:
        """Call the same jitted function again with other arguments (run it outside the counted calls)."""
        with self.context():
            out = self.fn(*args, **(self.kwargs if kwargs is None else kwargs))
            jax.block_until_ready(out)
        return out

    def rerun_replacing(self, x: np.ndarray, new_x: np.ndarray) -> list[np.ndarray]:
        """Run the call again with ``x`` replaced by ``new_x`` (see ``replacing``): its output leaves, as float64.
        Comparing this for x itself and for another x shows whether the result is computed from x."""
        out = self.reinvoke(*self.replacing(x, new_x))
        return [np.asarray(leaf, dtype=np.float64) for leaf in jax.tree_util.tree_leaves(out)]


def _set_mesh() -> Any:
    """The concrete mesh set with jax.set_mesh at this moment, or None (none set, or a JAX without the API)."""
    try:
        mesh = jax.sharding.get_mesh()
    except Exception:
        return None
    return None if getattr(mesh, "empty", True) else mesh


def _primal(leaf: Any) -> Any:
    """A differentiated argument's value: under an eager jax.grad, a jitted function receives JVP (linearize)
    tracers whose primal is the concrete array the forward pass ran on. The tracer itself dies with the grad; its
    primal is what a rerun of the call needs."""
    while isinstance(leaf, jax.core.Tracer) and hasattr(leaf, "primal"):
        leaf = leaf.primal
    return leaf


def _place(leaf: Any, x: np.ndarray) -> str | int | None:
    """How ``leaf`` holds x: "same" (it is x), the index of the row that is x in a stacked array, or None."""
    if not isinstance(leaf, np.ndarray):
        return None
    if leaf.shape == x.shape and np.array_equal(leaf, x):
        return "same"
    if leaf.ndim == x.ndim + 1 and leaf.shape[1:] == x.shape:
        for i in range(leaf.shape[0]):
            if np.array_equal(leaf[i], x):
                return i
    return None


def origin_of(fun: Any) -> Any:
    """What a jitted function is of: the code of the Python function under partials and bound methods (a new
    jax.jit of the same lambda, made on every step, has one origin), else the object itself."""
    for _ in range(8):
        inner = getattr(fun, "func", None) or getattr(fun, "__func__", None)
        if inner is None or inner is fun:
            break
        fun = inner
    return getattr(fun, "__code__", None) or fun
