"""Checks for jit_too_little: train_step(params, opt_state, x, y) is called as plain Python several times in a row,
each call given the parameters and optimizer state the previous one returned: one short training run of a small MLP
with optax.adam.

Every compiled program that runs during a call is counted (spy_programs): a jitted function is one program, and so is
every eager operation, which JAX runs as a small program of its own. From the second step on, a step must run exactly
one program and compile nothing. The values (each step's loss and the final parameters) must be one Adam step's.
"""

from __future__ import annotations

import jax
import numpy as np
import optax

from jittrainer.authoring import (EventLog, as_floats, as_number, bare_name, calls_words, count, msg, msgn,
                                  programs_text, spy_programs)

CHECKS = {
    "runs": "train_step returns for every call",
    "values": "returns each step's loss and the parameters Adam gives",
    "one_program": "every step after the first runs exactly one compiled program",
    "no_recompile": "nothing compiles after the first step",
}

LEARNING_RATE = 1e-2
RTOL, ATOL = 1e-4, 1e-5  # two float32 implementations of a few Adam steps: rounding, never a formula slip
JIT_TIER = 2  # the hint tier that names jax.jit on the whole step
_LOG = EventLog()  # the programs each graded call ran, in order


def setup(g):
    spy_programs(lambda name: _LOG.add("program", name))


# ------------------------------------------------------------------------------------------------ graded values


def make_run(rng: np.random.Generator):
    """Initial parameters of a tanh MLP with d inputs and h hidden units, and one batch per step (NumPy, float32)."""
    d, h, b, steps = int(rng.integers(3, 17)), int(rng.integers(8, 33)), int(rng.integers(16, 65)), int(
        rng.integers(4, 7))
    params = {"w1": rng.normal(0, 1 / np.sqrt(d), (d, h)), "b1": rng.normal(0, 0.1, h),
              "w2": rng.normal(0, 1 / np.sqrt(h), (h, 1)), "b2": rng.normal(0, 0.1, 1)}
    direction = rng.normal(0, 1, (d, 1))
    batches = []
    for _ in range(steps):
        x = rng.normal(0, 1, (b, d))
        batches.append((x, np.sin(x @ direction) + rng.normal(0, 0.1, (b, 1))))
    cast = lambda tree: jax.tree.map(lambda a: np.asarray(a, np.float32), tree)  # noqa: E731
    return cast(params), cast(batches)


