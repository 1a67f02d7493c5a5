"""Checks for remat_budget: loss(params, x, y) runs a 16-layer residual MLP, h + tanh(h @ w1) @ w2 per layer, as a
lax.scan over stacked weights (w1: float32[16, 64, 256], w2: float32[16, 256, 64]) on a batch of 256 rows. The
grader differentiates it itself, jax.jit(jax.value_and_grad(loss)), holds the loss and the gradient against a
float64 NumPy backward pass, reads XLA's memory plan of that program (compiled.memory_analysis().temp_size_in_bytes)
against a 2.5 MiB budget, and counts the matrix products one run of it performs (a scan body once per layer).

Measured on XLA:CPU (0.10.2 / 0.12.0.1): no checkpoint 9.56 / 9.75 MiB; jax.checkpoint on the scan body 1.75 MiB
on both, 7 products per layer (the second product's output is not needed backward, so only h @ w1 is replayed); a
dots_saveable policy 5.81 / 5.75 MiB; a checkpoint around the whole loss 9.56 / 9.75 MiB and 8 per layer (the
backward scan still saves every layer); both at once 1.75 MiB and 9 per layer (the stack is replayed twice); a
Python loop of checkpointed layers 6.81 / 3.06 MiB (XLA schedules the unrolled program its own way, per release).
Without a checkpoint, the backward scan keeps each layer's (256, 256) tanh output beside its input; with the body
checkpointed it keeps the (256, 64) carry per layer, 1 MiB in all, and recomputes one layer at a time.
"""

import jax
import numpy as np

from jittrainer.authoring import compare, eqns_within, msg, program_memory, run_count, values_match

CHECKS = {
    "runs": "loss runs under jax.jit",
    "values": "returns the mean squared error of the 16-layer stack",
    "grad_values": "jax.value_and_grad(loss) gives the same loss and gradient",
    "temp_budget": "the gradient program fits in 2.5 MiB of temporary memory",
    "recompute": "the backward pass recomputes each layer's forward at most once",
}

LAYERS, BATCH, WIDTH, HIDDEN = 16, 256, 64, 256
CALLS = 3
BUDGET_MIB = 2.5
PRODUCTS_PER_LAYER = 8  # the forward's 2, at most 2 recomputed, the backward's 4
LOSS_RTOL = 1e-5
G_RTOL, G_ATOL = 1e-4, 1e-4  # G_ATOL: a share of the largest entry of that weight's gradient
REMAT = {"remat2", "checkpoint", "remat"}  # jax.checkpoint's primitive ("remat2" on 0.10 and 0.12)
FIX_TIER = 2  # the hint tier that names jax.checkpoint on the scan body


# -- graded values ---------------------------------------------------------------------------------------------


def draw(rng: np.random.Generator):
    """One batch: weights scaled so the residual stack neither explodes nor vanishes over 16 layers."""
    w1 = rng.normal(0.0, rng.uniform(0.5, 1.5) / np.sqrt(WIDTH), (LAYERS, WIDTH, HIDDEN))
    w2 = rng.normal(0.0, rng.uniform(0.1, 0.4) / np.sqrt(HIDDEN), (LAYERS, HIDDEN, WIDTH))
    x = rng.normal(0.0, rng.uniform(0.5, 2.0), (BATCH, WIDTH))
    y = rng.normal(0.0, 1.0, (BATCH, WIDTH))
    return {"w1": w1.astype(np.float32), "w2": w2.astype(np.float32)}, x.astype(np.float32), y.astype(np.float32)


def _mm(a, b):
    # einsum without optimize runs NumPy's own loops: a BLAS matmul's threads spin for seconds on a loaded machine.
    return np.einsum("ij,jk->ik", a, b, optimize=False)


