"""Looking at what the learner's code returned: tracers, numbers, shapes, and comparing with the expected result.

Nothing on the way to a comparison runs code the learner's value brings: types are read with ``type()`` and compared
by identity (``safe_types``), never with ``isinstance`` (which asks a value's ``__class__``, a property a class may
define) or ``in`` a set (which asks a metaclass's ``__hash__`` and ``__eq__``).
"""

from __future__ import annotations

import re
from typing import Any

import jax
import numpy as np

from jittrainer.grading.sandbox.jax_compat import ARRAY_TYPE
from jittrainer.grading.sandbox.safe_types import derives, is_exactly
from jittrainer.grading.sandbox.safe_types import type_name as _type_name
from jittrainer.i18n.message import Msg, msg

try:  # public in 0.10; kept optional so a later release that moves it still imports
    from jax.core import Tracer as _Tracer
except ImportError:  # pragma: no cover
    _Tracer = None


def is_tracer(value: Any) -> bool:
    if _Tracer is not None and derives(value, _Tracer):
        return True
    return _type_name(value).endswith("Tracer")


def is_typed_key(value: Any) -> bool:
    """Whether ``value`` is a typed PRNG key (``jax.random.key``), not a raw uint32 key or anything else."""
    dtype = getattr(value, "dtype", None)
    try:
        return dtype is not None and jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key)
    except Exception:
        return False


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



def best_fit(distance: Any, lo: float, hi: float, *, points: int = 60, rounds: int = 40) -> float:
    """The value between ``lo`` and ``hi`` (both above 0, searched on a log scale) where ``distance(value)`` is
    least: the best of ``points`` on a grid, then a ternary search between its neighbours. For a slip whose number
    is unknown (which learning rate explains these parameters?): check the fit before saying so::

        lr = best_fit(lambda lr: np.sum((got - sgd(params, batches, lr)) ** 2), 1e-4, 10.0)
    """
    grid = np.linspace(np.log(lo), np.log(hi), points)
    best = int(np.argmin([distance(float(np.exp(v))) for v in grid]))
    low, high = grid[max(best - 1, 0)], grid[min(best + 1, points - 1)]
    for _ in range(rounds):
        a, b = low + (high - low) / 3, high - (high - low) / 3
        low, high = (low, b) if distance(float(np.exp(a))) < distance(float(np.exp(b))) else (a, high)
    return float(np.exp((low + high) / 2))

def type_name(value: Any) -> Msg:
    """What a value is, in a learner's words: "a tracer (…)", "an array of shape (3,) and dtype float32", …"""
    if value is None:
        return msg("type.none", "None")
    if is_tracer(value):
        return msg("type.tracer", "a tracer (an abstract value that only exists while tracing)")
    if is_exactly(value, np.ndarray, ARRAY_TYPE):  # a subclass's shape or dtype could be its own property
        return msg("type.array", "an array of shape {shape} and dtype {dtype}", shape=str(tuple(value.shape)),
                   dtype=str(value.dtype))
    return msg("type.other", "a {type}", type=_type_name(value))


def leaves(value: Any) -> list[Any]:
    try:
        return jax.tree_util.tree_leaves(value)
    except Exception:
        return [value]


def copied_array(leaf: Any) -> Any:
    """A concrete (non-tracer) array leaf copied as NumPy (a learner's buffer refilled later must not rewrite what
    was recorded); anything else as it is."""
    if isinstance(leaf, (np.ndarray, jax.Array)) and not is_tracer(leaf):
        try:
            return np.array(leaf, copy=True)
        except Exception:  # a deleted (donated) array
            return leaf
    return leaf


def host_copy(args: tuple) -> tuple | None:
    """The grader's own call arguments with every concrete array leaf copied to the host (None if they cannot be)."""
    try:
        return jax.tree_util.tree_map(copied_array, args)
    except Exception:
        return None


def is_deleted(leaf: Any) -> bool:
    """Whether ``leaf`` is a jax array whose buffer is gone (donated to a program, or deleted)."""
    if type(leaf) is not ARRAY_TYPE:
        return False
    try:
        return bool(leaf.is_deleted())
    except Exception:
        return False


def concrete_arrays(tree: Any) -> list[np.ndarray]:
    """The concrete array leaves of ``tree``, copied as NumPy."""
    return [leaf for leaf in map(copied_array, leaves(tree)) if isinstance(leaf, np.ndarray)]


_ARRAY_TYPE = ARRAY_TYPE  # jax's own concrete array type (read without starting a backend)
# By id: looking a learner's type up in a set of types would call its metaclass's __hash__ and __eq__.
_NUMPY_SCALAR_IDS = frozenset(id(t) for t in np.sctypeDict.values() if issubclass(t, (np.bool_, np.number)))


def items_of(value: Any) -> list[Any]:
    """The items of a list or tuple (of a subclass too) read by the base type's own iterator, never the value's."""
    return list(list.__iter__(value) if derives(value, list) else tuple.__iter__(value))


