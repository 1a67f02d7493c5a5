"""Checks for persistent_cache: two trials of a learning-rate sweep, each in its own worker process, sharing a cache
folder. Each trial's parameters must be right, out of one jitted step traced once; trial 1 must write the step's
program to the folder however fast it compiles, and trial 2 must load it from there (a baked-in rate is a new key)."""

from __future__ import annotations

import os

import jax
import numpy as np

from jittrainer.authoring import (bare_name, best_fit, first_difference, keep_jit_outputs, made_by, msg, numbers_in,
                                  program_name, program_text, refuse_fetching, spy_persistent_cache)

CHECKS = {
    "runs": "train returns, in each trial",
    "values": "the parameters match SGD with momentum at the trial's learning rate",
    "in_jit": "the step (gradient and update) runs in one jitted function",
    "traces": "the step is traced once per trial",
    "written": "trial 1 writes the step's program to the cache folder",
    "hit": "trial 2 loads the step's program from the cache folder",
}

FEATURES, HIDDEN, ROWS, MOMENTUM = 4, 16, 32, 0.9
KEYS = ("w1", "b1", "w2", "b2")
RTOL, ATOL = 1e-4, 5e-5  # float32 SGD against float64: under a tenth of this over 200 seeds
TIER = 2  # the hint that names jax_persistent_cache_min_compile_time_secs and inject_hyperparams
_EVENTS = []  # what the persistent cache did while train ran


def setup(g):
    spy_persistent_cache(lambda event: _EVENTS.append(event) if g.current_call is not None else None)


# ------------------------------------------------------------------------------------------------ inputs


def draw(rng):
    """Initial parameters, 6 to 10 batches of a smooth regression, and two learning rates at least 1.3x apart."""
    params = {"w1": rng.normal(0, 0.7, (FEATURES, HIDDEN)), "b1": rng.normal(0, 0.1, HIDDEN),
              "w2": rng.normal(0, 0.5, HIDDEN), "b2": rng.normal(0, 0.5, ())}
    params = {k: np.asarray(v, np.float32) for k, v in params.items()}
    w_true = rng.normal(size=FEATURES)
    batches = []
    for _ in range(int(rng.integers(6, 11))):
        x = rng.normal(size=(ROWS, FEATURES)).astype(np.float32)
        batches.append((x, (np.sin(x @ w_true) + 0.1 * rng.normal(size=ROWS)).astype(np.float32)))
    low = float(np.exp(rng.uniform(np.log(0.01), np.log(0.2 / 1.3))))
    high = float(np.exp(rng.uniform(np.log(low * 1.3), np.log(0.2))))
    return params, batches, [low, high] if rng.random() < 0.5 else [high, low]


def sgd(params, batches, lr, momentum=MOMENTUM):
    """The parameters after one SGD step with momentum per batch, in float64."""
    p = {k: v.astype(np.float64) for k, v in params.items()}
    v = {k: np.zeros_like(a) for k, a in p.items()}
    for x, y in batches:
        x, y = x.astype(np.float64), y.astype(np.float64)
        h = np.tanh(x @ p["w1"] + p["b1"])
        d = 2 * (h @ p["w2"] + p["b2"] - y) / len(y)
        dz = np.outer(d, p["w2"]) * (1 - h ** 2)
        grads = {"w1": x.T @ dz, "b1": dz.sum(0), "w2": h.T @ d, "b2": d.sum()}
        for k, grad in grads.items():
            v[k] = grad + momentum * v[k]
            p[k] = p[k] - lr * v[k]
    return p


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    train = g.graded(params=4)
    params, batches, lrs = draw(g.rng)
    lr, trial = lrs[g.process], g.process + 1
    keep_jit_outputs(g.jit_spy)
    calls = g.calls(train, [({k: v.copy() for k, v in params.items()}, batches, lr, g.shared_dir)])
    g.check_ran("runs", calls)
    if not check_values(g, calls.results[0], params, batches, lr, trial):
        return
    step = check_in_jit(g, calls.results[0], batches, trial)
    if not step:
        return
    with g.recorder.mute():  # the learner's step is traced again to read its program
        text = program_text(step)[0]
    name = program_name(text) or f"jit_{step.function}"
    mine = [e for e in _EVENTS if e.program == name]
    common = {"function": step.function, "program": name, "trial": trial}
    if not check_traces(g, calls, mine, common):
        return
    if g.process == 0:
        g.carry("step", {"text": text, "lr": lr, "program": name})
        check_written(g, mine, common)
    else:
        check_hit(g, mine, text, g.carried.get("step", {}), lr, common)


def _leaves(params) -> list[np.ndarray] | None:
    try:
        return [np.asarray(params[k], np.float64) for k in KEYS] if set(params) == set(KEYS) else None
    except Exception:  # not a dict of arrays
        return None