def reference(params, x, y):
    """The loss and its gradient in float64, the backward pass written out layer by layer."""
    w1s, w2s = params["w1"].astype(np.float64), params["w2"].astype(np.float64)
    h, inputs, hidden = x.astype(np.float64), [], []
    for w1, w2 in zip(w1s, w2s):
        t = np.tanh(_mm(h, w1))
        inputs.append(h)
        hidden.append(t)
        h = h + _mm(t, w2)
    r = h - y.astype(np.float64)
    g, d1, d2 = 2.0 * r / r.size, np.empty_like(w1s), np.empty_like(w2s)
    for layer in reversed(range(LAYERS)):
        d2[layer] = _mm(hidden[layer].T, g)
        ga = _mm(g, w2s[layer].T) * (1.0 - hidden[layer] ** 2)
        d1[layer] = _mm(inputs[layer].T, ga)
        g = g + _mm(ga, w1s[layer].T)
    return float(np.mean(r**2)), {"w1": d1, "w2": d2}


# -- advice ----------------------------------------------------------------------------------------------------


def checkpoint_advice():
    return msg("advice.checkpoint", "checkpoint the function the scan runs for one layer, not the loss: "
               "jax.lax.scan(jax.checkpoint(layer), x, ...). The backward pass then keeps only each layer's input "
               "and recomputes that one layer when it gets there")


def run_advice(error):
    if "checkpoint" in error.message or "remat" in error.message:
        return msg("advice.wrap", "jax.checkpoint takes a function and returns one with the same arguments: wrap the "
                   "layer function itself, jax.checkpoint(layer), and give the scan that")
    return None


# -- grading ---------------------------------------------------------------------------------------------------


def grade(g):
    loss = g.graded(params=3)
    cases = [draw(g.rng) for _ in range(CALLS)]
    calls = g.calls(loss, cases)
    g.check_ran("runs", calls, run_advice, tier=FIX_TIER)
    wants = [reference(*case) for case in cases]
    values_match(g, "values", calls.results, [w[0] for w in wants], rtol=LOSS_RTOL, atol=0.0,
                 what=lambda i: msg("what.loss", "the loss of call {i}", i=i), refuse=True,
                 advice=msg("advice.same", "keep the layer exactly as it was: h + tanh(h @ w1) @ w2, then the mean "
                            "of (h - y) ** 2; a checkpoint changes what is saved, never the result"),
                 ok=msg("values.ok", "all {n} losses match", n=CALLS))

    value_and_grad = g.jit_spy.real(jax.value_and_grad(loss))  # the grader's own jit: not one of the learner's
    gcalls = g.calls(value_and_grad, cases, name="jax.value_and_grad(loss)")
    if not gcalls.ok:
        g.failed("grad_values", msg("grad.raised", "{error}: jax.value_and_grad could not differentiate loss",
                                    error=gcalls.error_message()), checkpoint_advice(), tier=FIX_TIER)
        return
    _check_gradients(g, gcalls.results, wants)
    _check_budget(g, value_and_grad, cases[0])
    _check_recompute(g, loss, cases[0])


def _check_gradients(g, results, wants) -> None:
    for call, ((value, grads), (want_value, want_grads)) in enumerate(zip(results, wants), 1):
        ok, why = compare(value, want_value, rtol=LOSS_RTOL, atol=0.0,
                          what=msg("what.grad_loss", "the loss jax.value_and_grad gave in call {call}", call=call))
        for name in ("w1", "w2"):
            if not ok:
                break
            want = want_grads[name]
            ok, why = compare(grads.get(name) if isinstance(grads, dict) else grads, want, rtol=G_RTOL,
                              atol=G_ATOL * float(np.abs(want).max()),
                              what=msg("what.grad", "the gradient of {name} in call {call}", name=name, call=call))
        if not ok:
            g.failed("grad_values", why, msg("advice.same_grad", "change where the values are kept, not what is "
                                             "computed: jax.checkpoint recomputes exactly the same layer"))
            return
    g.passed("grad_values", msg("grad.ok", "the loss and both gradients match in all {n} calls", n=CALLS))


def _check_budget(g, value_and_grad, case) -> None:
    memory = program_memory(g, value_and_grad, *case)
    if memory is None:
        g.failed("temp_budget", msg("budget.unknown", "XLA reported no memory plan for the gradient program"))
        return
    common = {"temp": memory.temp_mib, "budget": BUDGET_MIB, "activation": BATCH * WIDTH * 4 / 2**20 * LAYERS}
    if memory.temp_mib <= BUDGET_MIB:
        g.passed("temp_budget", msg("budget.ok", "XLA plans {temp:.2f} MiB of temporary memory for the gradient "
                                    "program, within the {budget} MiB budget", **common))
        return
    g.failed("temp_budget", _over_budget(g, common), checkpoint_advice(), tier=FIX_TIER)


