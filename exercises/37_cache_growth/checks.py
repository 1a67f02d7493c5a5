"""Checks for cache_growth: 30 evaluation tasks in a row, each with a sequence length no other task has. The scores
must be right and computed by jitted code, no task may compile more than once, and at no point may more than 8
compiled programs be alive: a program per length kept forever grows without bound; buckets or a cache emptied
between tasks stay small."""

from __future__ import annotations

import re

import numpy as np

from jittrainer.authoring import (as_number, bare_name, count, msg, places_of, refuse_beside_jit, refuse_fetching,
                                  rerun, shift_rerun, shortened, values_match, watch_live)

CHECKS = {
    "runs": "evaluate returns for every task",
    "values": "returns each task's mean loss",
    "in_jit": "the losses are computed by jitted code",
    "compiles": "no task compiles more than once",
    "live_programs": "at most 8 compiled programs alive at any time",
}

TASKS, BATCHES, ROWS, HIDDEN, MAX_LEN = 30, 2, 8, 16, 128
LIVE = 8  # programs alive at once: power-of-two buckets (1..128) fit, one program per length cannot
TIER = 2  # the hint that names clear_cache, jax.clear_caches and buckets
_WIDTH = re.compile(r"\[\d+,(\d+)\]")
_WATCH = []  # the LiveWatch made in setup, before the learner's file is imported


def setup(g):
    _WATCH.append(watch_live(g))  # from import on: a program compiled ahead of time at import is counted too


# ------------------------------------------------------------------------------------------------ inputs


def draw(rng):
    """Parameters and 30 tasks, each with a length no other has (1 and 128 among them), values near 1."""
    params = {"w_in": rng.normal(0, 1.0, HIDDEN), "b_in": rng.normal(0, 0.3, HIDDEN),
              "w_out": rng.normal(0, 1.0, HIDDEN), "b_out": rng.normal(0, 0.3, ())}
    params = {k: np.asarray(v, np.float32) for k, v in params.items()}
    lengths = np.concatenate([[1, MAX_LEN], rng.choice(np.arange(2, MAX_LEN), TASKS - 2, replace=False)])
    rng.shuffle(lengths)
    tasks = [[(rng.normal(0.5, 1.0, (ROWS, int(n))).astype(np.float32), rng.normal(0, 1, ROWS).astype(np.float32))
              for _ in range(BATCHES)] for n in lengths]
    return params, tasks


def batch_loss(params, x, y) -> float:
    p = {k: v.astype(np.float64) for k, v in params.items()}
    h = np.tanh(x.astype(np.float64)[:, :, None] * p["w_in"] + p["b_in"])
    return float(np.mean((h.mean(axis=1) @ p["w_out"] + p["b_out"] - y) ** 2))


def score(params, task) -> float:
    return float(np.mean([batch_loss(params, x, y) for x, y in task]))


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    evaluate = g.graded(params=2)
    params, tasks = draw(g.rng)
    wants = [score(params, task) for task in tasks]
    copies = [[(x.copy(), y.copy()) for x, y in task] for task in tasks]  # the learner may pad in place
    calls = g.calls(evaluate, [(params, task) for task in tasks])
    g.check_ran("runs", calls)
    live = _WATCH[0]
    right = values_match(g, "values", calls.results, wants, rtol=1e-4, atol=1e-6,
                 what=lambda t: msg("what.task", "the score of task {t} (length {n})", t=t, n=_length(copies[t - 1])),
                 slip=lambda t, result: _padding_slip(g, t, result, params, copies[t - 1]),
                 advice=msg("advice.mask", "padded positions must not count: mask them and divide by the true "
                            "length"), tier=TIER, ok=msg("values.ok", "all {n} task scores match", n=TASKS))
    if right:
        check_in_jit(g, evaluate, params, copies)
    check_compiles(g, calls, copies, live)
    check_live(g, live, copies)


