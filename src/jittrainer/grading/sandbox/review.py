"""The review's measurements, inside the worker, after the verdict (and its timing) has been sent: what the passing
program costs and what is left in it, as plain numbers and primitive names. The host compares them with the
reference solution's (measured the same way, in another worker, and cached) and writes the comments
(``grading.review``); nothing here changes the verdict, and the learner's output is muted while it runs.

"The program" is the one the Jaxpr pane shows: the graded function on the first graded input, or, for exercises
that call the learner's function as plain Python, the first jitted (or pmapped) function it runs. Its figures:

- ``eqns`` and ``primitives``: the jaxpr's equations, nested ones included (the bodies of loops, branches and inner
  jits), and how many of each primitive;
- ``flops``, ``bytes_accessed``: XLA's own estimates for the compiled program (``Compiled.cost_analysis()``);
  ``temp_bytes``, ``argument_bytes``, ``output_bytes``, ``alias_bytes``: its buffers (``memory_analysis()``);
- ``donated``: arguments whose buffers the program may reuse (``Lowered.args_info``);
- ``callbacks`` / ``callbacks_in_loop``: host callbacks in the program, and those inside a loop body;
- ``float64``: equations that compute in float64 or complex128; ``weak_inputs``: weakly typed arguments;
- ``constants`` / ``const_bytes``: arrays captured into the program as constants;
- ``dead``: equations whose values nothing uses (the program's own code and its control flow, not JAX's helpers);
- ``programs``: how many distinct jitted functions the graded calls ran;
- ``signature``: a digest of the graded calls' inputs (shapes, dtypes, weak types, plain Python values), so the host
  compares only with a reference measured on the same inputs.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import jax

from jittrainer.grading.sandbox.checks.jaxprs import CALLBACK_PRIMITIVES
from jittrainer.grading.sandbox.checks.spies import is_compiled, is_jitted
from jittrainer.grading.sandbox.jax_compat import ClosedJaxpr, Jaxpr

MEASURES_VERSION = 1
LOOPS = ("while", "scan")
CONTROL = ("while", "scan", "cond")  # bodies the learner's own code wrote (dead code is counted there too)
WIDE = ("float64", "complex128")
PLAIN = (bool, int, float, complex, str, bytes, type(None))


@dataclass
class Program:
    name: str
    closed: Any  # ClosedJaxpr or None
    compile: Callable[[], tuple[Any, Any]] | None  # () -> (Compiled, args_info or None)


def measure(g: Any, recorder: Any) -> dict[str, Any]:
    """The measures of the graded program (see the module's docstring); ``error`` says what could not be measured."""
    started = time.perf_counter()
    out: dict[str, Any] = {"version": MEASURES_VERSION, "signature": signature(g)}
    errors: list[str] = []
    with recorder.mute(), _like_the_calls(g):
        try:
            program = find_program(g)
        except BaseException as exc:  # the learner's code runs again (a re-trace): anything can happen
            program, errors = None, [f"program: {type(exc).__name__}"]
        out["programs"] = len({id(c.fn) for c in g.jit_spy.calls if c.call is not None})
        if program is not None:
            out["program"] = program.name
            if program.closed is not None:
                out.update(jaxpr_facts(program.closed))
            if program.compile is not None:
                try:
                    out.update(compiled_facts(*program.compile()))
                except BaseException as exc:
                    errors.append(f"compile: {type(exc).__name__}: {str(exc)[:120]}")
    out["error"] = "; ".join(errors)
    out["seconds"] = round(time.perf_counter() - started, 4)
    return out


# --------------------------------------------------------------------------------------------- the program


WIDE_INPUTS = ("float64", "int64", "uint64", "complex128")


def _like_the_calls(g: Any) -> Any:
    """64-bit types on while measuring when the graded calls were given 64-bit arrays: a program jitted under
    ``jax.enable_x64`` (the float64 exercise) traces and lowers alike only with them on."""
    for calls in g.graded_calls:
        for record in calls.records:
            try:
                found = jax.tree_util.tree_leaves(record.args)
            except Exception:
                continue
            if any(str(getattr(leaf, "dtype", "")) in WIDE_INPUTS for leaf in found):
                return jax.enable_x64(True)
    return contextlib.nullcontext()


def _real(fn: Any) -> Any:
    """What a spy wraps (the learner's jitted or compiled function), read without running the learner's code."""
    try:
        return object.__getattribute__(fn, "_real")
    except AttributeError:
        return fn


def find_program(g: Any) -> Program | None:
    graded = g.graded_function
    if g.call_mode != "plain" and graded is not None and is_jitted(graded):
        name, real = g.jaxpr_name or g.function_name, _real(graded)
        if is_compiled(graded):
            return Program(name, g.graded_jaxpr(), lambda: (real, real.args_info))
        window = next((c for c in g.graded_calls if c.fn is graded and c.records), None)
        if window is not None:
            return Program(name, g.graded_jaxpr(), _lowering(real, window.records[0].args, {}))
        # Graded through a wrapper of the checks' own (a thread, a context): the spy saw the graded function's calls.
        call = next((c for c in g.jit_spy.calls if c.call is not None and c.fn is real), None)
        if call is not None:
            closed = g.graded_jaxpr()
            if closed is None:
                closed = real.trace(*call.args, **call.kwargs).jaxpr
            return Program(name, closed, _lowering(real, call.args, call.kwargs))
    first = g.jit_spy.first
    if first is not None:
        real, args, kwargs = first.fn, first.args, first.kwargs
        if first.ahead_of_time:
            return Program(f"jit({first.function})", _aot_jaxpr(g, real), lambda: (real, real.args_info))
        with first.context():  # inside the mesh the learner's code had set around the call, if any
            closed = real.trace(*args, **kwargs).jaxpr if hasattr(real, "trace") else None
        return Program(f"jit({first.function})", closed, _lowering(real, args, kwargs, first.context))
    if g.pmap_spy.first is not None:
        real, args, kwargs = g.pmap_spy.first
        name = getattr(getattr(real, "__wrapped__", real), "__name__", "pmap")
        if is_compiled(real):
            return Program(f"pmap({name})", _aot_jaxpr(g, real), lambda: (real, real.args_info))
        closed = jax.make_jaxpr(real)(*args, **kwargs)
        return Program(f"pmap({name})", closed, _lowering(real, args, kwargs))
    return None


def _aot_jaxpr(g: Any, compiled: Any) -> Any:
    """The jaxpr of an ahead-of-time compiled function the learner's module holds (at module level, or in a dict or
    list there): the spy that wraps it kept how to trace it. None when it is not found."""
    found: list[Any] = []
    for value in list(vars(g.module).values()) if g.module is not None else []:
        found.extend(value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple))
                     else [value])
    for value in found:
        if is_compiled(value) and _real(value) is compiled and callable(getattr(value, "jaxpr_source", None)):
            return value.jaxpr_source()
    return None


