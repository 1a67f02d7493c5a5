"""Checks for optimizer_rebuilt: E epochs, a learning rate each. Every epoch's parameters must match Adam in float64
and come out of the jitted step that got the batches, and no epoch after the first may compile: an object compared
by identity (an optax optimizer) made anew each epoch and passed as a static argument retraces every epoch."""

from __future__ import annotations

import numpy as np

from jittrainer.authoring import (PhaseLog, at_line, bare_name, count, keep_jit_outputs, msg, refuse_fetching,
                                  returned_by, shortened, static_churn, watch_live)

CHECKS = {
    "runs": "train returns",
    "values": "every epoch's parameters match Adam with that epoch's learning rate",
    "in_jit": "the whole step (gradient and Adam update) runs in jitted code",
    "epoch_compiles": "nothing compiles after the first epoch",
}

FEATURES, HIDDEN, ROWS, BATCHES = 4, 16, 32, 4
KEYS = ("w1", "b1", "w2", "b2")
RTOL, ATOL = 2e-3, 2e-4  # float32 Adam against float64: 24-48 steps stay within 2e-4 relative (600 seeds)
B1, B2, EPS = 0.9, 0.999, 1e-8  # optax.adam's defaults
TIER = 2  # the hint that names optax.inject_hyperparams and schedules

# ------------------------------------------------------------------------------------------------ inputs


def draw(rng):
    """Initial parameters, 4 batches of a smooth regression, and 5 to 8 learning rates, each below the last."""
    params = {"w1": rng.normal(0, 0.7, (FEATURES, HIDDEN)), "b1": rng.normal(0, 0.1, HIDDEN),
              "w2": rng.normal(0, 0.5, HIDDEN), "b2": rng.normal(0, 0.5, ())}
    params = {k: np.asarray(v, np.float32) for k, v in params.items()}
    w_true = rng.normal(size=FEATURES)
    batches = []
    for _ in range(BATCHES):
        x = rng.normal(size=(ROWS, FEATURES)).astype(np.float32)
        batches.append((x, (np.sin(x @ w_true) + 0.1 * rng.normal(size=ROWS)).astype(np.float32)))
    epochs = int(rng.integers(5, 9))
    lrs = rng.uniform(0.01, 0.05) * np.cumprod(np.concatenate([[1.0], rng.uniform(0.5, 0.8, epochs - 1)]))
    return params, batches, [float(lr) for lr in lrs]


def adam(params, batches, lrs, *, reset=False):
    """The parameters after each epoch, in float64 (``reset``: the moments start again every epoch, a slip)."""
    p = {k: v.astype(np.float64) for k, v in params.items()}
    m = v = None
    t = 0
    out = []
    for lr in lrs:
        if m is None or reset:
            m, v, t = {k: np.zeros_like(a) for k, a in p.items()}, {k: np.zeros_like(a) for k, a in p.items()}, 0
        for x, y in batches:
            x, y = x.astype(np.float64), y.astype(np.float64)
            h = np.tanh(x @ p["w1"] + p["b1"])
            d = 2 * (h @ p["w2"] + p["b2"] - y) / len(y)
            dz = np.outer(d, p["w2"]) * (1 - h ** 2)
            grads = {"w1": x.T @ dz, "b1": dz.sum(0), "w2": h.T @ d, "b2": d.sum()}
            t += 1
            for k, g in grads.items():
                m[k] = B1 * m[k] + (1 - B1) * g
                v[k] = B2 * v[k] + (1 - B2) * g ** 2
                p[k] = p[k] - lr * (m[k] / (1 - B1 ** t)) / (np.sqrt(v[k] / (1 - B2 ** t)) + EPS)
        out.append({k: a.copy() for k, a in p.items()})
    return out


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    train = g.graded(params=4)
    params, batches, lrs = draw(g.rng)
    wants = adam(params, batches, lrs)
    keep_jit_outputs(g.jit_spy)
    live = watch_live(g)
    report = PhaseLog(g)
    calls = g.calls(train, [({k: v.copy() for k, v in params.items()}, batches, list(lrs), report)])
    g.check_ran("runs", calls)
    programs = live.now().by_function()  # before any rerun: reruns clear JAX's caches
    if check_values(g, report.entries, calls.results[0], wants, params, batches, lrs):
        check_in_jit(g, report.entries, batches)
    check_compiles(g, calls, len(lrs), programs)


def _leaves(params) -> list[np.ndarray] | None:
    try:
        return [np.asarray(params[k], np.float64) for k in KEYS] if set(params) == set(KEYS) else None
    except Exception:  # not a dict of arrays
        return None


