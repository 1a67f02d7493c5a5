"""Checks for buffer_donation: train(w, grads, lr) is called three times as plain Python, each time with fresh
weights (a float32[n] jax.Array) and a list of gradients; it applies one clipped SGD update per gradient.

Donation is proved on the arrays themselves: after train returns, the w the grader passed in must be deleted
(.is_deleted()), and so must the weights handed to every jitted call that receives a gradient (an update step).
Graded calls record every warning: JAX's "Some donated buffers were not usable" must not appear (nor at import, for
a step compiled ahead of time). Reading a donated array raises "Array has been deleted": that error is explained as
such. The values are the final weights and the largest change of each update.
"""

from __future__ import annotations

import jax
import numpy as np

from jittrainer.authoring import (compare, count, float32_atol, is_tracer, jit_reach, keep_held_copies, msg,
                                  reach_failure, refuse_beside_jit)

CHECKS = {
    "runs": "train returns for every call, never reading a donated array",
    "donates": "the weights are donated to every update step",
    "no_warning": "no donated buffer goes unused",
    "update_in_jit": "every update runs in a jitted step that receives the weights and the gradient",
    "values": "returns the final weights and the change of every update",
}

CLIP = 1.0
NOT_USABLE = "Some donated buffers were not usable"
VIEW = r"\b(np|numpy)\.asarray\s*\("  # on a CPU, a view of the array: it blocks donation
COPY = r"jnp\.(array|copy)\s*\(|\.copy\s*\(|device_put\s*\("  # a new jax.Array made from the weights
DONATE_TIER = 2  # the hint tier that names donate_argnums and rebinding


# ------------------------------------------------------------------------------------------------ graded values


def make_case(rng: np.random.Generator, n: int, steps: int):
    """Weights in (-1, 1) and gradients large enough that clipping decides the largest change of most updates:
    a change computed from the gradient alone (lr * max|g|) is then wrong. Returns (w, grads, lr, iterates,
    changes), the iterates w_0..w_K and the changes in float32 as JAX computes them."""
    while True:
        lr = float(rng.uniform(0.1, 0.5))
        w = rng.uniform(-0.95, 0.95, n).astype(np.float32)
        grads = [(rng.choice([-1.0, 1.0], n) * rng.uniform(0.5, 4.0, n)).astype(np.float32) for _ in range(steps)]
        iterates, changes = _reference(w, grads, lr)
        naive = [lr * float(np.max(np.abs(g))) for g in grads]
        if all(abs(c - m) > 0.01 * max(m, 1e-3) for c, m in zip(changes, naive)):
            return w, grads, lr, iterates, changes


def _reference(w: np.ndarray, grads: list[np.ndarray], lr: float):
    iterates, changes = [w], []
    lr32 = np.float32(lr)
    for g in grads:
        new = np.clip(iterates[-1] - lr32 * g, -CLIP, CLIP).astype(np.float32)
        changes.append(float(np.max(np.abs(new - iterates[-1]))))
        iterates.append(new)
    return iterates, changes


def magnitudes(w: np.ndarray, grads: list[np.ndarray], lr: float) -> list[np.ndarray]:
    """Per iterate, the size of all summed into it (|w| + lr |g| per update): fused updates' rounding grows with it."""
    sizes = [np.abs(w.astype(np.float64))]
    for g in grads:
        sizes.append(sizes[-1] + CLIP + lr * np.abs(g.astype(np.float64)))
    return sizes


def plan(rng: np.random.Generator) -> list[tuple[int, int]]:
    """(n, steps) for the three calls: one with n = 1, one with a single gradient, in a random order."""
    cases = [(1, int(rng.integers(2, 5))), (int(rng.integers(8, 33)), 1),
             (int(rng.integers(33, 65)), int(rng.integers(5, 9)))]
    return [cases[i] for i in rng.permutation(3)]


# ------------------------------------------------------------------------------------------------ grading


def setup(g):
    keep_held_copies(g)  # where the learner's code holds a copy of the weights at each update: donates reads it


class _Case:
    def __init__(self, index, w, grads, lr, iterates, changes) -> None:
        self.index, self.lr, self.iterates, self.changes = index, lr, iterates, changes
        self.w, self.grads = w, grads  # numpy copies: the arrays handed to train may be donated
        self.w_in = jax.device_put(w)
        self.grads_in = [jax.device_put(g) for g in grads]

    @property
    def steps(self) -> int:
        return len(self.grads)


