"""Replaying a traced program operation by operation, testing what each operation makes (a NaN, by default): the
way to find a value the program computes and then throws away, which its results cannot show.

The replay is one jitted function built from the jaxpr, so it computes what the compiled program computes, whatever
route made it. It enters calls of other jitted functions (and ``checkpoint``), the body of a ``scan`` (every
iteration) and of a ``while_loop`` (every pass it makes on these inputs, the loop's condition run as it is), the
branch a ``cond`` or ``switch`` takes, and the functions with their own derivative rules (``jax.custom_jvp``,
``jax.custom_vjp``) that the learner defined. JAX's own functions with such rules (``jax.scipy.special.xlogy``,
``entr``) and every other operation run whole, as one step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jittrainer.grading.sandbox import jax_compat
from jittrainer.grading.sandbox.jax_compat import ClosedJaxpr, Jaxpr, Literal

CALL_PRIMITIVES = {"jit", "pjit", "closed_call", "core_call", "checkpoint", "remat", "remat2"}
CUSTOM_RULES = {"custom_jvp_call", "custom_vjp_call", "custom_vjp_call_jaxpr"}


def makes_nan(out: Any) -> Any:
    return jnp.any(jnp.isnan(out))


def _open(sub: Any) -> tuple[Jaxpr, list]:
    return (sub.jaxpr, list(sub.consts)) if isinstance(sub, ClosedJaxpr) else (sub, [])


class OpReplay:
    """``closed`` (a ClosedJaxpr) re-run with ``test(output)`` (a boolean scalar) after every operation that makes a
    floating array. ``first(args)`` is the first operation, in program order, whose test held."""

    def __init__(self, closed: ClosedJaxpr, filename: str, jit: Callable = jax.jit,
                 test: Callable[[Any], Any] = makes_nan) -> None:
        self.closed, self.filename, self.test = closed, filename, test
        self.eqns: list = []  # one entry per flag, in program order
        self._fn = jit(self._run)

    def first(self, args: tuple) -> Any:
        flags = np.asarray(self._fn(*args))
        hits = np.flatnonzero(flags)
        return self.eqns[int(hits[0])] if hits.size else None

    def line_of(self, eqn: Any) -> int | None:
        """The line of the learner's file the operation comes from (innermost frame in that file)."""
        lines = jax_compat.equation_lines(eqn, self.filename)
        return lines[0] if lines else None

    # -- the walk: ``flags`` collects (test result, equation) pairs in program order ----------------------------

    def _run(self, *args: Any) -> Any:
        flags: list = []
        self._walk(self.closed.jaxpr, self.closed.consts, args, flags)
        self.eqns = [eqn for _, eqn in flags]
        return _stack(flags)

    def _walk(self, jaxpr: Jaxpr, consts: Any, args: Any, flags: list) -> list:
        env: dict[Any, Any] = {}

        def read(v: Any) -> Any:
            return v.val if isinstance(v, Literal) else env[v]

        env.update(zip(jaxpr.constvars, consts))
        env.update(zip(jaxpr.invars, args))
        for eqn in jaxpr.eqns:
            outs = self._equation(eqn, [read(v) for v in eqn.invars], flags)
            env.update(zip(eqn.outvars, outs))
        return [read(v) for v in jaxpr.outvars]

    def _equation(self, eqn: Any, invals: list, flags: list) -> list:
        name, params = eqn.primitive.name, eqn.params
        sub = params.get("jaxpr") or params.get("call_jaxpr")
        if name in CALL_PRIMITIVES and isinstance(sub, (ClosedJaxpr, Jaxpr)):
            return self._walk(*_open(sub), invals, flags)
        if name in CUSTOM_RULES and isinstance(sub, (ClosedJaxpr, Jaxpr)) and not jax_compat.defined_in_jax(sub):
            return self._walk(*_open(sub), invals, flags)
        if name == "scan":
            return self._scan(eqn, invals, flags)
        if name == "while":
            return self._while(eqn, invals, flags)
        if name == "cond":
            return self._cond(eqn, invals, flags)
        with jax_compat.equation_context(eqn):
            outs = eqn.primitive.bind(*invals, **jax_compat.bind_params(eqn))
        outs = list(outs) if eqn.primitive.multiple_results else [outs]
        flags.extend((self.test(out), eqn) for out in outs
                     if hasattr(out, "dtype") and jnp.issubdtype(out.dtype, jnp.inexact))
        return outs

    def _scan(self, eqn: Any, invals: list, flags: list) -> list:
        params = eqn.params
        n_consts, n_carry = jax_compat.scan_layout(params)
        body, body_consts = _open(params["jaxpr"])
        consts, carry, xs = invals[:n_consts], invals[n_consts:n_consts + n_carry], invals[n_consts + n_carry:]
        inner: list = []

        def step(carry: list, x: list) -> tuple:
            inner.clear()
            outs = self._walk(body, body_consts, [*consts, *carry, *x], inner)
            return outs[:n_carry], (outs[n_carry:], _stack(inner))

        carry, (ys, seen) = jax.lax.scan(step, list(carry), list(xs), length=params["length"],
                                         reverse=params["reverse"])
        seen = jnp.any(seen, axis=0)
        flags.extend((seen[i], e) for i, (_, e) in enumerate(inner))
        return [*carry, *ys]

    def _while(self, eqn: Any, invals: list, flags: list) -> list:
        params = eqn.params
        nc, nb = params["cond_nconsts"], params["body_nconsts"]
        cond, cond_consts = _open(params["cond_jaxpr"])
        body, body_consts = _open(params["body_jaxpr"])
        cconsts, bconsts, init = invals[:nc], invals[nc:nc + nb], invals[nc + nb:]
        inner = self._traced(body, body_consts, [*bconsts, *init])

        def test(state: tuple) -> Any:
            return self._walk(cond, cond_consts, [*cconsts, *state[0]], [])[0]

        def step(state: tuple) -> tuple:
            found: list = []
            outs = self._walk(body, body_consts, [*bconsts, *state[0]], found)
            return outs, state[1] | _stack(found)

        final, seen = jax.lax.while_loop(test, step, (list(init), jnp.zeros((len(inner),), bool)))
        flags.extend((seen[i], e) for i, (_, e) in enumerate(inner))
        return list(final)

    def _cond(self, eqn: Any, invals: list, flags: list) -> list:
        branches = [_open(b) for b in eqn.params["branches"]]
        index, operands = invals[0], invals[1:]
        listed = [self._traced(jaxpr, consts, operands) for jaxpr, consts in branches]
        starts = np.cumsum([0, *map(len, listed)])

        def branch(k: int) -> Callable:
            def run(ops: list) -> tuple:
                found: list = []
                outs = self._walk(*branches[k], ops, found)
                seen = jnp.zeros((int(starts[-1]),), bool)
                return outs, seen.at[starts[k]:starts[k + 1]].set(_stack(found)) if found else seen
            return run

        outs, seen = jax.lax.switch(index, [branch(k) for k in range(len(branches))], list(operands))
        flags.extend((seen[i], e) for i, (_, e) in enumerate(p for group in listed for p in group))
        return list(outs)

    def _traced(self, jaxpr: Jaxpr, consts: list, args: list) -> list:
        """The (flag, equation) pairs walking ``jaxpr`` makes, traced abstractly (its flags are not kept)."""
        found: list = []
        jax.eval_shape(lambda *a: self._walk(jaxpr, consts, list(a), found) and None, *args)
        return found


def _stack(flags: list) -> Any:
    return jnp.stack([flag for flag, _ in flags]) if flags else jnp.zeros((0,), bool)
