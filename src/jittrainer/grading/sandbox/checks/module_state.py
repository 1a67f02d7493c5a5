"""What a learner's module keeps at module level, and how a returned state is copied so that the grader can hand it
back unchanged: the checks that say "keep nothing in a global or a list" compare the two readings taken before and
after the graded calls, whatever route (a tracer leak, a host callback appending to a list) filled the global."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import Any

import jax
import numpy as np

from jittrainer.grading.sandbox.checks.values import is_tracer

_NUMBERS = (np.ndarray, jax.Array, np.generic, float, int)


def module_values(module: ModuleType, home: str) -> dict[str, list[Any]]:
    """Every module-level name of the file with the values it holds, in lists, tuples, sets, dicts and attributes
    of objects of the file's own classes (``home``: the name the file is imported under), a few levels deep."""
    return {name: list(_held(value, home, 0, set())) for name, value in list(vars(module).items())
            if not name.startswith("__") and not isinstance(value, (ModuleType, type))}


def tracers_in_module(module: ModuleType, home: str) -> list[str]:
    """The module-level names that hold a tracer."""
    return [name for name, held in module_values(module, home).items() if any(is_tracer(v) for v in held)]


def stored_numbers(module: ModuleType, home: str) -> dict[str, int]:
    """How many numbers and arrays each module-level name holds: more after the calls than before means the
    function (or a callback it runs) kept values outside itself."""
    return {name: sum(1 for v in held if is_tracer(v) or isinstance(v, _NUMBERS))
            for name, held in module_values(module, home).items()}


def _held(value: Any, home: str, depth: int, seen: set[int]) -> Iterator[Any]:
    # bool is an int, and a function is no stored value: a flag or a helper must not count as kept numbers.
    if isinstance(value, bool) or callable(value) and not is_tracer(value):
        return
    if is_tracer(value) or depth > 4 or id(value) in seen:
        yield value
        return
    seen.add(id(value))
    attrs = getattr(value, "__dict__", None)
    if isinstance(value, dict):
        inner = list(value.values())
    elif isinstance(value, (list, tuple, set, frozenset)):
        inner = list(value)
    elif isinstance(attrs, dict) and type(value).__module__ == home:
        inner = list(attrs.values())
    else:
        yield value
        return
    for v in inner:
        yield from _held(v, home, depth + 1, seen)


def typed_copy(state: Any) -> tuple[Any, Any]:
    """(NumPy copy of ``state``, the copy to hand back to jit): arrays copied (a later call may donate the
    originals), tracers kept as they are; in the second, each weakly typed scalar is a Python number (weak too),
    so that jit sees a replayed state with the types the returned one had and does not compile a right fix again."""
    def copy(leaf: Any) -> Any:
        if is_tracer(leaf) or not hasattr(leaf, "shape"):
            return leaf
        try:
            return np.array(leaf, copy=True)
        except Exception:
            return leaf

    def typed(leaf: Any, kept: Any) -> Any:
        weak = getattr(leaf, "weak_type", False) and getattr(leaf, "ndim", 1) == 0 and not is_tracer(leaf)
        return kept.item() if weak and isinstance(kept, np.ndarray) else kept

    try:
        copied = jax.tree_util.tree_map(copy, state)
    except Exception:
        return state, state
    try:
        return copied, jax.tree_util.tree_map(typed, state, copied)
    except Exception:
        return copied, copied
