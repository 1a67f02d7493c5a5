"""Checks for host_sync_metrics: train(params, batches, log_every, log) runs a softmax-regression training loop and
is called as plain Python twice, each time with a data loader of NumPy batches and a log callback of the grader's.

Host-to-device: the first run is made under jax.transfer_guard_host_to_device("disallow"), which raises at the first
implicit transfer; when it does, both runs are made again without it, so the other checks are still graded. Device
to host: the CPU backend's guard never fires, so every host sync (a read of a jax.Array's value, block_until_ready)
made by the learner's code is counted by spies, between consecutive calls of log. The loader notes when each batch
is taken, which dates each log call against the training; compiles after the second log call are counted too (a
step number made static compiles on every step).
"""

from __future__ import annotations

from collections import Counter

import jax
import numpy as np

from jittrainer.authoring import (BatchLoader, EventLog, as_floats, as_number, implicit_transfer, msg,
                                  no_implicit_transfers, shortened, spy_compiles, spy_host_syncs)

CHECKS = {
    "runs": "train returns for every call",
    "no_implicit_transfers": "nothing is copied to the device implicitly",
    "host_syncs": "at most 2 host syncs between two calls of log",
    "logs": "log gets each window's mean loss and accuracy, on time",
    "params": "returns the parameters of the scheduled SGD run, computed in jitted code",
    "compiles": "at most one compile after the second call of log",
}

BASE_LR = 0.5
LATE_COMPILES = 1  # after the second log: the last, partial window may meet a new shape once
SYNCS = 2  # host syncs allowed per stretch between two log calls: the two numbers it logs
RTOL, ATOL = 1e-4, 1e-5
TIER = 2  # the hint tier that names device_put, device-side sums and device_get
_LOG = EventLog()


def setup(g):
    spy_host_syncs(g.filename, lambda how, line: _LOG.add("sync", how, line), when=lambda: _LOG.active)
    spy_compiles(lambda name: _LOG.add("compile", name))


def make_run(rng, every, d, c, b):
    """One run's parameters and batches (NumPy), and its log_every: 3 full windows plus a partial one."""
    steps = 3 * every + int(rng.integers(0, every))
    centres = rng.normal(0, 1.5, (c, d))
    batches = []
    for _ in range(steps):
        y = rng.integers(0, c, b).astype(np.int32)
        batches.append(((centres[y] + rng.normal(0, 1, (b, d))).astype(np.float32), y))
    params = {"w": rng.normal(0, 0.1, (d, c)).astype(np.float32), "b": np.zeros(c, np.float32)}
    return params, batches, every


def reference(real_jit, params, batches):
    """Every step's loss and accuracy (before its update), and the final parameters."""
    import jax.numpy as jnp

    @real_jit
    def step(p, x, y, lr):
        def loss_acc(p):
            logits = x @ p["w"] + p["b"]
            loss = -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))
            return loss, jnp.mean(jnp.argmax(logits, axis=1) == y)
        (loss, acc), grads = jax.value_and_grad(loss_acc, has_aux=True)(p)
        return jax.tree.map(lambda a, g: a - lr * g, p, grads), loss, acc

    metrics, total = [], len(batches)
    for t, (x, y) in enumerate(batches):
        params, loss, acc = step(params, x, y, np.float32(BASE_LR * 0.5 * (1 + np.cos(np.pi * t / total))))
        metrics.append((float(loss), float(acc)))
    return np.array(metrics), jax.tree.map(np.asarray, params)


def make_runs(rng):
    """The two runs of a grade: one log_every of 2 or 3, one of 4 or 5, in a random order; the same sizes."""
    d, c, b = int(rng.integers(4, 17)), int(rng.integers(3, 7)), int(rng.integers(16, 65))
    everies = [int(rng.integers(2, 4)), int(rng.integers(4, 6))]
    return [make_run(rng, every, d, c, b) for every in rng.permutation(everies)]