def _matches(got, want) -> bool:
    leaves = _leaves(got)
    return leaves is not None and all(a.shape == want[k].shape and np.allclose(a, want[k], rtol=RTOL, atol=ATOL)
                                      for k, a in zip(KEYS, leaves))


def check_values(g, result, params, batches, lr, trial) -> bool:
    if _matches(result, sgd(params, batches, lr)):
        return g.passed("values", msg("values.ok", "trial {trial}: the parameters after {n} steps match SGD with "
                                      "momentum 0.9 at learning rate {lr:.4g}", trial=trial, n=len(batches), lr=lr))
    common = {"trial": trial, "lr": lr}
    if _leaves(result) is None:
        return g.failed("values", msg("values.shape", "trial {trial}: train returned {got}, not the parameters dict "
                                      "with w1, b1, w2 and b2", got=type(result).__name__, **common))
    if _matches(result, sgd(params, batches, lr, momentum=0.0)):
        return g.failed("values", msg("values.no_momentum", "trial {trial}: the parameters are what plain SGD gives, "
                                      "without momentum: the update must use momentum 0.9", **common))
    leaves = _leaves(result)
    other = best_fit(lambda r: sum(float(np.sum((a - sgd(params, batches, r)[k]) ** 2)) for k, a in zip(KEYS, leaves)),
                     1e-4, 10.0) if all(a.shape == params[k].shape for k, a in zip(KEYS, leaves)) else 0.0
    if other and _matches(result, sgd(params, batches, other)):
        return g.failed("values", msg("values.other_lr", "trial {trial}: the parameters are what SGD with momentum "
                                      "gives at learning rate {other:.4g}, not at this trial's {lr:.4g}: each trial "
                                      "must train with the learning rate train receives", other=other, **common))
    return g.failed("values", msg("values.differ", "trial {trial}: the parameters differ from SGD with momentum 0.9 "
                                  "at learning rate {lr:.4g}, one step per batch in order", **common))


def check_in_jit(g, result, batches, trial):
    mine = [c for c in g.jit_spy.calls if c.call is not None]
    found = made_by(mine, _leaves(result), [x for x, _ in batches])
    advice = msg("advice.jit", "jit one function that takes the parameters, the optimizer state and a batch, and "
                 "returns the updated parameters and state")
    if found.problem in ("not_returned", "no_input"):
        return g.failed("in_jit", msg("jit.not_returned", "trial {trial}: the parameters train returned are not what "
                                      "a jitted call that received a batch returned (jitted functions that ran: "
                                      "{names}): the update was applied outside jit", trial=trial,
                                      names=", ".join(sorted({c.function for c in mine})) or "—"), advice)
    if found.problem:
        return g.failed("in_jit", msg("jit.not_following", "trial {trial}: {function} returned the same when the "
                                      "grader ran it again with another batch: what it returns does not come from the "
                                      "batch it received", trial=trial, function=found.call.function), advice)
    ok = refuse_fetching(g, "in_jit", advice=advice, passed=msg("jit.ok", "trial {trial}: the parameters come out of "
                                                               "{function}, which received the batches", trial=trial,
                                                               function=found.call.function))
    return found.call if ok else None


def check_traces(g, calls, events, common) -> bool:
    traces = sum(1 for e in calls.window.events if e.kind == "trace" and e.function == common["function"])
    if traces <= 1:
        return g.passed("traces", msg("traces.ok", "trial {trial}: {function} was traced once", **common))
    cleared = any(m.kind == "cleared" for m in calls.reasons() if bare_name(m.function) == common["function"])
    why = (msg("traces.cleared", "its cache was emptied, so it was traced again") if cleared else
           msg("traces.new", "it was jitted anew, and a new jitted function is traced anew"))
    return g.failed("traces", msg("traces.many", "trial {trial}: {function} was traced {n} times during train ({why}), "
                                  "and the persistent cache answered {hits} of its compiles from disk: a hit skips "
                                  "the compile, never the tracing", n=traces, why=why,
                                  hits=sum(1 for e in events if e.kind == "hit"), **common),
                    msg("advice.once", "jit the step once, outside the loop, and keep its cache for the whole trial"))


def cache_off(g, check, events, common) -> bool:
    """Fail ``check`` with the first thing that kept the step away from the sweep's folder; False when nothing did."""
    problem = _cache_state(events, g.shared_dir, common)
    return problem is not None and not g.failed(check, problem, msg(
        "advice.dir", "call jax.config.update('jax_compilation_cache_dir', cache_dir) at the start of train, in every "
        "trial, before anything compiles"))


