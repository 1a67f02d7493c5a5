"""Did the learner's code change the grader? A snapshot of the grader's own names, compared before trusting results.

The learner's file runs in the grading process, so it could reach the grader through an import or ``sys.modules``
and, say, replace a method so that every check records a pass. Before the file is imported, every attribute of the
grader's modules and of the classes they define (and the jax functions the grader relies on, the built-ins and
NumPy's top-level functions it compares with) is remembered by identity, each function with what can be changed in
place without replacing it (its ``__code__``, ``__defaults__``, the contents of its ``__kwdefaults__`` and of its
closure's cells), the functions behind properties, static and class methods the same way, each class with its set of
attributes (one added to a class changes what its instances do), and the grader's own objects (the check context,
its spies, the worker) with the methods no instance attribute may shadow; after grading they must all be as they
were. A determined forger in the same process can still get around this (say, by patching and restoring from a
thread around the moment of the check): it stops the easy ways, not every way (the README says so).
"""

from __future__ import annotations

import builtins
import functools
import sys
from types import FunctionType, ModuleType
from typing import Any

import jax
import numpy

# jax functions the grader calls to count, wait and clear: replacing them could fake a count.
JAX_NAMES = ("jit", "pmap", "block_until_ready", "effects_barrier", "clear_caches", "make_jaxpr")


_MISSING = object()


def _ours(name: str) -> bool:
    return name == "jittrainer" or name.startswith("jittrainer.")


def _grader_modules(extra: list[ModuleType]) -> list[ModuleType]:
    # The worker itself runs as __main__ (python -m jittrainer.grading.sandbox.worker): its module spec says whose.
    mods = [m for name, m in list(sys.modules.items()) if isinstance(m, ModuleType)
            and (_ours(name) or _ours(getattr(getattr(m, "__spec__", None), "name", None) or ""))]
    return list({id(m): m for m in mods + extra}.values())


def _functions_of(value: Any) -> list[FunctionType]:
    """The Python functions a namespace entry runs: a function, a property's getter, setter and deleter, the function
    of a staticmethod, classmethod or cached_property."""
    if isinstance(value, FunctionType):
        return [value]
    if isinstance(value, property):
        return [f for f in (value.fget, value.fset, value.fdel) if isinstance(f, FunctionType)]
    if isinstance(value, (staticmethod, classmethod)):
        return _functions_of(value.__func__)
    if isinstance(value, functools.cached_property):
        return _functions_of(value.func)
    return []


class _Function:
    """What can be changed in a function without replacing it: its code, its defaults, the contents of its keyword
    defaults and of its closure's cells (one level of closed-over functions too: a decorator's wrapped function)."""

    __slots__ = ("fn", "code", "defaults", "kwdefaults", "kw_items", "cells", "inner")

    def __init__(self, fn: FunctionType, depth: int = 0) -> None:
        self.fn, self.code, self.defaults, self.kwdefaults = fn, fn.__code__, fn.__defaults__, fn.__kwdefaults__
        self.kw_items = None if self.kwdefaults is None else tuple(self.kwdefaults.items())
        closure = fn.__closure__
        self.cells = None if closure is None else tuple((cell, _contents(cell)) for cell in closure)
        self.inner = None if closure is None or depth >= 2 else [
            _Function(c, depth + 1) for _cell, c in self.cells if isinstance(c, FunctionType)]

    def changed(self) -> list[str]:
        fn, out = self.fn, []
        if fn.__code__ is not self.code:
            out.append("__code__")
        if fn.__defaults__ is not self.defaults:
            out.append("__defaults__")
        now = fn.__kwdefaults__
        if now is not self.kwdefaults or (self.kw_items is not None and (len(now) != len(self.kw_items) or any(
                now.get(k, _MISSING) is not v for k, v in self.kw_items))):
            out.append("__kwdefaults__")
        if self.cells is not None:
            if any(_contents(cell) is not value for cell, value in self.cells):
                out.append("__closure__")
            out += [f"__closure__.{name}" for inner in self.inner or () for name in inner.changed()]
        return out


def _contents(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:  # an empty cell
        return _MISSING


class Snapshot:
    # Names are kept as a copy of each namespace and labelled only when something changed: the snapshot is taken
    # on the learner's clock (before their file is imported), so it must cost well under a millisecond per thousand.
    def __init__(self, extra_modules: list[ModuleType] = (), instances: dict[str, Any] | None = None) -> None:
        self._spaces: list[tuple[str, Any, dict[str, Any]]] = []  # (label, owner, a copy of its namespace)
        self._functions: list[tuple[str, _Function]] = []  # (label, what can change in a function in place)
        self._classes: list[tuple[str, type, frozenset[str]]] = []  # (label, class, its attribute names)
        self._instances: list[tuple[str, Any, type, frozenset[str]]] = []  # (label, object, class, names shadowed)
        for module in _grader_modules(list(extra_modules)):
            name_of = module.__name__
            space = dict(vars(module))
            self._spaces.append((name_of, module, space))
            self._remember_functions(name_of, space)
            for name, value in space.items():
                if isinstance(value, type) and getattr(value, "__module__", None) == name_of:
                    members = dict(vars(value))
                    label = f"{name_of}.{name}"
                    self._classes.append((label, value, frozenset(members)))
                    self._spaces.append((label, value, members))
                    self._remember_functions(label, members)
        for module in (builtins, numpy):  # their names only: their classes are not the grader's
            self._spaces.append((module.__name__, module, dict(vars(module))))
        self._spaces.append(("jax", jax, {name: getattr(jax, name, None) for name in JAX_NAMES}))
        for label, obj in (instances or {}).items():
            self._instances.append((label, obj, type(obj), _shadowed(obj)))

    def _remember_functions(self, label: str, space: dict[str, Any]) -> None:
        self._functions += [(f"{label}.{name}", _Function(fn)) for name, value in space.items()
                            for fn in _functions_of(value)]

    def changed(self) -> list[str]:
        """What no longer is as it was (replaced, deleted, its code, defaults or closure changed, a class given new
        attributes, a method of the grader's objects shadowed), by name."""
        out = []
        for label, owner, space in self._spaces:
            now = vars(owner)
            out += [f"{label}.{name}" for name, value in space.items() if now.get(name, _MISSING) is not value]
        out += [f"{label}.{what}" for label, fn in self._functions for what in fn.changed()]
        for label, cls, names in self._classes:
            out += [f"{label}.{name}" for name in sorted(set(vars(cls)) - names)]
        for label, obj, kind, before in self._instances:
            if type(obj) is not kind:  # __class__ assigned: every method changed at once
                out.append(f"{label}.__class__")
            out += [f"{label}.{name}" for name in sorted(_shadowed(obj) - before)]
        return out


def _shadowed(obj: Any) -> frozenset[str]:
    """The attributes of ``obj``'s class (and its bases) that an attribute of ``obj`` itself hides."""
    own = getattr(obj, "__dict__", None)
    if not isinstance(own, dict):
        return frozenset()
    names = {name for cls in type(obj).__mro__ if cls is not object for name in vars(cls)}
    return frozenset(name for name in own if name in names)
