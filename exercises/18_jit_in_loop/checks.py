"""Checks for jit_in_loop: train(w, batches, lr) runs 20 gradient-descent steps on a least-squares loss.

Two graded runs (new data, weights and learning rate). The final weights must be right; every batch must reach a
jitted program that does the step's matrix product on it, whose output the result is built from; the runs may
compile once, every backend compile counted: a jax.jit(...) made per step (a lambda, a partial, a closure)
compiles on every step, one made per call of train compiles per run, and a static lr compiles per learning rate.
"""

import numpy as np

from jittrainer.authoring import (as_floats, count, eager_failed, first_wrong, jit_reach, later_misses, msg,
                                  reach_failure, reason_items, refuse_beside_jit)

CHECKS = {
    "runs": "train returns for both runs",
    "values": "returns the weights after 20 gradient steps",
    "in_jit": "every step's batch goes through jitted code",
    "one_compile": "two runs of 20 steps compile once",
}

RUNS, STEPS, ROWS, DIM = 2, 20, 16, 5
LR_LOW, LR_HIGH = 0.01, 0.2
RTOL, ATOL = 1e-3, 1e-4
EXAMPLE_LR = 0.1  # the learning rate statement.md uses in its example
HOIST_TIER = 2  # the hint tier on making the jitted function once, with lr as an argument


# ------------------------------------------------------------------------------------------------ inputs


def make_run(rng, lr):
    true_w = rng.normal(0.0, 1.5, DIM)
    batches = []
    for _ in range(STEPS):
        x = rng.normal(0.0, 1.0, (ROWS, DIM)).astype(np.float32)
        y = (x @ true_w + rng.normal(0.0, 0.1, ROWS)).astype(np.float32)
        batches.append((x, y))
    w0 = rng.normal(0.0, 0.5, DIM).astype(np.float32)
    return w0, batches, lr


def learning_rates(rng) -> list[float]:
    """One lr per run, Python floats in [0.01, 0.2], at least 0.05 apart; one run gets an edge of the range."""
    while True:
        lrs = [round(float(v), 4) for v in rng.uniform(LR_LOW, LR_HIGH, RUNS)]
        lrs[int(rng.integers(RUNS))] = float(rng.choice([LR_LOW, LR_HIGH]))
        if abs(lrs[0] - lrs[1]) >= 0.05:
            return lrs


def reference(w0, batches, lr, steps=None) -> np.ndarray:
    w = w0.astype(np.float64)
    for x, y in batches[: steps or len(batches)]:
        x64, y64 = x.astype(np.float64), y.astype(np.float64)
        w = w - lr * (2.0 / len(y)) * x64.T @ (x64 @ w - y64)
    return w


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    train = g.graded(params=3)
    lrs = learning_rates(g.rng)
    runs = [make_run(g.rng, lr) for lr in lrs]
    originals = [(w0.copy(), [(x.copy(), y.copy()) for x, y in batches], lr) for w0, batches, lr in runs]
    calls = g.calls(train, runs)
    g.check_ran("runs", calls, _advice_for_error, tier=HOIST_TIER)
    check_values(g, calls.results, originals)
    check_in_jit(g, originals)
    check_compiles(g, calls)


def _advice_for_error(error):
    if error.type in ("ConcretizationTypeError", "TracerBoolConversionError", "TracerIntegerConversionError"):
        return msg("advice.traced_lr", "inside jit, lr is a tracer: use it in arithmetic only (w - lr * grad), never "
                   "in an if, a float() or a range()")
    return None


# ------------------------------------------------------------------------------------------------ values


def _close(got, want) -> bool:
    return got is not None and bool(np.allclose(got, want, rtol=RTOL, atol=ATOL))


def check_values(g, results, originals):
    runs = ((as_floats(result, (DIM,)), reference(w0, batches, lr))  # (got, want), computed run by run
            for result, (w0, batches, lr) in zip(results, originals))
    first_wrong(g, "values", runs, lambda run: _close(*run),
                lambda r, run: _slip(run[0], r, run[1], originals) or _mismatch(*run, r),
                msg("advice.step", "each step is w = w - lr * jax.grad(loss)(w, x, y), with this run's lr, for every "
                    "batch in order, starting from the w train receives"), tier=1,
                ok=msg("values.ok", "both runs end at the right weights ({steps} each)", steps=count("step", STEPS)))


def _mismatch(got, want, r):
    if got is None:
        return msg("values.shape", "run {r} returned something that is not {dim} weights", r=r, dim=DIM)
    k = int(np.argmax(np.abs(got - want)))
    return msg("values.differ", "run {r} ended with w[{k}] = {got:.5g} where 20 gradient steps give {want:.5g}", r=r,
               k=k, got=float(got[k]), want=float(want[k]))


def _slip(got, r, want, originals):
    if got is None:
        return None
    w0, batches, lr = originals[r - 1]
    for other, (_, _, other_lr) in enumerate(originals, 1):
        if other != r and _close(got, reference(w0, batches, other_lr)):
            return msg("values.stale_lr", "run {r} ended where its 20 steps would with the learning rate of run "
                       "{other} ({old}) instead of its own ({lr}): the jitted step still holds the lr it saw when it "
                       "was traced (a value captured from the enclosing scope, or a static argument kept from an "
                       "earlier call)", r=r, other=other, old=other_lr, lr=lr)
    if lr != EXAMPLE_LR and _close(got, reference(w0, batches, EXAMPLE_LR)):
        return msg("values.example_lr", "run {r} ended where its 20 steps would with lr = {example}, the statement's "
                   "example, instead of this run's lr ({lr})", r=r, example=EXAMPLE_LR, lr=lr)
    if _close(got, reference(w0, batches, lr, steps=1)):
        return msg("values.one_step", "run {r} returned the weights after the first step only", r=r)
    if _close(got, w0):
        return msg("values.unchanged", "run {r} returned the initial weights unchanged", r=r)
    return None