def _lowering(real: Any, args: tuple, kwargs: dict,
              context: Callable[[], Any] = contextlib.nullcontext) -> Callable[[], tuple[Any, Any]] | None:
    if not hasattr(real, "lower"):
        return None

    def compile_it() -> tuple[Any, Any]:
        with context():
            lowered = real.lower(*args, **kwargs)
            return lowered.compile(), getattr(lowered, "args_info", None)

    return compile_it


# ------------------------------------------------------------------------------------------------ the jaxpr


def _subjaxprs(eqn: Any) -> Iterator[Any]:
    for value in eqn.params.values():
        for sub in value if isinstance(value, (tuple, list)) else (value,):
            if isinstance(sub, (ClosedJaxpr, Jaxpr)):
                yield sub


def _inner(jaxpr: Any) -> Any:
    return jaxpr.jaxpr if isinstance(jaxpr, ClosedJaxpr) else jaxpr


def _walk(jaxpr: Any, in_loop: bool = False, own: bool = True) -> Iterator[tuple[Any, bool, bool]]:
    """(equation, inside a loop body, in the program's own code rather than inside an inner jit or JAX helper)."""
    for eqn in _inner(jaxpr).eqns:
        yield eqn, in_loop, own
        name = eqn.primitive.name
        for sub in _subjaxprs(eqn):
            yield from _walk(sub, in_loop or name in LOOPS, own and name in CONTROL)