def _differs(got, want) -> str | None:
    """The first parameter of ``got`` that differs from ``want`` (or "?" when ``got`` is not the parameters)."""
    leaves = _leaves(got)
    if leaves is None:
        return "?"
    for k, a in zip(KEYS, leaves):
        if a.shape != want[k].shape or not np.allclose(a, want[k], rtol=RTOL, atol=ATOL):
            return k
    return None


def check_values(g, entries, result, wants, params, batches, lrs) -> bool:
    epochs = [e[0] for e in entries]
    if epochs != list(range(1, len(lrs) + 1)):
        return g.failed("values", msg("values.reports", "train called report with the epochs {got}; expected once "
                                      "per epoch, with 1 to {n} in order ({n} epochs, one per learning rate)",
                                      got=shortened(epochs, 9) or "—", n=len(lrs)),
                        msg("advice.report", "call report(epoch, params) at the end of each epoch of your loop"))
    slips = {"constant": adam(params, batches, [lrs[0]] * len(lrs)), "reset": adam(params, batches, lrs, reset=True),
             "late": adam(params, batches, lrs[:1] + lrs[:-1])}
    for (epoch, got), want in zip(entries, wants):
        if _differs(got, want) is None:
            continue
        what = _differs(got, want)
        if what == "?":
            return g.failed("values", msg("values.shape", "after epoch {epoch} report received {got}, not the "
                                          "parameters dict with w1, b1, w2 and b2", epoch=epoch,
                                          got=type(got).__name__))
        # The slip every report matches; else one that explains this epoch (two slips can agree on one epoch).
        slip = next((k for k, s in slips.items() if all(_differs(r, w) is None for (_, r), w in zip(entries, s))),
                    next((k for k, s in slips.items() if _differs(got, s[epoch - 1]) is None), None))
        common = {"epoch": epoch, "what": what, "lr": lrs[epoch - 1]}
        if slip == "constant":
            return g.failed("values", msg("values.constant_lr", "after epoch {epoch} the parameters are what Adam "
                                          "gives with the first epoch's learning rate kept throughout: epoch {epoch} "
                                          "should have used {lr:.4g}", **common), _advice_lr(), tier=TIER)
        if slip == "reset":
            return g.failed("values", msg("values.reset", "after epoch {epoch} the parameters are what Adam gives when "
                                          "its state starts again every epoch: the moments and the step count must "
                                          "carry over from epoch to epoch, only the learning rate changes", **common),
                            msg("advice.init_once", "call init once, before the first epoch, and keep its state"))
        if slip == "late":
            return g.failed("values", msg("values.late_lr", "after epoch {epoch} the parameters are what Adam gives "
                                          "with each learning rate one epoch late: epoch {epoch} must use {lr:.4g}",
                                          **common), _advice_lr(), tier=TIER)
        return g.failed("values", msg("values.differ", "after epoch {epoch}, {what} differs from Adam (b1 0.9, b2 "
                                      "0.999, eps 1e-8) run with that epoch's learning rate {lr:.4g}", **common))
    if _differs(result, wants[-1]) is not None:
        return g.failed("values", msg("values.returned", "train returned something other than the parameters it "
                                      "reported after the last epoch"))
    return g.passed("values", msg("values.ok", "all {n} epochs match Adam with their own learning rates",
                                  n=len(wants)))


def _advice_lr():
    return msg("advice.lr", "keep one optimizer and give it each epoch's learning rate as a value: "
               "optax.inject_hyperparams(optax.adam)(learning_rate=...) and opt_state.hyperparams['learning_rate'], "
               "or a schedule of the step count")


def check_in_jit(g, entries, batches) -> bool:
    xs = [x for x, _ in batches]
    names = sorted({c.function for c in g.jit_spy.calls if c.call is not None  # the learner's, not optax's own
                    and getattr(c.origin, "co_filename", g.filename).find("/optax/") < 0}) or ["—"]
    first = None
    for epoch, got in entries:
        during = [c for c in g.jit_spy.calls if c.call == epoch]
        made = returned_by(during, _leaves(got))
        if made is None:
            return g.failed("in_jit", msg("jit.not_returned", "the parameters reported after epoch {epoch} are not "
                                          "what a jitted call of that epoch returned (jitted functions that ran: "
                                          "{names}): the update was applied outside jit", epoch=epoch, names=names),
                            _advice_whole_step(), tier=TIER)
        if not any(made.holds(x) for x in xs):
            return g.failed("in_jit", msg("jit.no_batch", "after epoch {epoch} the parameters came out of your "
                                          "jitted function {function}, but it received none of the batches: the "
                                          "gradient was computed before it", epoch=epoch, function=made.function),
                            _advice_whole_step(), tier=TIER)
        first = made if first is None else first
    x = next(x for x in xs if first.holds(x))
    try:
        same = first.rerun_replacing(x, x)
        moved = first.rerun_replacing(x, (x * 1.5 + 0.25).astype(x.dtype))
        follows = any(not np.allclose(a, b, rtol=1e-6, atol=1e-7) for a, b in zip(same, moved))
    except Exception as exc:  # the learner's function, run again: anything may happen
        follows, error = False, f"{type(exc).__name__}: {exc}"[:200]
    else:
        error = ""
    if error:
        return g.failed("in_jit", msg("jit.rerun_failed", "the grader ran {function} again with other batch values "
                                      "and it failed ({error})", function=first.function, error=error),
                        _advice_whole_step(), tier=TIER)
    if not follows:
        return g.failed("in_jit", msg("jit.not_following", "{function} returned the same parameters when the grader "
                                      "ran it again with other batch values: the update it returns does not come "
                                      "from the batch it received", function=first.function),
                        _advice_whole_step(), tier=TIER)
    return refuse_fetching(g, "in_jit", passed=msg("jit.ok", "every epoch's parameters came out of {function}, "
                                                   "which received the batches and follows them",
                                                   function=first.function))


