"""Did the learner's code change the grader? A snapshot of the grader's own names, compared before trusting results.

The learner's file runs in the grading process, so it could reach the grader through an import or ``sys.modules``
and, say, replace a method so that every check records a pass. Before the file is imported, every attribute of the
grader's modules and of the classes they define (and the jax functions the grader relies on, the built-ins and
NumPy's top-level functions it compares with) is remembered by identity, each function with its code object (a
function's ``__code__`` can be replaced in place), and each class with its set of attributes (one added to a class
changes what its instances do); after grading they must all be as they were. A determined forger in the same process
can still get around this: it stops the easy ways, not every way (the README says so).
"""

from __future__ import annotations

import builtins
import sys
from types import FunctionType, ModuleType
from typing import Any

import jax
import numpy

# jax functions the grader calls to count, wait and clear: replacing them could fake a count.
JAX_NAMES = ("jit", "pmap", "block_until_ready", "effects_barrier", "clear_caches", "make_jaxpr")


def _grader_modules(extra: list[ModuleType]) -> list[ModuleType]:
    mods = [m for name, m in list(sys.modules.items())
            if isinstance(m, ModuleType) and (name == "jittrainer" or name.startswith("jittrainer."))]
    return mods + extra


class Snapshot:
    def __init__(self, extra_modules: list[ModuleType] = ()) -> None:
        self._entries: list[tuple[str, Any, str, Any]] = []  # (label, owner, attribute, value)
        self._codes: list[tuple[str, FunctionType, Any]] = []  # (label, function, its code object)
        self._classes: list[tuple[str, type, frozenset[str]]] = []  # (label, class, its attribute names)
        for module in _grader_modules(list(extra_modules)):
            for name, value in list(vars(module).items()):
                self._remember(f"{module.__name__}.{name}", module, name, value)
                if isinstance(value, type) and getattr(value, "__module__", None) == module.__name__:
                    self._classes.append((f"{module.__name__}.{name}", value, frozenset(vars(value))))
                    for attr, member in list(vars(value).items()):
                        self._remember(f"{module.__name__}.{name}.{attr}", value, attr, member)
        for module in (builtins, numpy):  # their names only: their classes are not the grader's
            for name, value in list(vars(module).items()):
                self._entries.append((f"{module.__name__}.{name}", module, name, value))
        for name in JAX_NAMES:
            self._entries.append((f"jax.{name}", jax, name, getattr(jax, name, None)))

    def _remember(self, label: str, owner: Any, attr: str, value: Any) -> None:
        self._entries.append((label, owner, attr, value))
        if isinstance(value, FunctionType):
            self._codes.append((label, value, value.__code__))

    def changed(self) -> list[str]:
        """What no longer is as it was (replaced, deleted, its code swapped, a class given new attributes), by name."""
        missing = object()
        out = []
        for label, owner, attr, value in self._entries:
            now = vars(owner).get(attr, missing) if isinstance(owner, (type, ModuleType)) else missing
            if now is not value:
                out.append(label)
        out += [f"{label}.__code__" for label, fn, code in self._codes if fn.__code__ is not code]
        for label, cls, names in self._classes:
            out += [f"{label}.{name}" for name in sorted(set(vars(cls)) - names)]
        return out
