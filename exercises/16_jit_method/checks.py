"""Checks for jit_method: Layer(w, b).apply(x) = tanh(x @ w + b), with jit inside the class.

The grader builds three layers (A; N with new values; P, a new object holding the values A will have after its
changes), then makes six calls: A twice, A after ``A.w = …``, A after ``A.b = …``, N, P. Every result must follow
the object's fields at the time of the call (a static ``self``, a hash on the fields, or ``jax.jit(self._apply)`` in
``__init__`` all return stale results), the work must run in jitted code whose program multiplies x by w, the result
built from its output, and the sequence must compile once, every backend compile counted.
"""

import jax
import numpy as np

from jittrainer.authoring import (LearnerFailure, as_floats, at_line, count, eager_failed, float32_atol, jit_reach,
                                  later_misses, msg, reach_failure, reason_items, refuse_beside_jit)

CHECKS = {
    "runs": "Layer(w, b).apply(x) runs, also after the grader assigns layer.w and layer.b",
    "values": "apply returns tanh(x @ w + b)",
    "in_jit": "apply computes with jitted code that receives x",
    "follows_mutation": "after layer.w or layer.b is assigned, apply uses the new values",
    "fresh_object": "a new Layer gets results from its own values",
    "one_compile": "six calls with new values of the same shapes compile once",
}

IN, OUT, ROWS = 8, 4, 5
RTOL, ULPS = 1e-4, 64  # absolute: 64 float32 ulps of the size of the terms summed
PYTREE_TIER = 2  # the hint tier that names pytrees / explicit state

# The graded calls: (object, field assigned just before the call)
PLAN = (("A", None), ("A", None), ("A", "w"), ("A", "b"), ("N", None), ("P", None))


# ------------------------------------------------------------------------------------------------ inputs


def weights(rng):
    return rng.normal(0.0, rng.uniform(0.3, 0.7), (IN, OUT)).astype(np.float32)


def biases(rng) -> list[float]:
    """Four different Python floats in [-1.5, 1.5], at least 0.4 apart, one of them exactly 0.0."""
    while True:
        values = [round(float(v), 3) for v in rng.uniform(-1.5, 1.5, 4)]
        values[int(rng.integers(4))] = 0.0
        if min(abs(a - b) for i, a in enumerate(values) for b in values[i + 1:]) >= 0.4:
            return values


def expected(x, w, b):
    return np.tanh(x.astype(np.float64) @ w.astype(np.float64) + b)


def apply(layer, x, changes):
    """One graded call: the assignments the contract announces, then layer.apply(x). (Named apply, so that JAX's
    cache-miss explanations about a jitted method apply name its arguments self and x.)"""
    for name, value in changes:
        setattr(layer, name, value)
    return layer.apply(x)


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    Layer = g.graded(params=2)
    rng = g.rng
    w1, w2, w3 = weights(rng), weights(rng), weights(rng)
    b1, b2, b3, _ = biases(rng)
    xs = [rng.normal(0.0, 1.0, (ROWS, IN)).astype(np.float32) for _ in PLAN]
    try:
        objects = {"A": Layer(w1.copy(), b1), "N": Layer(w3.copy(), b3), "P": Layer(w2.copy(), b2)}
    except Exception as exc:  # the learner's constructor
        raise LearnerFailure(msg("contract.init", "Layer(w, b) raised {type} when the grader built a layer from a "
                                 "float32[8, 4] NumPy array and a Python float: {text}", type=type(exc).__name__,
                                 text=str(exc).splitlines()[0][:200] if str(exc) else "")) from None
    changes = {3: [("w", w2.copy())], 4: [("b", b2)]}
    # The fields of the object each call uses, at the time of the call.
    state = [(w1, b1), (w1, b1), (w2, b1), (w2, b2), (w3, b3), (w2, b2)]
    arglist = [(objects[name], x, changes.get(i, [])) for i, ((name, _), x) in enumerate(zip(PLAN, xs), 1)]
    g.graded_params = ("self", "x")
    calls = g.calls(apply, arglist, name="apply")
    g.check_ran("runs", calls, _advice_for_error, tier=PYTREE_TIER, explain=_explain_error)
    wants = [expected(x, w, b) for x, (w, b) in zip(xs, state)]
    results = [as_floats(r, (ROWS, OUT), exact=True) for r in calls.results]

    check_values(g, results, wants, xs, state)
    check_in_jit(g, xs, objects["P"])
    check_follows_mutation(g, results, wants, xs, state, objects["A"])
    check_fresh_object(g, results, wants, xs, state)
    check_compiles(g, calls)