def _padding_slip(g, t, result, params, task):
    """The padding counted as data: the score at a width one of the task's jitted calls received."""
    got, n = as_number(result), _length(task)
    widths = {a.shape[-1] for c in g.jit_spy.calls if c.call == t for a in c.arrays if a.ndim == 2 and a.shape[-1] > n}
    for w in sorted(widths):
        padded = [(np.pad(x, ((0, 0), (0, w - n))), y) for x, y in task]
        if got is not None and np.isclose(got, score(params, padded), rtol=1e-4):
            return msg("values.padding", "the score of task {t} (length {n}) is {got:.6g}, what the model gives "
                       "when the {pad} zeros that pad each sequence to width {w} count as data: the average ran over "
                       "the padded width", t=t, n=n, got=got, pad=w - n, w=w)
    return None


def _length(task) -> int:
    return int(task[0][0].shape[1])


# ------------------------------------------------------------------------------------------------ in jit


def check_in_jit(g, evaluate, params, tasks) -> bool:
    spy = g.jit_spy
    if not any(c.call is not None for c in spy.calls):
        return g.failed("in_jit", msg("jit.never", "evaluate called no jitted function in any of the {n} tasks: the "
                                      "losses were computed outside jit", n=TASKS), _advice_jit(), tier=TIER)
    lengths = [_length(task) for task in tasks]
    probes = sorted({1, lengths.index(1) + 1, lengths.index(MAX_LEN) + 1, int(g.rng.integers(1, TASKS + 1))})
    working = []
    for t in probes:
        (x, y), rest = tasks[t - 1][0], tasks[t - 1][1:]
        rows = list(x)
        during = [c for c in spy.calls if c.call == t and c.arrays]
        holding = [(c, slots) for c in during if len(slots := places_of(c.arrays, rows)) == ROWS]
        common = {"t": t, "n": lengths[t - 1]}
        if not holding:
            seen = sum(1 for i in range(ROWS) if any(places_of(c.arrays, [rows[i]]) for c in during))
            return g.failed("in_jit", msg("jit.missing", "no jitted call of task {t} (length {n}) received all 8 "
                                          "sequences of its first batch ({seen} of them reached jitted code): a "
                                          "batch, padded or not, goes into jit whole", seen=seen, **common),
                            _advice_jit(), tier=TIER)
        call, slots = holding[0]
        shift = (np.arange(ROWS) + 1) * 0.25 + g.rng.uniform(0.01, 0.1, ROWS)
        delta, error = shift_rerun(g, call, slots, shift)
        if delta is None:
            return g.failed("in_jit", msg("jit.rerun_failed", "in task {t} your jitted function {function} received "
                                          "the first batch, but running it again with other values failed ({error})",
                                          function=call.function, error=error or "—", **common), _advice_jit(),
                            tier=TIER)
        loss = batch_loss(params, (x.astype(np.float64) + shift[:, None]).astype(np.float32), y)
        new_score = np.mean([loss] + [batch_loss(params, a, b) for a, b in rest])
        after = rerun(g, call).flat + delta  # each output as it is when the batch is shifted
        if after.shape != delta.shape or not np.isclose(after, [[loss], [new_score]], rtol=1e-4, atol=1e-6).any():
            return g.failed("in_jit", msg("jit.not_loss", "in task {t} (length {n}) your jitted function {function} "
                                          "received the first batch; run again with each of its sequences shifted "
                                          "(each by its own amount), none of its outputs was that batch's new loss, "
                                          "{loss:.6g}, nor the task's new score: the loss is finished outside jit",
                                          function=call.function, loss=loss, **common), _advice_jit(), tier=TIER)
        working.append(call)
    if refuse_beside_jit(g, "in_jit", working, lambda: evaluate(params, [(x.copy(), y.copy()) for x, y in tasks[0]]),
                         what=msg("what.task1", "task 1"), graded="evaluate", advice=_advice_jit(), tier=TIER):
        return False
    return refuse_fetching(g, "in_jit", passed=msg("jit.ok", "the losses come out of jitted code and follow the data: "
                                                   "run again with the sequences shifted, they moved as they should"))


def _advice_jit():
    return msg("advice.jit", "keep the whole loss in one jitted function that takes the batch (padded or not) and "
               "returns its loss")


# ------------------------------------------------------------------------------------------------ compiles