def _cache_state(events, folder, common):
    if not events:
        return msg("cache.none", "trial {trial}: JAX logged nothing about the persistent cache for {program}: the "
                   "step was compiled before train ran, or not at all", **common)
    first = events[0]
    if first.cache_dir is None or first.folder is None:
        why = (msg("off.late", "it was set only afterwards, and JAX looks a program up on disk, and writes it, only "
                   "when it compiles it") if jax.config.jax_compilation_cache_dir else
               msg("off.environ", "it was not set: the JAX_COMPILATION_CACHE_DIR environment variable is read once, "
                   "when jax is imported, before train set it") if os.environ.get("JAX_COMPILATION_CACHE_DIR") else
               msg("off.unset", "it was not set, so nothing was looked up on disk or written"))
        return msg("cache.off", "trial {trial}: the persistent cache was off when {program} compiled: "
                   "jax_compilation_cache_dir was not in force ({why})", why=why, **common)
    if os.path.realpath(first.folder) != os.path.realpath(folder):
        return msg("cache.elsewhere", "trial {trial}: the persistent cache opened at {opened}, not at the sweep's "
                   "folder cache_dir: JAX opens it once per process, at the first compile after a folder is set, and "
                   "keeps it", opened=first.folder, **common)
    return None


def _advice_threshold():
    return msg("advice.threshold", "set jax_persistent_cache_min_compile_time_secs to 0 with jax.config.update, "
               "where you set the cache folder")


def check_written(g, events, common) -> bool:
    if cache_off(g, "written", events, common):
        return False
    refused = next((e for e in events if e.kind == "not_written"), None)
    written = next((e for e in events if e.kind == "written"), None)
    if refused is not None and "took" not in refused.why:  # another reason: host callbacks, the entry's size
        return g.failed("written", msg("written.refused", "trial 1: JAX did not write {program} to the cache; its "
                                       "log says: not writing {why}", why=refused.why, **common))
    if refused is None and written is None:
        return g.failed("written", msg("written.none", "trial 1: JAX never wrote {program} to the cache", **common))
    limit = (refused or written).min_compile_time
    if refused is not None or limit > 0:
        took = next((e.seconds for e in events if e.kind in ("timed", "not_written") and e.seconds is not None), None)
        outcome = (msg("outcome.not_written", "so JAX did not write it") if refused else
                   msg("outcome.written", "so JAX wrote it, this time"))
        return g.failed("written", msg("written.threshold", "trial 1: jax_persistent_cache_min_compile_time_secs "
                                       "was {limit:g} s when {program} compiled, and the compile took {seconds} s, "
                                       "{outcome}. JAX writes only programs that took at least that long to compile: "
                                       "whether a small step is written then depends on how fast the machine is",
                                       limit=limit, seconds=f"{took:.2f}" if took is not None else "?",
                                       outcome=outcome, **common), _advice_threshold(), tier=TIER)
    return g.passed("written", msg("written.ok", "trial 1: {program} was compiled and written to the cache", **common))


def check_hit(g, events, text, before, lr, common) -> bool:
    if cache_off(g, "hit", events, common):
        return False
    missed = next((e for e in events if e.kind == "miss"), None)
    if missed is None and any(e.kind == "hit" for e in events):
        return g.passed("hit", msg("hit.ok", "trial 2: {function} was traced again, and JAX loaded {program} from the "
                                   "cache folder instead of compiling it: a hit, no miss", **common))
    where = first_difference(before.get("text", ""), text)
    advice = msg("advice.key", "keep every per-trial value out of the program as a constant: pass the learning rate "
                 "as an argument, or keep it in the optimizer state (optax.inject_hyperparams)")
    if where is None:
        return g.failed("hit", msg("hit.same_text", "trial 2: JAX found no entry for {program} in the cache folder, "
                                   "although the program is the same as trial 1's: another part of its key changed "
                                   "(compile options, XLA flags, the devices)", **common), advice, tier=TIER)
    line, old, new = where
    rates = any(np.isclose(abs(v), lr, rtol=1e-5) for v in numbers_in(new))
    head = msg("hit.differs", "trial 2: JAX found no entry for {program} in the cache folder (a miss): its program "
               "differs from trial 1's, so its key does. Line {line} was `{old}` in trial 1 and is `{new}` in trial 2",
               line=line, old=old[:160], new=new[:160], **common)
    if rates:
        return g.failed("hit", msg("hit.lr_baked", "{head}: the learning rates, {lr1:.4g} and {lr2:.4g}, are written "
                                   "into the program as constants, so every trial compiles a program of its own",
                                   head=head, lr1=before.get("lr", 0.0), lr2=lr), advice, tier=TIER)
    return g.failed("hit", head, advice, tier=TIER)
