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
    # Names are kept as a copy of each namespace and labelled only when something changed: the snapshot is taken
    # on the learner's clock (before their file is imported), so it must cost well under a millisecond per thousand.
    def __init__(self, extra_modules: list[ModuleType] = ()) -> None:
        self._spaces: list[tuple[str, Any, dict[str, Any]]] = []  # (label, owner, a copy of its namespace)
        self._codes: list[tuple[str, FunctionType, Any]] = []  # (label, function, its code object)
        self._classes: list[tuple[str, type, frozenset[str]]] = []  # (label, class, its attribute names)
        for module in _grader_modules(list(extra_modules)):
            name_of = module.__name__
            space = dict(vars(module))
            self._spaces.append((name_of, module, space))
            self._remember_codes(name_of, space)
            for name, value in space.items():
                if isinstance(value, type) and getattr(value, "__module__", None) == name_of:
                    members = dict(vars(value))
                    label = f"{name_of}.{name}"
                    self._classes.append((label, value, frozenset(members)))
                    self._spaces.append((label, value, members))
                    self._remember_codes(label, members)
        for module in (builtins, numpy):  # their names only: their classes are not the grader's
            self._spaces.append((module.__name__, module, dict(vars(module))))
        self._spaces.append(("jax", jax, {name: getattr(jax, name, None) for name in JAX_NAMES}))

    def _remember_codes(self, label: str, space: dict[str, Any]) -> None:
        self._codes += [(f"{label}.{name}", value, value.__code__) for name, value in space.items()
                        if isinstance(value, FunctionType)]

    def changed(self) -> list[str]:
        """What no longer is as it was (replaced, deleted, its code swapped, a class given new attributes), by name."""
        missing = object()
        out = []
        for label, owner, space in self._spaces:
            now = vars(owner)
            out += [f"{label}.{name}" for name, value in space.items() if now.get(name, missing) is not value]
        out += [f"{label}.__code__" for label, fn, code in self._codes if fn.__code__ is not code]
        for label, cls, names in self._classes:
            out += [f"{label}.{name}" for name in sorted(set(vars(cls)) - names)]
        return out
