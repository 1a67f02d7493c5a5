"""Reading a jaxpr: its equations (nested ones included), the callbacks it holds, and a report for the Jaxpr pane."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from jax.extend.core import ClosedJaxpr, Jaxpr, Literal

from jittrainer.grading.verdict import Jaxpr as JaxprReport

CALLBACK_PRIMITIVES = ("debug_print", "debug_callback", "io_callback", "pure_callback")


def jaxpr_report(closed: ClosedJaxpr, function: str = "") -> JaxprReport:
    primitives: Counter[str] = Counter(eqn.primitive.name for eqn in iter_eqns(closed))
    constants = []
    for var, const in zip(closed.jaxpr.constvars, closed.consts):
        nbytes = int(getattr(const, "nbytes", 0) or 0)
        constants.append(f"{var.aval.str_short()} ({nbytes:,} bytes)")
    return JaxprReport(
        text=str(closed),
        function=function,
        primitives=dict(primitives.most_common()),
        callbacks=[name for name in CALLBACK_PRIMITIVES if primitives.get(name)],
        constants=constants,
        effects=sorted({type(e).__name__ for e in closed.effects}),
    )


def iter_eqns(jaxpr: ClosedJaxpr | Jaxpr) -> Iterator:
    for eqn in eqns_of(jaxpr):
        yield eqn
        for sub in sub_jaxprs(eqn):
            yield from iter_eqns(sub)


def eqns_within(jaxpr: ClosedJaxpr | Jaxpr, holders: tuple[str, ...] = ()) -> Iterator[tuple[Any, tuple[str, ...]]]:
    """Every equation, nested ones included (in the order ``iter_eqns`` gives), with the primitives that hold it,
    outermost first: ``()`` at the top level, ``("jit", "scan")`` in a scan's step inside a jitted call."""
    for eqn in eqns_of(jaxpr):
        yield eqn, holders
        for sub in sub_jaxprs(eqn):
            yield from eqns_within(sub, (*holders, eqn.primitive.name))


def eqns_of(jaxpr: ClosedJaxpr | Jaxpr) -> list:
    """The top-level equations of a jaxpr, closed or not."""
    return (jaxpr.jaxpr if isinstance(jaxpr, ClosedJaxpr) else jaxpr).eqns


def sub_jaxprs(eqn: Any) -> Iterator[ClosedJaxpr | Jaxpr]:
    """The jaxprs an equation holds in its parameters: a jit's body, a cond's branches, a scan's step, …"""
    for value in eqn.params.values():
        for sub in value if isinstance(value, (tuple, list)) else (value,):
            if isinstance(sub, (ClosedJaxpr, Jaxpr)):
                yield sub


FETCHING_CALLBACKS = {"pure_callback": "jax.pure_callback", "io_callback": "io_callback"}


def feeding_callbacks(jaxpr: ClosedJaxpr | Jaxpr) -> list[str]:
    """Host callbacks whose results the program uses (nested jaxprs included): each fetches a value from Python at
    run time. debug_print and debug_callback return nothing, so they are never listed."""
    inner = jaxpr.jaxpr if isinstance(jaxpr, ClosedJaxpr) else jaxpr
    used = {id(v) for eqn in inner.eqns for v in eqn.invars} | {id(v) for v in inner.outvars}
    found = []
    for eqn in inner.eqns:
        name = eqn.primitive.name
        if name in FETCHING_CALLBACKS and any(id(v) in used for v in eqn.outvars):
            found.append(FETCHING_CALLBACKS[name])
        for sub in sub_jaxprs(eqn):
            found.extend(feeding_callbacks(sub))
    return found


def work_outputs(jaxpr: ClosedJaxpr | Jaxpr, sources: set[int], ops: set[str] | frozenset[str], *,
                 with_other: bool = False) -> list[int] | None:
    """Where a program does a lesson's work on some of its inputs: the indices of its outputs computed from an
    operation in ``ops`` (``dot_general``, ``sub``, …) whose operands come from the inputs at ``sources`` (and, with
    ``with_other``, from another input too), or None when no such operation runs. Followed through nested calls,
    scan bodies and custom rules; a loop or branch the flow cannot map counts as a whole."""
    found: list[bool] = []
    inner = jaxpr.jaxpr if isinstance(jaxpr, ClosedJaxpr) else jaxpr
    states = [(frozenset([i]), False) for i in range(len(inner.invars))]
    outs = _flow(inner, states, frozenset(ops), frozenset(sources), with_other, found)
    return [i for i, (_, work) in enumerate(outs) if work] if found else None


_NONE: tuple[frozenset[int], bool] = (frozenset(), False)


def _flow(jaxpr: Jaxpr, ins: list, ops: frozenset[str], sources: frozenset[int], with_other: bool,
          found: list[bool]) -> list[tuple[frozenset[int], bool]]:
    """Each output's (inputs it depends on, whether a work operation feeds it), from the inputs' states."""
    env: dict[Any, tuple[frozenset[int], bool]] = dict(zip(jaxpr.invars, ins))

    def read(v: Any) -> tuple[frozenset[int], bool]:
        return _NONE if isinstance(v, Literal) else env.get(v, _NONE)

    def working(deps: frozenset[int]) -> bool:
        return bool(deps & sources) and (not with_other or bool(deps - sources))

    for eqn in jaxpr.eqns:
        states = [read(v) for v in eqn.invars]
        deps = frozenset().union(*(d for d, _ in states))
        fed = any(w for _, w in states)
        here = eqn.primitive.name in ops and working(deps)
        subs = [s.jaxpr if isinstance(s, ClosedJaxpr) else s for s in sub_jaxprs(eqn)]
        mapped = next((s for s in subs if len(s.invars) == len(eqn.invars) and len(s.outvars) == len(eqn.outvars)),
                      None)
        if mapped is not None and not here:  # a call, a scan body, a custom rule: followed input by input
            for v, state in zip(eqn.outvars, _flow(mapped, states, ops, sources, with_other, found)):
                env[v] = state
            continue
        if subs and not here:  # while, cond: the loop or the branches as a whole
            here = working(deps) and any(e.primitive.name in ops for s in subs for e in iter_eqns(s))
        if here:
            found.append(True)
        for v in eqn.outvars:
            env[v] = (deps, fed or here)
    return [read(v) for v in jaxpr.outvars]