def grade(g):
    train = g.graded(params=3)
    cases = [_Case(i, *make_case(g.rng, n, k)) for i, (n, k) in enumerate(plan(g.rng), 1)]
    jax.block_until_ready([(c.w_in, c.grads_in) for c in cases])
    calls = g.calls(train, [(c.w_in, c.grads_in, c.lr) for c in cases])
    g.check_ran("runs", calls, _error_advice, tier=DONATE_TIER, explain=lambda e: _explain(g, e))

    updates = [_updates(g, c) for c in cases]
    _check_donates(g, cases, updates)
    _check_warnings(g, calls)
    _check_in_jit(g, cases, updates)
    _check_values(g, cases, calls.results)


def _explain(g, error):
    if "has been deleted" in error.message:
        if error.line:
            return msg("deleted.line", "Line {line} reads an array after it was donated: donation hands its buffer "
                       "to XLA, which writes the result into it, so the array passed in is deleted, and any later "
                       "read of it raises", line=error.line)
        return msg("deleted", "An array was read after it was donated: donation hands its buffer to XLA, which "
                   "writes the result into it, so the array passed in is deleted, and any later read of it raises")
    if "previously donated in the same call" in error.message:
        return msg("donated_twice", "The same array was passed twice to one call that donates it: once donated, "
                   "its buffer cannot also be read as the other argument")
    return None


def _measure_inside():
    return msg("advice.measure_inside", "compute what needs the old weights inside the jitted step and return it as a "
               "second output (return new_w, jnp.max(jnp.abs(new_w - w))), then rebind at once: "
               "w, change = sgd_step(w, g, lr)")


def _error_advice(error):
    return _measure_inside() if "has been deleted" in error.message else None


# ------------------------------------------------------------------------------------------------ updates


class _Update:
    """A jitted call made during a graded call that received at least one of its gradients."""

    def __init__(self, call, grads: list[int], weights: list) -> None:
        self.call = call
        self.grads = grads  # which gradients (0-based) it received
        self.weights = weights  # every argument holding the weights, as passed


def _holds(a: np.ndarray, v: np.ndarray) -> bool:
    """``a`` is ``v``, or holds it as one row (gradients stacked for a scan)."""
    if a.dtype.kind != "f" or a.size < v.size or a.size % v.size:
        return False
    rows = a.reshape(-1, v.size)  # one row: a is v itself
    return bool(np.any(np.all(rows == v[None, :], axis=1)))


def _array_leaves(call) -> list:
    leaves = jax.tree_util.tree_leaves((call.args, call.kwargs))
    return [leaf for leaf in leaves if isinstance(leaf, (np.ndarray, jax.Array)) and not is_tracer(leaf)]


def _updates(g, case: _Case) -> list[_Update]:
    """The jitted calls of one graded call that received a gradient; among their other array arguments, the weights
    are the floating-point ones of n values (any values: a wrong update still has its weights)."""
    n = case.w.size
    found = []
    for call in g.jit_spy.calls:
        if call.call != case.index or not call.arrays:
            continue
        grads = [k for k, grad in enumerate(case.grads) if any(_holds(a, grad) for a in call.arrays)]
        if not grads:
            continue
        objects = _array_leaves(call)
        weights = []
        if len(objects) == len(call.arrays):
            weights = [obj for obj, copy in zip(objects, call.arrays)
                       if copy.dtype.kind == "f" and copy.ndim >= 1 and copy.size == n
                       and not any(np.array_equal(copy.reshape(-1), grad) for grad in case.grads)]
        found.append(_Update(call, grads, weights))
    return found


def _deleted(value) -> bool:
    try:
        return bool(value.is_deleted())
    except Exception:
        return False


