"""Whether one graded call's data reached jitted code, whether that code did the lesson's work on it, and whether
the result is built from what that code returned.

"Computed under jit" is proved three ways, each defeating a different dodge: the data must be an argument of a
jitted call (not a closure constant, not host-side only); the program of a jitted call that received it must apply
the lesson's operation to it (a ``dot_general`` on x, not a jitted ``x + 0.0`` with the work done in NumPy); and
the graded function's result must move when what that program returned is perturbed (not a jitted decoy run beside
a result computed on the host).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import jax
import numpy as np

from jittrainer.grading.sandbox.checks.jaxprs import work_outputs
from jittrainer.i18n.message import Msg, msg

if TYPE_CHECKING:
    from jittrainer.grading.sandbox.checks.context import CheckContext
    from jittrainer.grading.sandbox.checks.spies import JitCall


@dataclass
class JitReach:
    """What the grader found; ``problem`` is "" when the data reached jitted code (and the result followed it)."""

    # "", "no_jit" (no jitted call at all), "missing", "no_work", "rerun_failed", "not_following" or "ignored"
    problem: str
    index: int = 0  # for "missing": which of the arrays (from 0) reached no jitted function
    names: list[str] = field(default_factory=list)  # the jitted functions that ran during the call
    function: str = ""  # the jitted function run again, or found doing the work
    error: str = ""  # for "rerun_failed": "ValueError: …", at most 200 characters
    # The jitted calls whose programs do the work, each with the indices of its outputs the work feeds (None: all).
    working: list[tuple[JitCall, list[int] | None]] = field(default_factory=list)
    ops: list[str] = field(default_factory=list)  # the work operations looked for


def jit_reach(g: CheckContext, call: int, arrays: Sequence[np.ndarray], probe: np.ndarray | None = None,
              other: np.ndarray | None = None, *, work: Collection[str] = (), with_other: bool = False) -> JitReach:
    """During graded ``call``: did every one of ``arrays`` reach a jitted function (as an argument, or a row of
    one)? With ``work`` (primitive names such as ``"dot_general"``): does the program of a jitted call that
    received ``probe`` (default: the first array) apply one of them to it (and, ``with_other``, to another argument
    too), else "no_work"? With ``probe`` and ``other``: does the first jitted call that received ``probe`` (the
    first doing the work) return something else when run again with ``other`` in its place?"""
    during = [c for c in g.jit_spy.calls if c.call == call]
    if not during:
        return JitReach("no_jit")
    names = list(dict.fromkeys(c.function for c in during))
    for k, x in enumerate(arrays):
        if not any(c.holds(x) for c in during):
            return JitReach("missing", k, names)
    target = probe if probe is not None else (arrays[0] if arrays else None)
    receiving = [c for c in during if target is not None and c.holds(target)]
    working: list[tuple[JitCall, list[int]]] = []
    if work and target is not None:
        working = [(c, outs) for c in receiving if (outs := _work_outputs(g, c, target, work, with_other)) is not None]
        if not working:
            return JitReach("no_work", names=names, function=receiving[0].function, ops=sorted(work))
    found = JitReach("", names=names, function=working[0][0].function if working else "", working=working)
    if probe is None or other is None:
        return found
    first = working[0][0] if working else receiving[0]
    found.function = first.function
    try:
        before, after = first.rerun_replacing(probe, probe), first.rerun_replacing(probe, other)
    except Exception as exc:  # the learner's function, run again: anything may happen
        found.problem, found.error = "rerun_failed", f"{type(exc).__name__}: {exc}"[:200]
        return found
    moved = len(before) == len(after) and any(
        a.shape != b.shape or not np.allclose(a, b, rtol=1e-6, atol=1e-7) for a, b in zip(before, after))
    found.problem = "" if moved else "not_following"
    return found


def _work_outputs(g: CheckContext, call: JitCall, x: np.ndarray, work: Collection[str],
                  with_other: bool) -> list[int] | None:
    """The outputs of ``call``'s program fed by a work operation on x, or None (no such operation)."""
    try:
        with g.recorder.mute():  # traced again: the learner's prints would run again
            closed = call.jaxpr()
        sources = call.input_indices(x)
        if not sources or len(closed.jaxpr.invars) != len(call.dynamic_leaves()):
            # an input layout the grader cannot map: every input of x's shape may hold it
            shapes = {x.shape, (None, *x.shape)}
            sources = {i for i, v in enumerate(closed.jaxpr.invars)
                       if tuple(v.aval.shape) in shapes or tuple(v.aval.shape[1:]) == x.shape}
        return work_outputs(closed, sources, set(work), with_other=with_other)
    except Exception:  # a program that cannot be traced again: it did not show the work
        return None


def perturbed(out: Any) -> Any:
    """``out`` with every floating array moved (times 1.5, plus 0.5: a zero moves too)."""
    return jax.tree_util.tree_map(
        lambda o: o * 1.5 + 0.5 if hasattr(o, "dtype") and np.issubdtype(o.dtype, np.floating) else o, out)