def _advice_whole_step():
    return msg("advice.whole_step", "jit one function that takes the parameters, the optimizer state and a batch, "
               "computes the gradient, runs optimizer.update and optax.apply_updates, and returns the new parameters "
               "and state")


# ------------------------------------------------------------------------------------------------ compiles


def check_compiles(g, calls, epochs: int, programs) -> None:
    later = {}  # epoch -> compiles; what compiles after the last report counts with the last epoch
    for e in range(2, epochs + 2):
        if calls.compiles_in_call(e):
            later[min(e, epochs)] = later.get(min(e, epochs), 0) + calls.compiles_in_call(e)
    if not later:
        return g.passed("epoch_compiles", msg("compiles.ok", "epoch 1 compiled {first}; the other {rest} epochs "
                                              "compiled nothing and reused it", first=count("time",
                                              calls.compiles_in_call(1)), rest=epochs - 1))
    misses = [m for m in calls.reasons() if m.call and m.call >= 2]
    first = misses[0] if misses else None
    head = msg("compiles.head", "{n} epochs after the first compiled again (epochs {which}; {total} in all)",
               n=len(later), which=shortened(sorted(later), 6),
               total=count("compile", sum(later.values())))
    function = bare_name(first.function) if first else "?"
    alive = programs.get(first.function, 0) if first else 0
    kinds = {m.kind for m in misses}
    churn = static_churn([c for c in g.jit_spy.calls if c.call is not None], function)
    if "static" in kinds and churn:
        c = churn[0]
        common = {"head": head, "function": function, "arg": c.argument, "type": c.type, "values": c.values,
                  "alive": alive}
        if c.by_identity:
            why = (msg("why.parts", "it compares its fields, and its fields are functions, equal only to themselves")
                   if c.own_eq else msg("why.no_eq", "its class defines no ==, so it equals only itself"))
            return g.failed("epoch_compiles", msg(
                "compiles.identity", "{head}: the static argument {arg} of {function} was {values} different {type} "
                "objects, and no two are equal ({why}). A new static value is a new cache key, so {function} was "
                "traced and compiled again, and its cache now holds {alive} programs", why=why, **common),
                _advice_lr(), tier=TIER)
        return g.failed("epoch_compiles", msg(
            "compiles.static_value", "{head}: the static argument {arg} of {function} took {values} different values "
            "({type}); each is baked into its own program, so each compiled again ({alive} programs kept)", **common),
            _advice_lr(), tier=TIER)
    if "new_function" in kinds:
        return g.failed("epoch_compiles", at_line(g.lines_calling(r"\bjit\b"), msg(
            "compiles.new_function_line", "{head}: {function} is a new jitted function in each epoch (line {line}), "
            "and a new function starts with an empty cache", head=head, function=function), msg(
            "compiles.new_function", "{head}: {function} is a new jitted function in each epoch, and a new function "
            "starts with an empty cache", head=head, function=function)), _advice_lr(), tier=TIER)
    if first is not None and first.kind == "jax_internal":
        return g.failed("epoch_compiles", msg("compiles.eager", "{head}: {function} is a JAX operation run eagerly, "
                                              "outside jit, on something new in a later epoch", head=head,
                                              function=function),
                        msg("advice.eager", "keep per-epoch work in NumPy, or inside the jitted step"))
    why = first.reason if first else msg("compiles.no_reason", "JAX gave no reason")
    return g.failed("epoch_compiles", msg("compiles.other", "{head}: {function} compiled again; JAX says: {why}",
                                          head=head, function=function, why=why), _advice_lr(), tier=TIER)