def plain_numbers(value: Any, depth: int = 0) -> np.ndarray | None:
    """``value`` as a float64 NumPy array without running any code the learner's value brings (its own
    ``__array__``, ``__float__``, ``__eq__`` or ``__iter__``): only exact built-in numbers, NumPy arrays and scalars
    of a numeric dtype, jax's own arrays, and lists or tuples of those. None for anything else."""
    if is_exactly(value, bool, int, float) or id(type(value)) in _NUMPY_SCALAR_IDS:
        try:
            return np.asarray(value, dtype=np.float64)
        except (OverflowError, ValueError):  # an int too large for a float
            return None
    if is_exactly(value, np.ndarray, _ARRAY_TYPE):
        if not (jax.numpy.issubdtype(value.dtype, jax.numpy.number) or value.dtype == np.bool_):
            return None
        try:
            return np.asarray(value, dtype=np.float64)
        except Exception:  # a deleted (donated) buffer
            return None
    if derives(value, list, tuple) and depth < 32:  # a namedtuple too, read by the base type's own iterator
        parts = [plain_numbers(v, depth + 1) for v in items_of(value)]
        if any(p is None for p in parts) or len({p.shape for p in parts}) > 1:  # type: ignore[union-attr]
            return None
        return np.stack(parts) if parts else np.zeros((0,))
    return None


def is_plain(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is made of exact built-in numbers, NumPy and jax arrays and scalars, and exact lists and
    tuples of those: a value whose methods are all NumPy's, jax's or Python's own, that other code may look at."""
    if is_exactly(value, list, tuple):
        return depth < 32 and all(is_plain(v, depth + 1) for v in items_of(value))
    if is_exactly(value, np.ndarray):
        return value.dtype.kind in "biufc"  # an object array holds the learner's objects
    return is_exactly(value, bool, int, float, _ARRAY_TYPE) or id(type(value)) in _NUMPY_SCALAR_IDS


def _shape_words(arr: np.ndarray) -> Msg:
    if arr.ndim == 0:
        return msg("shape.number", "a number")
    return msg("shape.array", "an array of shape {shape}", shape=str(arr.shape))


def compare(
    actual: Any,
    expected: Any,
    *,
    rtol: float = 1e-4,
    atol: Any = 1e-5,  # a number, or one per element
    what: Msg | str = "",
) -> tuple[bool, Msg | None]:
    """Compare a learner's return value with the expected numbers. Never raises; the message says what differs.
    ``what`` names the value in the message ("the result of call 2"); default "the result"."""
    what = what or msg("what.result", "the result")
    expected_arr = np.asarray(expected, dtype=np.float64)
    if is_tracer(actual) or (derives(actual, list, tuple) and any(is_tracer(a) for a in items_of(actual))):
        return False, msg("compare.tracer", "{what} is a tracer, not a value: it leaked out of a traced function",
                          what=what)
    if derives(actual, str, bytes, dict, type(None)) or callable(actual):  # callable() reads a slot, runs nothing
        return False, msg("compare.type", "{what} is {type}; expected {want}", what=what, type=type_name(actual),
                          want=_shape_words(expected_arr))
    actual_arr = plain_numbers(actual)
    if actual_arr is None:
        return False, msg("compare.not_numbers", "{what} is {type}, which is not a number or an array of numbers",
                          what=what, type=type_name(actual))
    if actual_arr.shape != expected_arr.shape:
        squeezable = actual_arr.size == expected_arr.size
        if squeezable and np.squeeze(actual_arr).shape == np.squeeze(expected_arr).shape:
            actual_arr = actual_arr.reshape(expected_arr.shape)
        else:
            return False, msg("compare.shape", "{what} has shape {got}; expected shape {want}", what=what,
                              got=str(actual_arr.shape), want=str(expected_arr.shape))
    nan = np.isnan(actual_arr) & ~np.isnan(expected_arr)
    if nan.any():
        return False, msg("compare.nan", "{what} holds NaN at {n} of {size} positions", what=what, n=int(nan.sum()),
                          size=int(nan.size))
    close = np.isclose(actual_arr, expected_arr, rtol=rtol, atol=atol, equal_nan=True)
    if close.all():
        return True, None
    bad = np.argwhere(~close)
    if actual_arr.ndim == 0:
        return False, msg("compare.scalar", "{what} is {got:.6g} where {want:.6g} was expected", what=what,
                          got=float(actual_arr), want=float(expected_arr))
    first = tuple(int(i) for i in bad[0])
    return False, msg(
        "compare.element",
        "{what} is {got:.6g} at index {index} where {want:.6g} was expected ({bad} of {size} values differ)",
        what=what, got=float(actual_arr[first]), want=float(expected_arr[first]), index=str(list(first)),
        bad=len(bad), size=int(close.size),
    )