def _check_donates(g, cases, updates) -> None:
    advice = msg("advice.donate", "jit the update step with the weights donated (jax.jit(sgd_step, donate_argnums=0), "
                 "or the decorator @partial(jax.jit, donate_argnums=0)), and pass it the weights you were given")
    views = g.lines_calling(VIEW, g.function_name)
    view_advice = msg("advice.view", "keep no NumPy view (nor copy) of the weights: measure the change inside the "
                      "jitted step and return it")
    for case, found in zip(cases, updates):
        common = {"call": case.index, "steps": count("step", case.steps)}
        for update in found:
            for obj in update.weights:
                if isinstance(obj, np.ndarray):
                    g.failed("donates", msg("donate.numpy", "call {call} ({steps}): the weights reached the jitted "
                             "function {function} as a NumPy array, which lives on the host and cannot be donated",
                             function=update.call.function, **common), advice, tier=DONATE_TIER)
                    return
                held = [holder for leaf, holder in getattr(update.call, "held", []) if leaf is obj]
                if held:
                    g.failed("donates", msg("donate.copy_held", "call {call} ({steps}): when the jitted function "
                             "{function} ran update {k}, {holder} held a copy of the weights it was given: the old "
                             "weights stayed in memory next to the new ones, which is the memory donation saves",
                             function=update.call.function, k=min(update.grads) + 1, holder=held[0], **common),
                             _measure_inside(), tier=DONATE_TIER)
                    return
                if _deleted(obj):
                    continue
                if views:
                    g.failed("donates", msg("donate.kept_view", "call {call} ({steps}): the weights passed to the "
                             "jitted function {function} for update {k} were still alive after train returned. Line "
                             "{line} takes a NumPy view of them: on a CPU, np.asarray shares the array's memory, and "
                             "JAX cannot donate a buffer that a view still uses, so it silently kept it and wrote the "
                             "new weights into a fresh buffer", function=update.call.function,
                             k=min(update.grads) + 1, line=views[0], **common), view_advice, tier=DONATE_TIER)
                else:
                    g.failed("donates", msg("donate.kept", "call {call} ({steps}): the weights passed to the jitted "
                             "function {function} for update {k} were still alive after train returned: they were "
                             "not donated, so XLA wrote the new weights into a fresh buffer and, for a while, both "
                             "copies took memory", function=update.call.function, k=min(update.grads) + 1,
                             **common), advice, tier=DONATE_TIER)
                return
        if _deleted(case.w_in):
            continue
        copies = g.lines_calling(COPY, g.function_name)
        if views:
            g.failed("donates", msg("donate.caller_view", "call {call} ({steps}): the w the grader passed to train was "
                     "still alive after train returned. Line {line} takes a NumPy view of the weights: on a CPU, "
                     "np.asarray shares the array's memory, and JAX cannot donate a buffer that a view still uses, "
                     "so it silently kept it", line=views[0], **common), view_advice, tier=DONATE_TIER)
        elif copies and any(u.weights for u in found):
            g.failed("donates", msg("donate.caller_copy", "call {call} ({steps}): the w the grader passed to train "
                     "was still alive after train returned; line {line} makes a new array from it, and only that "
                     "copy was donated, so the weights were in memory twice", line=copies[0], **common), advice,
                     tier=DONATE_TIER)
        else:
            g.failed("donates", msg("donate.caller", "call {call} ({steps}): the w the grader passed to train was "
                     "still alive after train returned: its buffer was never donated, so the first update wrote the "
                     "new weights into a fresh buffer and both copies took memory", **common), advice,
                     tier=DONATE_TIER)
        return
    g.passed("donates", msg("donate.ok", "the weights handed to every update were deleted afterwards, the ones passed "
                            "to train included: each update reused their buffer"))


def _check_warnings(g, calls) -> None:
    import_text = "".join(s.text for s in g.recorder.sections if s.label == "import")
    unusable = [w for w in calls.warnings if NOT_USABLE in w]
    at_import = NOT_USABLE in import_text
    if not unusable and not at_import:
        g.passed("no_warning", msg("warning.ok", "JAX used every donated buffer"))
        return
    advice = msg("advice.donate_match", "donate only the weights: an output with the same shape and dtype can reuse "
                 "their buffer; the gradient and the learning rate have no output to go into")
    if unusable:
        text = unusable[0].split(": ", 1)[-1]
        observation = msg("warning.call", "JAX warned during the graded calls: \"{text}\": a donated argument had no "
                          "output of the same shape and dtype to reuse its buffer, so donating it saved nothing",
                          text=text)
    else:
        observation = msg("warning.import", "JAX warned while your file was imported (an update step compiled ahead "
                          "of time): \"Some donated buffers were not usable\": a donated argument had no output of "
                          "the same shape and dtype to reuse its buffer, so donating it saved nothing")
    g.failed("no_warning", observation, advice, tier=DONATE_TIER)