def grade(g):
    train = g.graded(params=4)
    runs = make_runs(g.rng)
    wants = [reference(g.jit_spy.real, params, batches) for params, batches, _ in runs]
    logged = []

    def log(step, loss, accuracy):
        _LOG.add("log", as_number(step), as_number(loss), as_number(accuracy))
        logged.append(step)

    def arguments():
        args = [(jax.device_put(p), BatchLoader(bs, lambda number: _LOG.add("batch", number)), every, log)
                for p, bs, every in runs]
        jax.block_until_ready(args)
        return args

    start = len(g.jit_spy.calls)
    calls = g.calls(_LOG.watching(no_implicit_transfers(train)), arguments())
    moved = implicit_transfer(calls.failed.error) if calls.failed else None
    if moved is not None:
        _LOG.runs.clear()
        start = len(g.jit_spy.calls)
        calls = g.calls(_LOG.watching(train), arguments())
    g.check_ran("runs", calls)
    if moved is None:
        g.passed("no_implicit_transfers", msg("transfer.ok", "nothing was copied to the device implicitly"))
    else:
        error = g.graded_calls[0].failed.error
        what = msg("transfer.number", "a Python number ({aval})", aval=moved.aval) if moved.python_number else msg(
            "transfer.array", "a NumPy value ({aval})", aval=moved.aval)
        g.failed("no_implicit_transfers", msg(
            "transfer.stopped", "line {line}: under jax.transfer_guard_host_to_device(\"disallow\"), JAX stopped an "
            "implicit copy of {what} to the device. A NumPy array or a Python number that meets a jitted function or "
            "an eager jax.numpy operation is copied to the device then and there, with nothing in the code to show "
            "it", line=error.line or "?", what=what), msg(
            "advice.transfer", "move batches with jax.device_put(batch), and compute the learning rate inside the "
            "jitted step from a step counter kept on the device"), tier=TIER)
    events = [run_events for run_events, _ in _LOG.runs]
    _check_syncs(g, runs, events)
    if _check_logs(g, runs, events, wants):
        _check_params(g, calls.results, wants, runs, g.jit_spy.calls[start:])
    _check_compiles(g, runs, events)


def _windows(events):
    """The events of one run cut at each log call: before the first, between two, after the last."""
    cut = [[]]
    for event in events:
        cut.append([]) if event[0] == "log" else cut[-1].append(event)
    return cut


def _check_syncs(g, runs, events) -> None:
    for run, (_, _, every) in enumerate(runs, 1):
        for k, window in enumerate(_windows(events[run - 1])):
            syncs = [e for e in window if e[0] == "sync"]
            if len(syncs) <= SYNCS:
                continue
            where = Counter((how, line) for _, how, line in syncs).most_common()
            g.failed("host_syncs", msg(
                "syncs.many", "run {run} (log_every = {every}), {stretch}: train made {n} host syncs over {steps} "
                "steps ({where}). Each one makes Python wait until the device has finished everything queued so far, "
                "so the host stops feeding the device and the two take turns: a bubble on every step",
                run=run, every=every, n=len(syncs), steps=sum(e[0] == "batch" for e in window),
                stretch=msg("syncs.first", "before the first call of log") if k == 0 else msg(
                    "syncs.between", "between log call {k} and the next", k=k),
                where=[msg("syncs.where", "{how} on line {line} ×{n}", how=how, line=line or "?", n=n)
                       for (how, line), n in where[:3]]), msg(
                "advice.syncs", "sum the loss and the accuracy inside the jitted step, and read the sums once per "
                "log, with jax.device_get"), tier=TIER)
            return
    g.passed("host_syncs", msg("syncs.ok", "at most {n} host syncs between two calls of log", n=SYNCS))


