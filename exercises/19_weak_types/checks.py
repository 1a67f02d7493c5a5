"""Checks for weak_types: run(w, grads, lrs) applies 12 steps w -= lr * g, the learning rates coming as Python floats,
NumPy float32/float64 scalars and JAX scalars (weakly and strongly typed).

A Python float (and a JAX scalar made from one without a dtype) is *weakly typed*: jit sees ~float32[]. A NumPy
scalar or jnp.float32 is float32[]. Two input types, two cache entries, two compiles. The learner's driver must hand
the jitted step one type every time. Two runs, every kind of scalar in each; they may compile once over both, every
backend compile counted (a jnp conversion outside jit compiles too: the learner converts with NumPy on the host).
"""

import jax.numpy as jnp
import numpy as np

from jittrainer.authoring import (as_floats, bare_name, count, eager_failed, first_wrong, jit_reach, later_misses, msg,
                                  reach_failure, reason_items, refuse_beside_jit)

CHECKS = {
    "runs": "run returns for both runs",
    "values": "returns w after the 12 steps w - lr * g",
    "in_jit": "every step's gradient goes through jitted code",
    "one_compile": "two runs with learning rates of every kind compile once",
}

RUNS, STEPS, DIM = 2, 12, 8
KINDS = ("python", "np32", "np64", "jax_weak", "jax_strong")
RTOL, ATOL = 1e-4, 1e-5
EXAMPLE_LR = 0.1  # the learning rate statement.md uses in its example
DTYPE_TIER = 2  # the hint tier that names the conversion


# ------------------------------------------------------------------------------------------------ inputs


def kind_label(kind: str):
    return {
        "python": msg("kind.python", "Python floats"),
        "np32": msg("kind.np32", "NumPy float32 scalars"),
        "np64": msg("kind.np64", "NumPy float64 scalars"),
        "jax_weak": msg("kind.jax_weak", "JAX scalars made from a Python float without a dtype"),
        "jax_strong": msg("kind.jax_strong", "jnp.float32 scalars"),
    }[kind]


def make(kind: str, value: float):
    """A learning rate of the given kind, built before the graded calls (eager jnp calls compile too)."""
    if kind == "python":
        return float(value)
    if kind == "np32":
        return np.float32(value)
    if kind == "np64":
        return np.float64(value)
    if kind == "jax_weak":
        return jnp.asarray(float(value))
    return jnp.float32(value)


def draw_kinds(rng) -> list[str]:
    """Every kind at least once per run, the rest at random, in a random order."""
    kinds = list(KINDS) + [KINDS[i] for i in rng.integers(0, len(KINDS), STEPS - len(KINDS))]
    return [kinds[i] for i in rng.permutation(STEPS)]


def draw_values(rng) -> list[float]:
    """Learning rates in [0, 0.5], rounded to 4 decimals; one exactly 0.0 and one exactly 0.5."""
    values = [round(float(v), 4) for v in rng.uniform(0.001, 0.5, STEPS)]
    a, b = rng.choice(STEPS, 2, replace=False)
    values[a], values[b] = 0.0, 0.5
    return values


def make_run(rng):
    w0 = rng.normal(0.0, 1.0, DIM).astype(np.float32)
    grads = [rng.normal(0.0, rng.uniform(0.5, 2.0), DIM).astype(np.float32) for _ in range(STEPS)]
    kinds, values = draw_kinds(rng), draw_values(rng)
    return w0, grads, kinds, values


def reference(w0, grads, values) -> np.ndarray:
    w = w0.astype(np.float64)
    for g, lr in zip(grads, values):
        w = w - lr * g.astype(np.float64)
    return w


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    run = g.graded(params=3)
    plans = [make_run(g.rng) for _ in range(RUNS)]
    arglist = [(w0.copy(), [gr.copy() for gr in grads], [make(k, v) for k, v in zip(kinds, values)])
               for w0, grads, kinds, values in plans]
    calls = g.calls(run, arglist)
    g.check_ran("runs", calls, _advice_for_error, tier=DTYPE_TIER, explain=_explain_error)
    check_values(g, calls.results, plans)
    check_in_jit(g, plans)
    check_compiles(g, calls, plans)


def _explain_error(error):
    if error.type == "AttributeError" and "float" in error.message:
        return msg("runs.python_float", "Some learning rates are plain Python floats, which have no NumPy or JAX "
                   "methods")
    return None


def _advice_for_error(error):
    return msg("advice.convert", "convert every learning rate the same way before the call, with a function that "
               "accepts any number, on the host: np.float32(lr) or float(lr)")


# ------------------------------------------------------------------------------------------------ values


def _close(got, want) -> bool:
    return got is not None and bool(np.allclose(got, want, rtol=RTOL, atol=ATOL))