def _over_budget(g, common):
    """What the forward program's checkpoints explain about a plan over budget."""
    head = msg("budget.head", "XLA plans {temp:.2f} MiB of temporary memory for jax.jit(jax.value_and_grad(loss)), "
               "over the {budget} MiB budget", **common)
    closed = g.graded_jaxpr()
    remats = [(eqn, holders) for eqn, holders in (eqns_within(closed) if closed is not None else ())
              if eqn.primitive.name in REMAT]
    if closed is not None and not any(eqn.primitive.name == "scan" for eqn, _ in eqns_within(closed)):
        return msg("budget.no_scan", "{head}: loss runs its layers as a Python loop, not a scan, so jit sees 16 "
                   "copies of the layer and XLA's scheduler, not a checkpoint's boundary, decides what is kept at "
                   "once", head=head)
    if not remats:
        return msg("budget.none", "{head}: nothing in loss is checkpointed, so the backward pass keeps what every "
                   "layer computed, its (256, 256) tanh output included, for all 16 layers at once", head=head)
    unrolled = [eqn.params.get("unroll") for eqn, _ in eqns_within(closed) if eqn.primitive.name == "scan"]
    if any(u not in (1, False, None) for u in unrolled):
        return msg("budget.unrolled", "{head}: the scan is unrolled (unroll={unroll}), so several layers run as "
                   "straight-line code in one step, and XLA schedules what they keep alive itself", head=head,
                   unroll=next(u for u in unrolled if u not in (1, False, None)))
    in_scan = [eqn for eqn, holders in remats if "scan" in holders]
    if not in_scan:
        return msg("budget.outside", "{head}: the checkpoint holds the whole scan, not one layer. Replayed in the "
                   "backward pass, that scan is differentiated like any other and saves every layer's values again: "
                   "a checkpoint only frees what lies between its own input and output", head=head)
    if any(eqn.params.get("policy") is not None for eqn in in_scan):
        return msg("budget.policy", "{head}: the layer is checkpointed, but with a policy that still saves values "
                   "(the matrix products' outputs, say): those include the (256, 256) hidden activations of every "
                   "layer", head=head)
    return msg("budget.partial", "{head}: a checkpoint sits inside the scan, but what it leaves saved per layer is "
               "still more than the layer's (256, 64) input: keeping only those costs {activation:.2g} MiB for 16 "
               "layers", head=head, activation=common["activation"])


def _check_recompute(g, loss, case) -> None:
    with g.recorder.mute(), g.watch.paused():
        closed = jax.make_jaxpr(jax.value_and_grad(loss))(*case)
    products = run_count(closed, {"dot_general"})
    limit = PRODUCTS_PER_LAYER * LAYERS
    if products is not None and products <= limit:
        g.passed("recompute", msg("recompute.ok", "one run of the gradient program performs {products} matrix "
                                  "products, {per:.3g} per layer (at most {most})", products=products,
                                  per=products / LAYERS, most=PRODUCTS_PER_LAYER))
        return
    if products is None:
        observation = msg("recompute.while", "a matrix product of the gradient program sits in a while loop, whose "
                          "number of steps is data: the grader cannot count how often it runs")
    else:
        observation = msg("recompute.more", "one run of the gradient program performs {products} matrix products, "
                          "{per:.3g} per layer, where a layer needs at most {most} (its 2 forward, 2 recomputed, 4 "
                          "backward): the forward pass is replayed more than once, as when one checkpoint holds "
                          "another (one around the loss, one on the layer) and the backward pass replays both",
                          products=products, per=products / LAYERS, most=PRODUCTS_PER_LAYER)
    g.failed("recompute", observation, msg("advice.once", "keep one checkpoint, on the layer function the scan "
                                           "runs, and none around the loss"), tier=FIX_TIER)

