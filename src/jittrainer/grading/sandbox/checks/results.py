"""Judging what the graded calls returned: every result against its expected value, the first wrong one explained
by a known slip (ddof=1, a mean over the padding, …) when one fits, else by what differs."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from jittrainer.grading.sandbox.checks.callbacks import refuse_fetching
from jittrainer.grading.sandbox.checks.values import compare, is_plain
from jittrainer.grading.sandbox.checks.wording import filled
from jittrainer.i18n.message import Msg, msg

if TYPE_CHECKING:
    from jittrainer.grading.sandbox.checks.context import CheckContext


FLOAT32_EPS = float(np.finfo(np.float32).eps)


def float32_atol(magnitude: Any, *, ulps: float = 64) -> np.ndarray:
    """An absolute tolerance fitted to float32 rounding at the operands' magnitude: ``ulps`` units in the last place
    of ``magnitude``, element by element. ``magnitude`` is the size of what each value is computed from, not of the
    value itself: for ``x @ w + b``, ``|x| @ |w| + |b|`` (a sum that cancels to 0 still carries the rounding of its
    terms); for a mean, the mean of ``|x|``."""
    return ulps * FLOAT32_EPS * np.abs(np.asarray(magnitude, dtype=np.float64))


def as_floats(value: Any, shape: tuple[int, ...] | None = None, *, exact: bool = False) -> np.ndarray | None:
    """``value`` as float64 NumPy, or None when it is not numbers (a tracer, None, text). With ``shape``: reshaped to
    it when the value has that many elements, None otherwise; ``exact``: None unless it has that shape already."""
    try:
        arr = np.asarray(value, dtype=np.float64)
    except Exception:
        return None
    if shape is None or arr.shape == shape:
        return arr
    if exact or arr.size != int(np.prod(shape)):
        return None
    return arr.reshape(shape)


def as_number(value: Any) -> float | None:
    """A result holding one number (of any shape: 3.0, [3.0], [[3.0]]) as a float, else None."""
    arr = as_floats(value)
    return float(arr.reshape(-1)[0]) if arr is not None and arr.size == 1 else None


def type_of(value: Any) -> str:
    """A result's type as JAX writes it: "float32[8]", "int32[]"; "float" (or another Python type name) for what
    has no dtype."""
    dtype, shape = getattr(value, "dtype", None), getattr(value, "shape", None)
    if dtype is None or shape is None:
        return type(value).__name__
    try:
        name = np.dtype(dtype).name
    except TypeError:  # one of JAX's own dtypes, a typed PRNG key's key<fry>: as JAX writes it
        name = str(dtype)
    return f"{name}[{', '.join(str(int(n)) for n in shape)}]"


def wrong_type(value: Any, shape: tuple[int, ...], dtype: str, what: Msg) -> Msg | None:
    """Whether a result has the stated shape and dtype (a number the statement says is a float32 scalar must be a
    0-d float32 array, not shape (1,)): None when it has, else what it is instead."""
    want = f"{dtype}[{', '.join(map(str, shape))}]"
    got = type_of(value)
    if got == want:
        return None
    return msg("type.wrong", "{what} is {got}; expected {want}", what=what, got=got, want=want)


def refuse_wrong_type(g: CheckContext, check: str, results: Iterable[tuple[Any, Msg]], shape: tuple[int, ...],
                      dtype: str, advice: Msg | None = None, *, tier: int | None = None) -> bool:
    """Fail ``check`` (and return True) with ``wrong_type`` of the first of the (result, what it is) pairs that has
    not the stated shape and dtype: a contract that states a type checks it."""
    why = next((why for value, what in results if (why := wrong_type(value, shape, dtype, what)) is not None), None)
    if why is None:
        return False
    g.failed(check, why, advice, tier=tier)
    return True


def first_slip(got: Any, slips: Iterable[tuple[Any, Msg]], *, rtol: float, atol: float) -> Msg | None:
    """The message of the first (value a known slip would give, message) pair whose value ``got`` matches; None when
    ``got`` is None or matches none. Give the pairs as a generator to work each value out only when it is needed."""
    if got is None:
        return None
    for value, message in slips:
        if np.shape(value) == np.shape(got) and np.allclose(got, value, rtol=rtol, atol=atol):
            return message
    return None


Tolerance = float | np.ndarray | Callable[[int], Any]  # a number, one per element, or one per call (from 1)


def mismatch(results: Sequence[Any], wanted: Iterable[Any], *, rtol: float = 1e-4, atol: Tolerance = 1e-5,
             what: Callable[[int], Msg] | None = None, slip: Callable[[int, Any], Msg | None] | None = None
             ) -> Msg | None:
    """What is wrong with the first result (i from 1) that differs from its wanted value: the known ``slip(i,
    result)`` that explains it, or else what differs (``compare``), naming it ``what(i)`` ("the result of call 2").
    A slip's message that names ``{why}`` gets what differs filled in: "{why}: that is 3 times the sum". ``atol``
    may be ``atol(i)``, one tolerance per call (``float32_atol`` of that call's operands). None when every result
    matches. A slip is looked for only in a plain value (``is_plain``): the exercise's code must not run the
    methods of whatever object the learner's code returned."""
    name = what or (lambda i: msg("what.call", "the result of call {i}", i=i))
    for i, (result, want) in enumerate(zip(results, wanted), 1):
        good, why = compare(result, want, rtol=rtol, atol=atol(i) if callable(atol) else atol, what=name(i))
        if not good:
            found = slip(i, result) if slip and is_plain(result) else None
            return why if found is None else filled(found, {"why": why})
    return None


def values_match(g: CheckContext, check: str, results: Sequence[Any], wanted: Iterable[Any], *,
                 rtol: float = 1e-4, atol: Tolerance = 1e-5, what: Callable[[int], Msg] | None = None,
                 slip: Callable[[int, Any], Msg | None] | None = None, advice: Msg | None = None,
                 tier: int | None = None, ok: Msg | None = None, refuse: bool = False) -> bool:
    """Fail ``check`` with the first ``mismatch`` and ``advice``; pass it with ``ok`` (default "all N results
    match") when every result matches. With ``refuse``, right values fetched from Python through a host callback
    fail too (``refuse_fetching``)."""
    why = mismatch(results, wanted, rtol=rtol, atol=atol, what=what, slip=slip)
    if why is not None:
        return g.failed(check, why, advice, tier=tier)
    ok = ok or msg("values.ok", "all {n} results match", n=len(results))
    if refuse:
        return refuse_fetching(g, check, None, advice, tier=tier, passed=ok)
    return g.passed(check, ok)


def first_wrong(g: CheckContext, check: str, items: Iterable[Any], right: Callable[[Any], bool],
                wrong: Callable[[int, Any], Msg], advice: Msg | None = None, *, tier: int | None = None,
                ok: Msg | None = None) -> bool:
    """Fail ``check`` with the exercise's own ``wrong(i, item)`` (and ``advice``) for the first of ``items`` (i from
    1) that ``right(item)`` rejects; pass it with ``ok`` when every item is right::

        first_wrong(g, "values", zip(results, wants), lambda rw: close(*rw), lambda i, rw: msg("values.differ",
                    "run {r} …", r=i), advice, tier=1, ok=msg("values.ok", "both runs end at the right weights"))"""
    for i, item in enumerate(items, 1):
        if not right(item):
            return g.failed(check, wrong(i, item), advice, tier=tier)
    return g.passed(check, ok)