def check_values(g, results, plans):
    runs = ((as_floats(result, (DIM,)), reference(w0, grads, values), w0, grads)  # computed run by run
            for result, (w0, grads, kinds, values) in zip(results, plans))
    first_wrong(g, "values", runs, lambda run: _close(run[0], run[1]), _wrong_run,
                msg("advice.step", "each step is w = w - lr * g, with the step's own learning rate, in order"), tier=1,
                ok=msg("values.ok", "both runs end at the right weights"))


def _wrong_run(r, run):
    got, want, w0, grads = run
    if got is None:
        return msg("values.shape", "run {r} returned something that is not {dim} weights", r=r, dim=DIM)
    if _close(got, reference(w0, grads, [EXAMPLE_LR] * STEPS)):
        return msg("values.example_lr", "run {r} ended where 12 steps with lr = {example} (the statement's example) "
                   "would, not with the learning rates it was given", r=r, example=EXAMPLE_LR)
    if _close(got, w0):
        return msg("values.unchanged", "run {r} returned the initial weights unchanged", r=r)
    k = int(np.argmax(np.abs(got - want)))
    return msg("values.differ", "run {r} ended with w[{k}] = {got:.6g} where the 12 steps give {want:.6g}", r=r, k=k,
               got=float(got[k]), want=float(want[k]))


# ------------------------------------------------------------------------------------------------ in jit


def check_in_jit(g, plans):
    reached = []
    for r, (_, grads, _, values) in enumerate(plans, 1):
        step = next(k for k, lr in enumerate(values) if lr != 0.0)  # a zero learning rate hides its gradient
        grad = grads[step]
        found = jit_reach(g, r, grads, grad, (grad * np.float32(-2.0) + np.float32(1.0)).astype(np.float32),
                          work={"mul", "sub", "add"}, with_other=True)
        if found.problem == "no_jit":
            return g.failed("in_jit", msg(
                "jit.none", "during run {r} run called no jitted function: the {steps} were computed outside jit",
                r=r, steps=count("step", STEPS)), _advice_jit(), tier=DTYPE_TIER)
        if found.problem == "missing":
            return g.failed("in_jit", msg(
                "jit.missing", "during run {r} the gradient of step {k} reached none of the jitted functions "
                "your code called ({names}): that step was computed outside jit", r=r, k=found.index + 1,
                names=found.names), _advice_jit(), tier=DTYPE_TIER)
        if found.problem == "rerun_failed":
            return g.failed("in_jit", msg("jit.rerun_failed", "the grader ran your jitted function {name} again with "
                                          "the gradient of step {k} of run {r} changed, and it failed ({error}), "
                                          "so it cannot tell that the result comes from the data",
                                          name=found.function, k=step + 1, r=r, error=found.error))
        if found.problem == "no_work":
            return g.failed("in_jit", reach_failure(found, what=msg("jit.what", "the gradient of step {k} of run {r}",
                                                                    k=step + 1, r=r), graded="run"),
                            _advice_jit(), tier=DTYPE_TIER)
        if found.problem:
            return g.failed("in_jit", msg(
                "jit.not_from_g", "your jitted function {name} received the gradient of step {k} of run {r}, but run "
                "again with that gradient changed it returned the same output: the update is not computed by that "
                "function", name=found.function, k=step + 1, r=r), _advice_jit(), tier=DTYPE_TIER)
        reached.append(found)
    w0, grads, kinds, values = plans[0]
    if refuse_beside_jit(g, "in_jit", reached, lambda: g.graded_function(
            w0.copy(), [gr.copy() for gr in grads], [make(k, v) for k, v in zip(kinds, values)]), what="g",
            graded="run", advice=_advice_jit(), tier=DTYPE_TIER):
        return None
    return g.passed("in_jit", msg("jit.ok", "every gradient of both runs reached jitted code, and its output follows "
                                  "the data"))


def _advice_jit():
    return msg("advice.jit", "keep the update in the jitted step, sgd_step(w, g, lr), and call it on every step")


# ------------------------------------------------------------------------------------------------ compiles


def _signatures(g, function: str, plans):
    """For the learner's jitted ``function``: each distinct tuple of input types it received, with the kinds of
    learning rate behind it when its calls line up one to one with the steps (else an empty set)."""
    found: dict[tuple, set] = {}
    for r, (_, _, kinds, _) in enumerate(plans, 1):
        mine = [c for c in g.jit_spy.calls if c.call == r and function in (f"jit({c.function})", c.function)]
        aligned = len(mine) == STEPS
        for step, c in enumerate(mine):
            kinds_behind = found.setdefault(c.types, set())
            if aligned:
                kinds_behind.add(kinds[step])
    return found