def built_from_jit(g: CheckContext, found: JitReach | Sequence[JitReach | JitCall], rerun: Callable[[], Any],
                   parts: Callable[[Any], Sequence[Any]] = lambda result: [result]) -> JitReach:
    """Is the graded result built from what the jitted work returned? ``rerun()`` computes the result again
    (outside the counted calls: the graded function on fresh copies of one call's inputs), twice: as it is, and
    with the work outputs of every jitted call ``found`` doing the work (``jit_reach(..., work=...)``) perturbed,
    in every call of the same function. Each of ``parts(result)`` must move; else "ignored" (the result was
    computed elsewhere, beside the jitted code)."""
    reaches = [found] if isinstance(found, JitReach) else list(found)
    # A recorded jitted call stands for a reach whose whole output is the work (the exercise proved it its own way).
    reaches = [r if isinstance(r, JitReach) else JitReach("", function=r.function, working=[(r, None)])
               for r in reaches]
    targets: dict[Any, set[int] | None] = {}  # None: every output
    for reach in reaches:
        for call, outs in reach.working:
            key = call.origin if call.origin is not None else call.fn
            kept = targets.get(key, set())
            targets[key] = None if outs is None or kept is None else kept | set(outs)
    first = reaches[0] if reaches else JitReach("no_jit")
    if not targets:
        return JitReach("ignored", names=first.names, function=first.function)

    def change(origin: Any, out: Any) -> Any:
        if origin not in targets:
            return out
        outs = targets[origin]
        if outs is None:
            return perturbed(out)
        leaves, tree = jax.tree_util.tree_flatten(out)
        return jax.tree_util.tree_unflatten(tree, [perturbed(v) if i in outs else v for i, v in enumerate(leaves)])

    spy = g.jit_spy
    kept = len(spy.calls)
    jax.clear_caches()  # a jit of the learner's around the working function must trace again, through the change
    try:
        with g.recorder.mute(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            before = _numbers(rerun())
            spy.after = change
            after = _numbers(rerun())
    except Exception as exc:  # the learner's code, run again: anything may happen
        return JitReach("rerun_failed", names=first.names, function=first.function,
                        error=f"{type(exc).__name__}: {exc}"[:200])
    finally:
        spy.after = None
        del spy.calls[kept:]
        jax.clear_caches()
    try:
        pairs = [(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
                 for a, b in zip(parts(before), parts(after))]
    except Exception:  # a result the grader cannot read: the value checks say so
        pairs = []
    for a, b in pairs:
        if a.shape == b.shape and np.allclose(a, b, rtol=1e-6, atol=0, equal_nan=True):
            return JitReach("ignored", names=first.names, function=first.function)
    return JitReach("", names=first.names, function=first.function)


def reach_failure(found: JitReach, *, what: str | Msg, graded: str) -> Msg | None:
    """The default observation for a "no_work" or "ignored" finding (None for the others, which each exercise
    words itself): ``what`` names the data ("x", "batch 1 of run 2"), ``graded`` the graded function."""
    if found.problem == "no_work":
        return msg("reach.no_work", "your jitted function {function} received {what}, but its program does not do "
                   "the work on it (no {ops} uses it): the work happens outside jit, and jit only passes the data "
                   "through", function=found.function, what=what, ops=found.ops)
    if found.problem == "ignored":
        return msg("reach.ignored", "the result of {graded} is not built from what your jitted code returns: when "
                   "the grader changed the outputs of {function} (in a run of its own, uncounted), {graded} returned "
                   "the same result, so it was computed beside the jitted code", graded=graded,
                   function=found.function)
    return None


def refuse_beside_jit(g: CheckContext, check: str, found: JitReach | Sequence[JitReach | JitCall],
                      rerun: Callable[[], Any], *, what: str | Msg, graded: str, advice: Msg | None = None,
                      tier: int | None = None, parts: Callable[[Any], Sequence[Any]] = lambda result: [result]) -> bool:
    """Fail ``check`` (and return True) unless the graded result is built from what the jitted work returned
    (``built_from_jit``); a rerun that fails is reported with its error."""
    built = built_from_jit(g, found, rerun, parts)
    if not built.problem:
        return False
    g.failed(check, reach_failure(built, what=what, graded=graded) or msg(
        "reach.rerun_all_failed", "the grader ran {graded} again, with what your jitted code returned changed, and "
        "it failed ({error})", graded=graded, error=built.error), advice, tier=tier)
    return True


def _numbers(result: Any) -> Any:
    """A result as NumPy leaves in its own structure, waited for (and copied, before a later run can donate it)."""
    jax.block_until_ready(result)
    jax.effects_barrier()
    return jax.tree_util.tree_map(lambda v: np.array(v, dtype=np.float64) if hasattr(v, "shape") or
                                  isinstance(v, (int, float)) else v, result)
