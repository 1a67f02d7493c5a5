"""Reading a jaxpr: its equations (nested ones included), the callbacks it holds, and a report for the Jaxpr pane."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from jax.extend.core import ClosedJaxpr, Jaxpr

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


def primitive_names(jaxpr: ClosedJaxpr | Jaxpr | None) -> set[str]:
    """Every primitive in the program, nested jaxprs included; empty for None (the function did not trace)."""
    return set() if jaxpr is None else {eqn.primitive.name for eqn in iter_eqns(jaxpr)}