def _atol(x, w, b):
    """float32 rounding of tanh(x @ w + b), element by element: at most 1 on the size of the terms summed."""
    return float32_atol(np.abs(x.astype(np.float64)) @ np.abs(w.astype(np.float64)) + abs(b), ulps=ULPS)


def _close(got, x, w, b, want=None) -> bool:
    want = expected(x, w, b) if want is None else want
    return got is not None and bool(np.allclose(got, want, rtol=RTOL, atol=_atol(x, w, b)))


def _first_wrong_call(results, xs, state, calls):
    """The first of ``calls`` whose result does not follow its object's values, with the earlier call whose values
    explain that result (None when none does); None when every one of them follows."""
    for i in calls:
        got, x = results[i - 1], xs[i - 1]
        if not _close(got, x, *state[i - 1]):
            return i, next((j for j in range(1, i) if _close(got, x, *state[j - 1])), None)
    return None


def _explain_error(error):
    text = error.message
    if error.type == "FrozenInstanceError" or "cannot assign to field" in text or "can't set attribute" in text \
            or "has no setter" in text:
        return msg("runs.frozen", "The grader assigns layer.w and layer.b, as the statement says, and your Layer "
                   "refuses the assignment: a frozen class cannot be updated in place")
    if "as an abstract array" in text and "self" in text:
        return msg("runs.self_array", "jit tries to trace every argument as an array, self included, and a Layer "
                   "object is not an array (nor a pytree of arrays)")
    if "Non-hashable static arguments" in text:
        return msg("runs.unhashable", "a static argument must be hashable, because its hash is part of jit's cache "
                   "key")
    return None


def _advice_for_error(error):
    return msg("advice.pytree", "make Layer a pytree whose children are w and b (jax.tree_util."
               "register_pytree_node_class with tree_flatten returning (self.w, self.b), None), and decorate apply "
               "with plain @jax.jit; or keep self out of jit: apply calls a module-level jitted function with "
               "self.w, self.b and x")


# ------------------------------------------------------------------------------------------------ values


def check_values(g, results, wants, xs, state):
    wrong = _first_wrong_call(results, xs, state, (1, 2))
    if wrong is None:
        return g.passed("values", msg("values.ok", "the first two calls on a new Layer match tanh(x @ w + b)"))
    i = wrong[0]
    got, want, x, (w, b) = results[i - 1], wants[i - 1], xs[i - 1], state[i - 1]
    if got is None:
        observation = msg("values.shape", "call {i} returned something that is not a float32[5, 4] array", i=i)
    elif _close(got, x, w, 0.0):
        observation = msg("values.no_bias", "call {i} returned tanh(x @ w), without the bias b", i=i)
    elif _close(got, x, w, b, want=x.astype(np.float64) @ w + b):
        observation = msg("values.no_tanh", "call {i} returned x @ w + b, without the tanh", i=i)
    else:
        k = tuple(int(v) for v in np.argwhere(~np.isclose(got, want, rtol=RTOL, atol=_atol(x, w, b)))[0])
        observation = msg("values.differ", "call {i} returned {got:.5g} at index {index} where tanh(x @ w + b) is "
                          "{want:.5g}", i=i, got=float(got[k]), want=float(want[k]), index=str(list(k)))
    return g.failed("values", observation, msg("advice.formula", "return jnp.tanh(x @ self.w + self.b)"), tier=1)


# ------------------------------------------------------------------------------------------------ in jit