def check_compiles(g, calls, tasks, live) -> bool:
    per_task = {t: calls.compiles_in_call(t) for t in range(1, TASKS + 1)}
    busy = [t for t, n in per_task.items() if n > 1]
    if not busy:
        return g.passed("compiles", msg("compiles.ok", "{compiles} over {n} tasks, at most one per task",
                                        compiles=count("compile", calls.compiles), n=TASKS))
    t = busy[0]
    misses = [m for m in calls.reasons() if m.call == t]
    names = [bare_name(m.function) for m in misses]
    common = {"t": t, "n": _length(tasks[t - 1]), "times": count("time", per_task[t]), "tasks": len(busy),
              "names": shortened(list(dict.fromkeys(names)), 4)}
    eager = list(dict.fromkeys(bare_name(m.function) for m in misses if m.kind == "jax_internal"))
    if eager:
        return g.failed("compiles", msg("compiles.eager", "task {t} (length {n}) compiled {times} ({tasks} tasks "
                                        "compiled more than once): {eager} are JAX operations run eagerly, outside "
                                        "jit, and each compiles a program of its own for every new shape (and again "
                                        "after jax.clear_caches())", eager=shortened(eager, 4), **common),
                        msg("advice.numpy", "pad with NumPy on the host (np.zeros and slice assignment, or np.pad), "
                            "and average the losses with Python or NumPy"), tier=TIER)
    repeated = max(names.count(name) for name in names)
    if repeated > 1:
        return g.failed("compiles", msg("compiles.again", "task {t} (length {n}) compiled {times} ({tasks} tasks "
                                        "compiled more than once): {names} compiled again for the same shapes within "
                                        "the task, so its program was thrown away between two batches that needed "
                                        "it (a cache emptied, or a new jitted function, per batch)", **common),
                        msg("advice.boundary", "empty the cache only where a task begins or ends, not per batch"),
                        tier=TIER)
    return g.failed("compiles", msg("compiles.many", "task {t} (length {n}) compiled {times} ({names}; {tasks} tasks "
                                    "compiled more than once)", **common), tier=TIER)


# ------------------------------------------------------------------------------------------------ live programs


def check_live(g, live, tasks) -> bool:
    if not live.tracking:
        return g.passed("live_programs", msg("live.untracked", "this JAX hides its compiled programs: not counted"))
    peak = live.peak
    if peak is None or peak.live <= LIVE:
        return g.passed("live_programs", msg("live.ok", "at most {peak} compiled programs were alive at once "
                                             "(at most {limit})", peak=peak.live if peak else 0, limit=LIVE))
    holders = peak.by_function().most_common()
    name, held = holders[0]
    t = peak.call or TASKS
    common = {"live": peak.live, "limit": LIVE, "t": t, "n": _length(tasks[t - 1]), "function": bare_name(name),
              "held": held}
    # The widths of the 2-D inputs ("f32[8,37]") its programs were compiled for: one per length met.
    widths = sorted({int(m) for inputs in peak.inputs_of(name) for m in _WIDTH.findall(" ".join(inputs))})
    if len(holders) > 1 and held * 2 < peak.live:
        held_by = shortened([f"{bare_name(k)} ×{v}" for k, v in holders], 5)
        return g.failed("live_programs", msg("live.spread", "{live} compiled programs were alive during task {t} "
                                             "(length {n}), at most {limit} allowed; they were held by {holders}",
                                             holders=held_by, **common), _advice_live(), tier=TIER)
    first = next(s.call for s in live.samples if s.live > LIVE)
    return g.failed("live_programs", msg(
        "live.grew", "{live} compiled programs were alive during task {t} (length {n}), at most {limit} allowed; the "
        "count first passed {limit} in task {first}. {function} held {held} of them, one for each input shape it had "
        "met and kept ({widths}): each task's length never comes back, so every program kept after its task is "
        "dead weight", widths=shortened(widths, 8) or "?", first=first, **common), _advice_live(), tier=TIER)


def _advice_live():
    return msg("advice.live", "at the start of each task, empty the cache of the task before (batch_loss.clear_cache() "
               "or jax.clear_caches()), or pad every batch to one of a few bucket widths so the same programs serve "
               "every task")