def check_compiles(g, calls, plans):
    mine = calls.reasons()
    n = len(mine)
    if n == 1:
        g.passed("one_compile", msg("compiles.ok", "compiled once; every learning rate, whatever its source, reached "
                                    "the jitted step as the same input type"))
        return
    head = msg("compiles.head", "{runs} runs of {steps} compiled {times}; expected once",
               times=count("time", n), runs=RUNS, steps=count("step", STEPS))
    if n == 0:
        g.failed("one_compile", msg("compiles.none", "{head}: nothing of yours was compiled during the graded runs",
                                    head=head), _advice_jit(), tier=DTYPE_TIER)
        return
    if eager_failed(g, "one_compile", head, calls):
        return None
    mine = [m for m in mine if m.kind != "jax_internal"]
    kinds = {m.kind for m in mine}
    advice = msg("advice.one_dtype", "give the jitted step one input type for every learning rate: convert it in "
                 "run, before the call, with np.float32(lr) (all strong float32) or float(lr) (all weak), on the host: "
                 "a jax.numpy conversion outside jit compiles a program of its own")
    if "static" in kinds:
        g.failed("one_compile", msg("compiles.static", "{head}: {why}; a learning rate is a value, and a static "
                                    "argument is part of the cache key, so every new value compiles again",
                                    head=head, why=next(m.reason for m in mine if m.kind == "static")),
                 msg("advice.traced", "leave lr an ordinary (traced) argument and give it one dtype"),
                 tier=DTYPE_TIER)
        return
    if "new_function" in kinds:
        g.failed("one_compile", msg("compiles.new_function", "{head}: {why}", head=head,
                                    why=next(m.reason for m in mine if m.kind == "new_function")),
                 msg("advice.jit_once", "make the jitted step once, at module level, and call that same function"),
                 tier=DTYPE_TIER)
        return
    top = max({m.function for m in mine}, key=lambda f: sum(1 for m in mine if m.function == f))
    signatures = _signatures(g, top, plans)
    if len(signatures) > 1:
        varying = [i for i in range(len(next(iter(signatures)))) if len({s[i] for s in signatures}) > 1] \
            if len({len(s) for s in signatures}) == 1 else []
        items = []
        for sig, sources in signatures.items():
            shown = ", ".join(sig[i] for i in varying) if varying else ", ".join(sig)
            if sources:
                items.append(msg("compiles.sig_from", "{type} (from {sources})", type=shown,
                                 sources=[kind_label(k) for k in KINDS if k in sources]))
            else:
                items.append(shown)
        weak_note = any("~" in s for sig in signatures for s in sig)
        inside = g.lines_calling(r"float32|astype|asarray|\barray\s*\(|float\s*\(", bare_name(top))
        undtyped = [n for n in g.lines_calling(r"\b(jnp|np|numpy)\.(asarray|array)\s*\(", g.function_name)
                    if "dtype" not in g.code.splitlines()[n - 1] and "float32" not in g.code.splitlines()[n - 1]]
        if weak_note and inside and bare_name(top) != g.function_name:
            observation = msg("compiles.cast_inside", "{head}: {function} received its learning rate as {n} different "
                              "input types: {items}. Line {line} converts it inside the jitted function, which is "
                              "too late: jit picks the cache entry from the input types before it runs a line of "
                              "{function}, so each type still compiled a program of its own", head=head,
                              function=bare_name(top), n=len(signatures), items=items, line=inside[0])
        elif weak_note and undtyped:
            observation = msg("compiles.asarray_weak", "{head}: {function} received its learning rate as {n} "
                              "different input types: {items}. Line {line} converts without a dtype, and a JAX "
                              "array made from a Python float that way stays weakly typed (~), while one made from "
                              "a NumPy scalar is strong: the types still differ", head=head,
                              function=bare_name(top), n=len(signatures), items=items, line=undtyped[0])
        elif weak_note:
            observation = msg("compiles.weak", "{head}: {function} received its learning rate as {n} different input "
                              "types: {items}. A ~ marks a weakly typed value (a Python float, or a JAX scalar made "
                              "from one without a dtype); jit keys its cache on the types, weak or not, so each one "
                              "compiled a program of its own", head=head, function=bare_name(top), n=len(signatures),
                              items=items)
        else:
            observation = msg("compiles.types", "{head}: {function} received {n} different sets of input types: "
                              "{items}; jit keys its cache on the types, so each compiled a program of its own",
                              head=head, function=bare_name(top), n=len(signatures), items=items)
        g.failed("one_compile", observation, advice, tier=DTYPE_TIER)
        return
    g.failed("one_compile", msg("compiles.why", "{head}: {items}", head=head, items=reason_items(later_misses(mine))),
             advice, tier=DTYPE_TIER)