def check_in_jit(g, xs, twin):
    for i, x in enumerate(xs, 1):
        found = jit_reach(g, i, [x])
        if found.problem == "no_jit":
            return g.failed("in_jit", msg(
                "jit.none", "during call {i} apply ran no jitted function: tanh(x @ w + b) was computed outside jit, "
                "one eager operation at a time", i=i), _advice_for_error(None), tier=PYTREE_TIER)
        if found.problem == "missing":
            return g.failed("in_jit", msg(
                "jit.no_x", "during call {i} your code ran the jitted {names}, but x was not among its arguments: the "
                "work on x happened outside jit", i=i, names=found.names), _advice_for_error(None), tier=PYTREE_TIER)
    found = jit_reach(g, 1, [xs[0]], xs[0], (xs[0] + np.float32(0.75)).astype(np.float32), work={"dot_general"})
    if found.problem == "rerun_failed":
        return g.failed("in_jit", msg("jit.rerun_failed", "the grader ran your jitted function {name} again with "
                                      "another x and it failed ({error}), so it cannot tell that the result comes "
                                      "from x", name=found.function, error=found.error))
    if found.problem == "not_following":
        return g.failed("in_jit", msg(
            "jit.not_from_x", "your jitted function {name} received x, but run again with another x it returned "
            "the same output: what apply returns is not computed from x by that function", name=found.function),
            _advice_for_error(None), tier=PYTREE_TIER)
    if found.problem:
        return g.failed("in_jit", reach_failure(found, what="x", graded="apply"), _advice_for_error(None),
                        tier=PYTREE_TIER)
    if refuse_beside_jit(g, "in_jit", found, lambda: twin.apply(xs[-1].copy()), what="x", graded="apply",
                         advice=_advice_for_error(None), tier=PYTREE_TIER):
        return None
    return g.passed("in_jit", msg("jit.ok", "every call ran jitted code on x, and its output follows x"))


# ------------------------------------------------------------------------------------------------ freshness


def _how_self(g, i, obj) -> str:
    """How the jitted code of call i saw the object: "static", "pytree", "closure" or "unknown"."""
    during = [c for c in g.jit_spy.calls if c.call == i]
    for c in during:
        if any(arg is obj for arg in c.args):
            try:
                leaves = jax.tree_util.tree_leaves(obj)
            except Exception:
                leaves = [obj]
            return "static" if len(leaves) == 1 and leaves[0] is obj else "pytree"
    return "closure" if during else "unknown"


def _jit_lines(g) -> list[int]:
    """The lines that mark self static (static_argnums / static_argnames), else the jit calls and decorators."""
    return g.lines_calling(r"static_argn") or g.lines_calling(r"\bjit\s*\(|@\s*(jax\.)?jit\b")


def _stale_cause(g, i, obj):
    how = _how_self(g, i, obj)
    if how == "static" and "__hash__" in g.code:
        return msg("cause.static_hash", "self is a static argument with your own __hash__: jit looked up the "
                   "program it had compiled for this object and ran it, and that program holds the values self.w "
                   "and self.b had when it was traced, baked in as constants")
    if how == "static":
        return at_line(_jit_lines(g), msg(
            "cause.static_line", "line {line} makes self a static argument: jit keys its cache on the object (its "
            "hash, by default its identity), and read self.w and self.b once, while tracing, baking their values into "
            "the program as constants; assigning a field changes neither the key nor the program"), msg(
            "cause.static", "self is a static argument: jit keys its cache on the object (its hash, by default its "
            "identity), and read self.w and self.b once, while tracing, baking their values into the program as "
            "constants; assigning a field changes neither the key nor the program"))
    if how == "closure":
        return msg("cause.closure", "the jitted function does not receive the Layer as an argument: it reads self.w "
                   "and self.b from the object it closes over, once, while tracing, and bakes their values into the "
                   "program as constants")
    return msg("cause.unknown", "the compiled program still holds the values it saw when it was traced")


def check_follows_mutation(g, results, wants, xs, state, layer):
    stale = _first_wrong_call(results, xs, state, (3, 4))  # call 3 after layer.w = …, call 4 after layer.b = …
    if stale is None:
        return g.passed("follows_mutation", msg("mutation.ok", "after layer.w and then layer.b were assigned, apply "
                                                "used the new values"))
    i, j = stale
    cause = _stale_cause(g, i, layer)
    if j is not None and i == 3:
        observation = msg("mutation.stale_w", "before call 3 the grader assigned new weights to layer.w, and apply "
                          "returned the result for the weights it had at call {j}: {cause}", j=j, cause=cause)
    elif j is not None:
        observation = msg("mutation.stale_b", "before call 4 the grader assigned a new bias, layer.b = {b}, and apply "
                          "returned the result for the values it had at call {j}: {cause}", j=j, b=state[3][1],
                          cause=cause)
    else:
        observation = msg("mutation.wrong", "after the grader assigned layer.{field} before call {i}, apply returned "
                          "a result that matches neither the new values nor earlier ones", field="w" if i == 3 else "b",
                          i=i)
    return g.failed("follows_mutation", observation, _advice_for_error(None), tier=PYTREE_TIER)


