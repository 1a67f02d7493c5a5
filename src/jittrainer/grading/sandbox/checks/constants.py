"""The constants a traced program captured: arrays read from outside the function's arguments (a closure, a global,
numbers drawn while tracing), which jit copies into the program (a jaxpr's constvars)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from jax.extend.core import ClosedJaxpr

from jittrainer.grading.sandbox.checks.jaxprs import eqns_of, sub_jaxprs


@dataclass(frozen=True)
class Constant:
    """One captured constant: its jaxpr variable and its value."""

    var: Any
    value: Any

    @property
    def type(self) -> str:
        """As JAX writes it: "float32[64,16]"."""
        return self.var.aval.str_short()

    @property
    def nbytes(self) -> int:
        return int(getattr(self.value, "nbytes", 0) or 0)

    @property
    def array(self) -> np.ndarray | None:
        """The value as NumPy, or None when it cannot be read."""
        try:
            return np.asarray(self.value)
        except Exception:
            return None


def constants_of(closed: Any, *, nested: bool = True) -> list[Constant]:
    """The constants of a traced program (None: no program, none), each value once; with ``nested``, those of every
    jaxpr it holds with constants of its own too (jit, cond, scan, … bodies), depth first::

        frozen = [c.type for c in constants_of(g.graded_jaxpr(), nested=False) if c.nbytes > 256]"""
    found: list[Constant] = []
    seen: set[int] = set()
    stack = [closed] if closed is not None else []
    while stack:
        jaxpr = stack.pop()
        if isinstance(jaxpr, ClosedJaxpr):
            for var, value in zip(jaxpr.jaxpr.constvars, jaxpr.consts):
                if id(value) not in seen:
                    seen.add(id(value))
                    found.append(Constant(var, value))
        if nested:
            stack.extend(sub for eqn in eqns_of(jaxpr) for sub in sub_jaxprs(eqn))
    return found