def unique_promises(jaxpr: ClosedJaxpr | Jaxpr | None) -> list[tuple[str, int]]:
    """(primitive, positions) for every scatter or gather given ``unique_indices=True`` (a promise to XLA that no
    position repeats; JAX leaves the output undefined when it is broken) on more than one position at once, nested
    jaxprs included. One position at a time keeps the promise whatever the indices."""
    found = []
    for eqn, _ in eqns_within(jaxpr) if jaxpr is not None else ():
        if eqn.primitive.name.startswith(("scatter", "gather")) and eqn.params.get("unique_indices"):
            shape = tuple(getattr(eqn.invars[1].aval, "shape", ()))
            positions = math.prod(shape[:-1])
            if positions > 1:
                found.append((eqn.primitive.name, positions))
    return found


def primitive_names(jaxpr: ClosedJaxpr | Jaxpr | None) -> set[str]:
    """Every primitive in the program, nested jaxprs included; empty for None (the function did not trace)."""
    return set() if jaxpr is None else {eqn.primitive.name for eqn in iter_eqns(jaxpr)}


# Calls whose body's inputs are the equation's operands one to one; operations that only select or rename a value.
ONE_TO_ONE = {"jit", "pjit", "closed_call", "core_call", "remat", "checkpoint", "custom_jvp_call", "custom_vjp_call"}
VIEWS = {"slice", "squeeze", "reshape", "expand_dims", "copy", "copy_p", "broadcast_in_dim", "random_wrap",
         "random_unwrap"}


def taken_by(jaxpr: Jaxpr, primitives: set[str], *, kind: Callable[[Any], bool] = lambda aval: True
             ) -> Callable[[Any], bool]:
    """Whether a variable of ``jaxpr`` (or a plain selection of it: slice, reshape, …, two alike being one) is an
    operand of one of ``primitives``, in nested calls too; an operand of ``kind`` fed to a body that does not line
    up one to one (cond, scan, while) counts when that body takes any::

        if taken_by(jaxpr, {"random_bits", "random_split"}, kind=is_typed_key)(jaxpr.outvars[-1]): …"""
    used, canon = _taken(jaxpr, frozenset(primitives), kind, 0)
    return lambda v: not isinstance(v, Literal) and id(canon.get(id(v), v)) in used


def _canonical(jaxpr: Jaxpr) -> dict:
    """For each variable, the variable it is a plain selection of (slice, squeeze, reshape, …), by value: two
    selections with the same parameters from the same variable are the same value."""
    canon: dict = {}
    seen: dict = {}

    def root(v: Any) -> Any:
        return canon.get(id(v), v) if not isinstance(v, Literal) else v

    for eqn in jaxpr.eqns:
        if eqn.primitive.name in VIEWS and len(eqn.invars) >= 1 and len(eqn.outvars) == 1:
            signature = (eqn.primitive.name, repr(sorted((k, repr(v)) for k, v in eqn.params.items())),
                         tuple(id(root(v)) for v in eqn.invars))
            first = seen.setdefault(signature, eqn.outvars[0])
            canon[id(eqn.outvars[0])] = root(first) if first is not eqn.outvars[0] else eqn.outvars[0]
            if first is eqn.outvars[0] and eqn.primitive.name in ("random_wrap", "random_unwrap", "copy", "copy_p"):
                canon[id(eqn.outvars[0])] = root(eqn.invars[0])
    return canon


def _taken(jaxpr: Jaxpr, primitives: frozenset[str], kind: Callable[[Any], bool], depth: int) -> tuple[set, dict]:
    """ids of the (canonical) variables of ``jaxpr`` that one of ``primitives`` takes, nested calls included."""
    canon = _canonical(jaxpr)
    root = lambda v: canon.get(id(v), v)  # noqa: E731
    used: set = set()
    for eqn in jaxpr.eqns:
        name = eqn.primitive.name
        if name in primitives:
            used |= {id(root(v)) for v in eqn.invars if not isinstance(v, Literal)}
            continue
        subs = list(sub_jaxprs(eqn))
        if not subs or depth > 8:
            continue
        for sub in subs:
            inner = sub.jaxpr if isinstance(sub, ClosedJaxpr) else sub
            inner_used, _ = _taken(inner, primitives, kind, depth + 1)
            if name in ONE_TO_ONE and len(inner.invars) == len(eqn.invars):
                used |= {id(root(outer)) for outer, var in zip(eqn.invars, inner.invars)
                         if not isinstance(outer, Literal) and id(var) in inner_used}
            elif inner_used:
                # cond, scan, while, shard_map…: operands do not line up one to one; an operand of the kind fed to
                # a body that takes one counts as taken.
                used |= {id(root(v)) for v in eqn.invars if not isinstance(v, Literal)
                         and kind(getattr(v, "aval", None))}
    return used, canon
