"""Did the learner's code change the grader? A snapshot of the grader's own names, compared before trusting results.

The learner's file runs in the grading process, so it could reach the grader through an import or ``sys.modules``
and, say, replace a method so that every check records a pass. Before the file is imported, every attribute of the
grader's modules and of the classes they define (and the jax functions the grader relies on) is remembered by
identity; after grading they must all still be the same objects. A determined forger in the same process can still
get around this: it stops the easy ways, not every way (the README says so).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

import jax

# jax functions the grader calls to count, wait and clear: replacing them could fake a count.
JAX_NAMES = ("jit", "pmap", "block_until_ready", "effects_barrier", "clear_caches", "make_jaxpr")


def _grader_modules(extra: list[ModuleType]) -> list[ModuleType]:
    mods = [m for name, m in list(sys.modules.items())
            if isinstance(m, ModuleType) and (name == "jittrainer" or name.startswith("jittrainer."))]
    return mods + extra


class Snapshot:
    def __init__(self, extra_modules: list[ModuleType] = ()) -> None:
        self._entries: list[tuple[str, Any, str, Any]] = []  # (label, owner, attribute, value)
        for module in _grader_modules(list(extra_modules)):
            for name, value in list(vars(module).items()):
                self._entries.append((f"{module.__name__}.{name}", module, name, value))
                if isinstance(value, type) and getattr(value, "__module__", None) == module.__name__:
                    for attr, member in list(vars(value).items()):
                        self._entries.append((f"{module.__name__}.{name}.{attr}", value, attr, member))
        for name in JAX_NAMES:
            self._entries.append((f"jax.{name}", jax, name, getattr(jax, name, None)))

    def changed(self) -> list[str]:
        """What no longer is the object it was (replaced or deleted), by name."""
        missing = object()
        out = []
        for label, owner, attr, value in self._entries:
            now = vars(owner).get(attr, missing) if isinstance(owner, (type, ModuleType)) else missing
            if now is not value:
                out.append(label)
        return out