def _check_logs(g, runs, events, wants) -> bool:
    advice = msg("advice.logs", "after every log_every steps, log the step number and the means of that window's "
                 "losses and accuracies, then start the next window's sums from 0")
    for run, ((_, batches, every), run_events, (metrics, _)) in enumerate(zip(runs, events, wants), 1):
        logs = [(i, e) for i, e in enumerate(run_events) if e[0] == "log"]
        taken = {e[1]: i for i, e in enumerate(run_events) if e[0] == "batch"}
        full = len(batches) // every
        common = {"run": run, "every": every, "steps": len(batches), "n": len(logs), "want": full}
        if [e[1] for _, e in logs] != [every * k for k in range(1, full + 1)]:
            steps = [str(e[1]) if e[1] is None else f"{e[1]:g}" for _, e in logs]
            zero = [e[1] for _, e in logs] == [every * k - 1 for k in range(1, full + 1)]
            return g.failed("logs", msg("logs.steps", "run {run} (log_every = {every}, {steps} steps): log was called "
                                        "{n} times, with steps {got}; expected {want} calls, with steps {every}, "
                                        "{twice}, …{slip}", got=shortened(steps, 6) or "-", twice=2 * every,
                                        slip=msg("logs.zero", ": the index of the window's last step, counted from 0, "
                                                 "not the number of steps done") if zero else "", **common),
                            advice, tier=1)
        for k, (position, (_, step, loss, acc)) in enumerate(logs, 1):
            step = int(step)
            late = taken.get(step + every + 1)
            if position < taken.get(step, len(run_events)) or (late is not None and position > late):
                return g.failed("logs", msg(
                    "logs.late", "run {run} (log_every = {every}): log call {k} (step {step}) came after batch "
                    "{taken} of {steps} had been taken: a log that waits for the end of training shows nothing "
                    "while it runs", k=k, step=step, taken=max(i for i in taken if taken[i] < position), **common),
                    advice, tier=1)
            want = metrics[step - every:step].mean(axis=0)
            if not all(v is not None and _near(v, w) for v, w in zip((loss, acc), want)):
                slips = ((metrics[step - 1], msg("logs.last", ": the last step's values, not the window's mean")),
                         (want * every, msg("logs.sum", ": the window's sums, not its means")))
                slip = next((text for values, text in slips if loss is not None and _near(loss, values[0])
                             and not _near(want[0], values[0])), "")
                return g.failed("logs", msg(
                    "logs.values", "run {run} (log_every = {every}), log call {k} (step {step}): loss {loss}, "
                    "accuracy {acc}; the means over steps {first} to {step} are {want_loss:.6g} and {want_acc:.6g}"
                    "{slip}", k=k, step=step, first=step - every + 1, loss=_num(loss), acc=_num(acc),
                    want_loss=want[0], want_acc=want[1], slip=slip, **common), advice, tier=1)
    return g.passed("logs", msg("logs.ok", "log got every window's mean loss and accuracy, before the next window "
                                "ended"))


def _near(got, want) -> bool:
    return abs(got - want) <= RTOL * abs(want) + ATOL


def _num(value) -> str:
    return "-" if value is None else f"{value:.6g}"


def _check_params(g, results, wants, runs, jitted) -> None:
    for run, (result, (_, want), (_, batches, _)) in enumerate(zip(results, wants, runs), 1):
        seen = [a for c in jitted if c.call == run for a in c.arrays]
        missing = next((i for i, (x, _) in enumerate(batches, 1) if not any(
            a.shape[a.ndim - x.ndim:] == x.shape and any(np.array_equal(r, x) for r in a.reshape(-1, *x.shape))
            for a in seen if a.ndim >= x.ndim)), None)
        if missing is not None:
            g.failed("params", msg("params.no_jit", "run {run}: batch {i} reached no jitted function, so that step "
                                   "was not computed by a compiled program", run=run, i=missing), msg(
                "advice.in_jit", "compute each step in a jitted function that takes the step's batch"), tier=1)
            return
        for name, value in want.items():
            got = as_floats(result.get(name) if isinstance(result, dict) else None, value.shape, exact=True)
            if got is None or not np.allclose(got, value, rtol=RTOL, atol=ATOL):
                g.failed("params", msg(
                    "params.wrong", "run {run}: the returned {name} is not the result of SGD with the cosine "
                    "schedule from the same start and batches{worst}", run=run, name=name,
                    worst="" if got is None else msg("params.worst", " (off by up to {worst:.3g})",
                                                     worst=float(np.max(np.abs(got - value))))), msg(
                    "advice.params", "step t (from 0) uses lr = BASE_LR * 0.5 * (1 + cos(pi * t / len(batches))); "
                    "return the parameters after the last step"), tier=1)
                return
    g.passed("params", msg("params.ok", "both runs returned the parameters of the scheduled SGD run"))


def _check_compiles(g, runs, events) -> None:
    for run, run_events in enumerate(events, 1):
        after = _windows(run_events)[2:]
        names = [e[1] for window in after for e in window if e[0] == "compile"]
        if len(names) > LATE_COMPILES:
            g.failed("compiles", msg(
                "compiles.late", "run {run} (log_every = {every}): after the second call of log, {n} more compiles "
                "({names}): something that changes every step is part of a compile key, a static argument or a "
                "shape", run=run, every=runs[run - 1][2], n=len(names), names=shortened(list(dict.fromkeys(names)),
                                                                                    3)), msg(
                "advice.compiles", "pass what changes every step (the step number, the learning rate) as a "
                "jax.Array argument, not as a static one"), tier=TIER)
            return
    g.passed("compiles", msg("compiles.ok", "at most one compile after the second call of log"))