def _dead(jaxpr: Any) -> int:
    """Equations of this jaxpr (not its nested ones) whose results nothing uses and that have no effect."""
    inner = _inner(jaxpr)
    used = {id(v) for eqn in inner.eqns for v in eqn.invars} | {id(v) for v in inner.outvars}
    return sum(1 for eqn in inner.eqns if not eqn.effects and not any(id(v) in used for v in eqn.outvars))


def _dtype(var: Any) -> str:
    return str(getattr(getattr(var, "aval", None), "dtype", ""))


def jaxpr_facts(closed: Any) -> dict[str, Any]:
    primitives: Counter[str] = Counter()
    callbacks = in_loop = wide = 0
    asked: Counter[str] = Counter()
    dead = _dead(closed)
    for eqn, looped, own in _walk(closed):
        name = eqn.primitive.name
        primitives[name] += 1
        if name == "dot_general":
            asked[_precision(eqn.params.get("precision"))] += 1
        if name in CALLBACK_PRIMITIVES:
            callbacks += 1
            in_loop += looped
        if any(_dtype(v) in WIDE for v in eqn.outvars):
            wide += 1
        if own and name in CONTROL:
            dead += sum(_dead(sub) for sub in _subjaxprs(eqn))
    inner = _inner(closed)
    consts = list(getattr(closed, "consts", ()))
    return {
        "eqns": sum(primitives.values()),
        "primitives": dict(primitives.most_common()),
        "callbacks": callbacks,
        "callbacks_in_loop": in_loop,
        "float64": wide,
        "weak_inputs": sum(1 for v in inner.invars if getattr(getattr(v, "aval", None), "weak_type", False)),
        "constants": sum(1 for c in consts if getattr(c, "shape", ()) != ()),
        "const_bytes": int(sum(int(getattr(c, "nbytes", 0) or 0) for c in consts if getattr(c, "shape", ()) != ())),
        "dead": dead,
        "precision_highest": asked["highest"],
        "precision_high": asked["high"],
    }


def _precision(value: Any) -> str:
    """What a dot_general asks of an accelerator's matrix unit: "highest" (float32 products: HIGHEST, six bfloat16
    passes or float32 inputs), "high" (three passes: HIGH, bf16 x3, TF32) or "default"."""
    words = " ".join(str(v) for v in (value if isinstance(value, tuple) else (value,))).upper()
    if "HIGHEST" in words or "X6" in words or "F32_F32_F32" in words:
        return "highest"
    if "HIGH" in words or "X3" in words or "TF32" in words:
        return "high"
    return "default"


# --------------------------------------------------------------------------------------------- XLA's figures


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if number == number and number >= 0 else None  # NaN or negative: XLA did not know


def compiled_facts(compiled: Any, args_info: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with contextlib.suppress(Exception):
        cost = compiled.cost_analysis()
        if isinstance(cost, (list, tuple)):  # one dict per device program in some releases
            cost = cost[0] if cost else None
        if isinstance(cost, dict):
            out["flops"] = _number(cost.get("flops"))
            out["bytes_accessed"] = _number(cost.get("bytes accessed"))
    with contextlib.suppress(Exception):
        memory = compiled.memory_analysis()
        if memory is not None:
            for name in ("temp", "argument", "output", "alias"):
                value = _number(getattr(memory, f"{name}_size_in_bytes", None))
                out[f"{name}_bytes"] = None if value is None else int(value)
    with contextlib.suppress(Exception):
        if args_info is not None:
            out["donated"] = sum(1 for info in jax.tree_util.tree_leaves(args_info) if getattr(info, "donated", False))
    return out


# -------------------------------------------------------------------------------------------- the signature


def _leaf(value: Any) -> str:
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is not None and dtype is not None:
        weak = "~" if getattr(value, "weak_type", False) else ""
        return f"{dtype}{list(shape)}{weak}"
    if isinstance(value, PLAIN):
        return repr(value)[:80]
    return type(value).__name__


def signature(g: Any) -> str:
    """A digest of every graded call's inputs as jit sees them: two runs with equal digests compile alike."""
    parts: list[str] = []
    for calls in g.graded_calls:
        for record in calls.records:
            try:
                found = jax.tree_util.tree_leaves(record.args)
            except Exception:
                found = list(record.args)
            parts.append(",".join(_leaf(leaf) for leaf in found))
    return hashlib.sha256("|".join(parts).encode("utf-8", "replace")).hexdigest()[:16]