def check_fresh_object(g, results, wants, xs, state):
    stale = _first_wrong_call(results, xs, state, (5, 6))  # call 5 on a new Layer, call 6 on A's twin
    if stale is None:
        return g.passed("fresh_object", msg("fresh.ok", "two new Layer objects got results from their own values"))
    i, j = stale
    if j is not None and i == 6:
        observation = msg("fresh.twin_stale", "call 6 used a new Layer built with the values layer A holds after its "
                          "changes, and got the result for the values of call {j}: jit's cache found a program "
                          "compiled for another object that compares equal to this one (same hash, ==), and ran it "
                          "with the values baked into it when it was traced", j=j)
    elif j is not None and ("__hash__" in g.code or "__eq__" in g.code):
        observation = msg("fresh.stale_equal", "call {i} used a new Layer with its own weights and bias, and got the "
                          "result for the values of call {j}: your Layer objects compare equal (same hash, ==), so "
                          "jit's cache took the new one for an object it had seen and ran the program traced for that "
                          "one, with its values baked in", i=i, j=j)
    elif j is not None:
        observation = msg("fresh.stale", "call {i} used a new Layer with its own weights and bias, and got the result "
                          "for the values of call {j}: the cached program, with another object's values baked in, was "
                          "reused", i=i, j=j)
    else:
        observation = msg("fresh.wrong", "call {i} used a new Layer and its result matches neither its own values nor "
                          "earlier ones", i=i)
    return g.failed("fresh_object", observation, _advice_for_error(None), tier=PYTREE_TIER)


# ------------------------------------------------------------------------------------------------ compiles


def check_compiles(g, calls):
    mine = calls.learner_reasons(g.jit_spy.jitted_names)  # the count is of every compile; the causes, of the learner's
    n = len(calls.reasons())
    if n == 1:
        g.passed("one_compile", msg("compiles.ok", "compiled once, in call {call}; the new values in the other calls "
                                    "reused that program", call=calls.reasons()[0].call or 1))
        return
    head = msg("compiles.head", "{calls} with the same shapes compiled {times}; expected once",
               times=count("time", n), calls=count("call", len(PLAN)))
    if n == 0:
        g.failed("one_compile", msg("compiles.none", "{head}: nothing of yours was compiled during the graded "
                                    "calls", head=head))
        return
    if eager_failed(g, "one_compile", head, calls):
        return
    later = later_misses(mine)
    items = reason_items(later)
    kinds = {m.kind for m in later}
    if "clear_cache" in g.code:
        g.failed("one_compile", msg("compiles.cleared", "{head}: your code empties jit's cache (clear_cache) when a "
                                    "field changes, so the next call compiles again: the values are fresh, but every "
                                    "change of values costs a compile", head=head),
                 _advice_for_error(None), tier=PYTREE_TIER)
        return
    if "static" in kinds:
        advice = msg("advice.no_static", "nothing about a Layer should be static: its fields are values; make it a "
                     "pytree whose children are w and b, or pass self.w and self.b to a jitted function")
    elif "new_function" in kinds:
        advice = msg("advice.jit_once", "make the jitted function once (a decorator on the method of a pytree class, "
                     "or a module-level jitted function) instead of calling jax.jit per object or per call")
    elif "structure" in kinds:
        advice = msg("advice.children", "return every field that holds a value among the children of "
                     "tree_flatten, not in the auxiliary data: auxiliary data is static, part of the cache key")
    elif "weak_type" in kinds:
        advice = msg("advice.weak", "store the fields as they are given (or convert them the same way wherever "
                     "they are set): the grader passes b as a Python float, and a typed float32 array is a different "
                     "input type")
    else:
        advice = _advice_for_error(None)
    g.failed("one_compile", msg("compiles.why", "{head}: {items}", head=head, items=items), advice,
             tier=PYTREE_TIER)
