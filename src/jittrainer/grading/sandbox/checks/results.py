"""Judging what the graded calls returned: every result against its expected value, the first wrong one explained
by a known slip (ddof=1, a mean over the padding, …) when one fits, else by what differs."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from jittrainer.grading.sandbox.checks.values import compare
from jittrainer.i18n.message import Msg, msg

if TYPE_CHECKING:
    from jittrainer.grading.sandbox.checks.context import CheckContext


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


def first_slip(got: Any, slips: Iterable[tuple[Any, Msg]], *, rtol: float, atol: float) -> Msg | None:
    """The message of the first (value a known slip would give, message) pair whose value ``got`` matches; None when
    ``got`` is None or matches none. Give the pairs as a generator to work each value out only when it is needed."""
    if got is None:
        return None
    for value, message in slips:
        if np.shape(value) == np.shape(got) and np.allclose(got, value, rtol=rtol, atol=atol):
            return message
    return None


def mismatch(results: Sequence[Any], wanted: Iterable[Any], *, rtol: float = 1e-4, atol: float = 1e-5,
             what: Callable[[int], Msg] | None = None, slip: Callable[[int, Any], Msg | None] | None = None
             ) -> Msg | None:
    """What is wrong with the first result (i from 1) that differs from its wanted value: the known ``slip(i,
    result)`` that explains it, or else what differs (``compare``), naming it ``what(i)`` ("the result of call 2").
    None when every result matches."""
    name = what or (lambda i: msg("what.call", "the result of call {i}", i=i))
    for i, (result, want) in enumerate(zip(results, wanted), 1):
        good, why = compare(result, want, rtol=rtol, atol=atol, what=name(i))
        if not good:
            return (slip(i, result) if slip else None) or why
    return None


def values_match(g: CheckContext, check: str, results: Sequence[Any], wanted: Iterable[Any], *,
                 rtol: float = 1e-4, atol: float = 1e-5, what: Callable[[int], Msg] | None = None,
                 slip: Callable[[int, Any], Msg | None] | None = None, advice: Msg | None = None,
                 tier: int | None = None, ok: Msg | None = None) -> bool:
    """Fail ``check`` with the first ``mismatch`` and ``advice``; pass it with ``ok`` (default "all N results
    match") when every result matches."""
    why = mismatch(results, wanted, rtol=rtol, atol=atol, what=what, slip=slip)
    if why is not None:
        return g.failed(check, why, advice, tier=tier)
    return g.passed(check, ok or msg("values.ok", "all {n} results match", n=len(results)))