def _check_in_jit(g, cases, updates) -> None:
    advice = msg("advice.in_jit", "compute the update inside the jitted step: pass it the weights and the gradient, "
                 "and let it return the new weights")
    reaches = []
    for case, found in zip(cases, updates):
        common = {"call": case.index, "steps": count("step", case.steps)}
        reached = {k for u in found for k in u.grads}
        missing = [k for k in range(case.steps) if k not in reached]
        if missing:
            g.failed("update_in_jit", msg("jit.no_grad", "call {call} ({steps}): gradient {k} never reached a jitted "
                     "function, so that update was computed outside jit (and donation had no compiled step to reuse "
                     "a buffer in)", k=missing[0] + 1, **common), advice, tier=1)
            return
        blind = next((u for u in found if not u.weights), None)
        if blind is not None:
            g.failed("update_in_jit", msg("jit.no_weights", "call {call} ({steps}): the jitted function {function} "
                     "received gradient {k} but not the weights it updates, so the update itself happened outside "
                     "it", function=blind.call.function, k=min(blind.grads) + 1, **common), advice, tier=1)
            return
        reached = jit_reach(g, case.index, case.grads, work={"mul", "sub", "add"}, with_other=True)
        if reached.problem:
            g.failed("update_in_jit", reach_failure(reached, what=msg("jit.what", "gradient 1 of call {call}",
                                                                      call=case.index), graded="train"), advice, tier=1)
            return
        reaches.append(reached)
    case = max(cases, key=lambda c: c.steps)
    if refuse_beside_jit(g, "update_in_jit", reaches, lambda: g.graded_function(
            jax.device_put(case.w), [jax.device_put(v) for v in case.grads], case.lr), what="w", graded="train",
            advice=advice, tier=1, parts=lambda result: [result[0]]):
        return
    g.passed("update_in_jit", msg("jit.ok", "every gradient reached a jitted step together with the weights"))


def _check_values(g, cases, results) -> None:
    advice = msg("advice.values", "return (w, changes): the weights after the last update, and for every update "
                 "the largest absolute change of any weight, max |new_w - w|, measured after clipping")
    for case, result in zip(cases, results):
        common = {"call": case.index, "steps": count("step", case.steps)}
        if not isinstance(result, (tuple, list)) or len(result) != 2:
            g.failed("values", msg("values.shape", "call {call} ({steps}): train returned {type}; expected a pair "
                                   "(w, changes)", type=type(result).__name__, **common), advice, tier=1)
            return
        w_out, changes = result
        dead = [leaf for leaf in jax.tree_util.tree_leaves(result) if isinstance(leaf, jax.Array) and _deleted(leaf)]
        if dead:
            g.failed("values", msg("values.deleted", "call {call} ({steps}): train returned an array that had been "
                                   "donated, so it is deleted and nobody can read it: return the weights the last "
                                   "update gave back, not the ones it consumed", **common), advice, tier=DONATE_TIER)
            return
        sizes = magnitudes(case.w, case.grads, case.lr)
        ok, why = compare(w_out, case.iterates[-1], rtol=1e-5, atol=float32_atol(sizes[-1]),
                          what=msg("what.weights", "the final weight vector of call {call}", call=case.index))
        if not ok:
            g.failed("values", why, advice, tier=1)
            return
        try:
            got = np.asarray([float(np.asarray(c)) for c in changes], dtype=np.float64)
        except Exception:
            got = None
        if got is None or got.shape != (case.steps,):
            g.failed("values", msg("values.changes_shape", "call {call} ({steps}): the changes are not {n} numbers, "
                                   "one per update", n=case.steps, **common), advice, tier=1)
            return
        want = np.asarray(case.changes)
        atol = float32_atol([2 * sizes[k + 1].max() for k in range(case.steps)])
        if not np.allclose(got, want, rtol=1e-5, atol=atol):
            k = int(np.argmax(~np.isclose(got, want, rtol=1e-5, atol=atol)))
            naive = case.lr * float(np.max(np.abs(case.grads[k])))
            if np.isclose(got[k], naive, rtol=1e-4):
                observation = msg("values.naive", "call {call} ({steps}): the change of update {k} is {got:.6g}, "
                                  "lr × max|g|: that is the step before clipping, but the weights were clipped to "
                                  "[-1, 1], and the change is {want:.6g}", k=k + 1, got=float(got[k]),
                                  want=float(want[k]), **common)
            else:
                observation = msg("values.change", "call {call} ({steps}): the change of update {k} is {got:.6g} "
                                  "where {want:.6g} was expected (max |new_w - w| after clipping)", k=k + 1,
                                  got=float(got[k]), want=float(want[k]), **common)
            g.failed("values", observation, advice, tier=1)
            return
    g.passed("values", msg("values.ok", "all {n} results match", n=len(cases)))