def reference(real_jit, params, batches):
    """Each step's loss (before its update) and the parameters after every step, with the grader's own Adam."""
    import jax.numpy as jnp

    def loss_fn(p, x, y):
        pred = jnp.tanh(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]
        return jnp.mean((pred - y) ** 2)

    tx = optax.adam(LEARNING_RATE)

    @real_jit
    def step(p, s, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
        updates, s = tx.update(grads, s, p)
        return optax.apply_updates(p, updates), s, loss

    p, s, losses = params, tx.init(params), []
    for x, y in batches:
        p, s, loss = step(p, s, x, y)
        losses.append(float(loss))
    return losses, jax.tree.map(np.asarray, p)


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    train_step = g.graded(params=4)
    params, batches = make_run(g.rng)
    want_losses, want_params = reference(g.jit_spy.real, params, batches)
    state = [jax.device_put(params)]
    state.append(optax.adam(LEARNING_RATE).init(state[0]))
    data = [jax.device_put(batch) for batch in batches]
    jax.block_until_ready((state, data))

    def step(x, y):
        out = train_step(state[0], state[1], x, y)
        if isinstance(out, (tuple, list)) and len(out) == 3:
            state[:] = out[:2]  # the next step starts from what this one returned
        return out

    step.__name__ = "train_step"
    calls = g.calls(_LOG.watching(step), data)
    g.check_ran("runs", calls)
    if not _check_values(g, calls.results, want_losses, want_params):
        return
    _check_one_program(g, [events for events, _ in _LOG.runs])
    _check_no_recompile(g, calls)


def _check_values(g, results, want_losses, want_params) -> bool:
    advice = msg("advice.values", "keep the step as it was: value_and_grad of the loss, optimizer.update, then "
                 "optax.apply_updates; return (params, opt_state, loss)")
    for i, out in enumerate(results, 1):
        if not (isinstance(out, (tuple, list)) and len(out) == 3):
            return g.failed("values", msg("values.shape", "call {call}: train_step returned {type}; the contract "
                                          "returns a tuple (params, opt_state, loss)", call=i,
                                          type=type(out).__name__), advice, tier=1)
        got, want = as_number(out[2]), want_losses[i - 1]
        if got is not None and abs(got - want) <= RTOL * abs(want) + ATOL:
            continue
        after = want_losses[i] if i < len(want_losses) else None
        if got is not None and after is not None and abs(got - after) <= RTOL * abs(after) + ATOL:
            observation = msg("values.loss_after", "call {call}: train_step returned the loss {got:.6g}, the loss of "
                              "the parameters after this step's update; the contract returns the loss of the "
                              "parameters it was given ({want:.6g})", call=i, got=got, want=want)
        else:
            observation = msg("values.loss", "call {call}: train_step returned the loss {got}, where the parameters "
                              "it was given have a loss of {want:.6g}", call=i, want=want,
                              got=f"{got:.6g}" if got is not None else type(out[2]).__name__)
        return g.failed("values", observation, advice, tier=1)
    final = results[-1][0]
    for name, want in want_params.items():
        got = as_floats(final.get(name) if isinstance(final, dict) else None, want.shape, exact=True)
        if got is None or not np.allclose(got, want, rtol=RTOL, atol=ATOL):
            worst = "" if got is None else f"{float(np.max(np.abs(got - want))):.3g}"
            return g.failed("values", msg("values.params", "after {calls}, the parameter {name} is not what Adam "
                                          "(learning rate {lr}) gives from the same start and batches{worst}",
                                          calls=count("step", len(results)), name=name, lr=LEARNING_RATE,
                                          worst=msg("values.worst", ": off by up to {worst}", worst=worst)
                                          if worst else ""), advice, tier=1)
    return g.passed("values", msg("values.ok", "every step returned its loss, and the parameters after {calls} are "
                                  "Adam's", calls=count("step", len(results))))


def _check_one_program(g, runs) -> None:
    later = [[e[1] for e in events if e[0] == "program"] for events in runs[1:]]
    bad = [(i, names) for i, names in enumerate(later, 2) if len(names) != 1]
    if not bad:
        g.passed("one_program", msg("one.ok", "every step after the first ran one compiled program ({name})",
                                    name=later[0][0] if later else "-"))
        return
    call, names = bad[0]
    same = [i for i, other in bad if len(other) == len(names)]
    mine = [n for n in names if n in g.jit_spy.jitted_names]
    common = {"calls": calls_words(same), "n": len(names), "programs": programs_text(names)}
    if not names:
        observation = msg("one.none", "{calls}: no compiled program ran at all, so the step's work was not done by "
                          "JAX on the device", **common)
    elif len(mine) == len(names):
        observation = msg("one.split", "{calls}: each step ran {n} compiled programs, all jitted functions of yours "
                          "({programs}): the step is cut into separately compiled pieces, and each piece is "
                          "dispatched, and its results handed back, on its own", **common)
    else:
        eager = [bare_name(n) for n in names if n not in mine]
        observation = msgn("one.eager", "{calls}: each step ran {n} compiled programs ({programs}). {eager} of them is "
                           "a single operation ({ops}) run eagerly, outside any jitted function: only part of the step "
                           "is jitted, and every operation outside it is a program of its own, dispatched on its own",
                           "{calls}: each step ran {n} compiled programs ({programs}). {eager} of them are single "
                           "operations ({ops}) run eagerly, outside any jitted function: only part of the step is "
                           "jitted, and every operation outside it is a program of its own, dispatched on its own",
                           count="eager", eager=len(eager), ops=list(dict.fromkeys(eager))[:3], **common)
    g.failed("one_program", observation, msg("advice.one", "put jax.jit on train_step itself, with value_and_grad, "
                                             "optimizer.update and optax.apply_updates inside it"), tier=JIT_TIER)


def _check_no_recompile(g, calls) -> None:
    later = [m for m in calls.reasons() if m.call and m.call > 1]
    if not later:
        g.passed("no_recompile", msg("recompile.ok", "nothing compiled after the first step"))
        return
    steps = sorted({m.call for m in later})
    g.failed("no_recompile", msg("recompile.later", "{calls} compiled again ({compiles} in all). Call {first}: {why}",
                                 calls=calls_words(steps), compiles=count("compile", len(later)), first=later[0].call,
                                 why=later[0].reason),
             msg("advice.recompile", "jit train_step once, at module level, so that every step reuses the program "
                 "the first one compiled"), tier=JIT_TIER)