# ------------------------------------------------------------------------------------------------ in jit


def check_in_jit(g, originals):
    reached = []
    for r, (_, batches, _) in enumerate(originals, 1):
        x = batches[0][0]
        found = jit_reach(g, r, [x for x, _ in batches], x, (x * np.float32(1.5) + np.float32(0.5)).astype(np.float32),
                          work={"dot_general"}, with_other=True)
        if found.problem == "no_jit":
            return g.failed("in_jit", msg(
                "jit.none", "during run {r} train called no jitted function: the {steps} were computed outside jit",
                r=r, steps=count("step", STEPS)), _advice_hoist(), tier=HOIST_TIER)
        if found.problem == "missing":
            return g.failed("in_jit", msg(
                "jit.missing", "during run {r} the x of batch {k} reached none of the jitted functions your code "
                "called ({names}): that step was computed outside jit", r=r, k=found.index + 1, names=found.names),
                _advice_hoist(), tier=HOIST_TIER)
        if found.problem == "no_work":
            return g.failed("in_jit", reach_failure(found, what=msg("jit.what", "the x of batch 1 of run {r}", r=r),
                                                    graded="train"), _advice_hoist(), tier=HOIST_TIER)
        if found.problem == "rerun_failed":
            return g.failed("in_jit", msg("jit.rerun_failed", "the grader ran your jitted function {name} again with "
                                          "batch 1 of run {r} changed, and it failed ({error}), so it cannot tell "
                                          "that the steps come from the data", name=found.function, r=r,
                                          error=found.error))
        if found.problem:
            return g.failed("in_jit", msg(
                "jit.not_from_x", "your jitted function {name} received batch 1 of run {r}, but run again with that "
                "batch changed it returned the same output: the step is not computed from the batch by that "
                "function", name=found.function, r=r), _advice_hoist(), tier=HOIST_TIER)
        reached.append(found)
    w0, batches, lr = originals[0]
    if refuse_beside_jit(g, "in_jit", reached, lambda: g.graded_function(
            w0.copy(), [(x.copy(), y.copy()) for x, y in batches], lr), what="x", graded="train",
            advice=_advice_hoist(), tier=HOIST_TIER):
        return None
    return g.passed("in_jit", msg("jit.ok", "every batch of both runs reached jitted code, and its output follows "
                                  "the data"))


def _advice_hoist():
    return msg("advice.hoist", "define the step once, at module level, as a jitted function of (w, x, y, lr) "
               "(@jax.jit), and call that same function on every step of train")


# ------------------------------------------------------------------------------------------------ compiles


def check_compiles(g, calls):
    mine = calls.learner_reasons(g.jit_spy.jitted_names)  # the count is of every compile; the causes, of the learner's
    n = len(calls.reasons())
    total = RUNS * STEPS
    if n == 1:
        g.passed("one_compile", msg("compiles.ok", "compiled once; the other {steps} reused that program",
                                    steps=count("step", total - 1)))
        return
    head = msg("compiles.head", "{runs} runs of {steps} compiled {times}; expected once",
               times=count("time", n), runs=RUNS, steps=count("step", STEPS))
    if n == 0:
        g.failed("one_compile", msg("compiles.none", "{head}: nothing of yours was compiled during the graded runs",
                                    head=head), _advice_hoist(), tier=HOIST_TIER)
        return
    if eager_failed(g, "one_compile", head, calls):
        return
    per_run = [sum(1 for m in mine if m.call == r) for r in range(1, RUNS + 1)]
    kinds = {m.kind for m in mine}
    lines = g.lines_calling(r"\bjit\b", g.function_name)
    if "new_function" in kinds and min(per_run) >= STEPS // 2:
        if lines:
            observation = msg("compiles.per_step_line", "{head}: line {line} makes a new jitted function on every "
                              "step, inside the loop, and a new function starts with an empty cache, so every step "
                              "traced and compiled again ({per_run} compiles in the two runs)", head=head,
                              line=lines[0], per_run=[str(p) for p in per_run])
        else:
            observation = msg("compiles.per_step", "{head}: a new jitted function is made on every step, and a new "
                              "function starts with an empty cache, so every step traced and compiled again "
                              "({per_run} compiles in the two runs)", head=head, per_run=[str(p) for p in per_run])
    elif "new_function" in kinds:
        if lines:
            observation = msg("compiles.per_run_line", "{head}: line {line} makes a new jitted function on every call "
                              "of train; within a run its steps reuse it, but the next run starts with a new "
                              "function and an empty cache", head=head, line=lines[0])
        else:
            observation = msg("compiles.per_run", "{head}: a new jitted function is made on every call of train; "
                              "within a run its steps reuse it, but the next run starts with a new function and an "
                              "empty cache", head=head)
    elif "static" in kinds:
        observation = msg("compiles.static", "{head}: {why}; the learning rate is a value that changes between "
                          "runs, and a static argument is part of the cache key", head=head,
                          why=next(m.reason for m in mine if m.kind == "static"))
    else:
        observation = msg("compiles.why", "{head}: {items}", head=head, items=reason_items(later_misses(mine)))
    g.failed("one_compile", observation, _advice_hoist(), tier=HOIST_TIER)
