"""Checks for async_benchmark: time_step(step, x, repeats) is called three times, each time with a fresh jitted
step (a few matmuls on a float32[n, n]), so that step's first call compiles.

Every event a benchmark causes is logged in order while time_step runs: calls of step, reads of the clock made by
the learner's own code (time.perf_counter, time.monotonic, time.time and their _ns forms; timeit too), waits on
step's results (jax.block_until_ready, the .block_until_ready() method, an .is_ready() that answered True; a copy
to the host, np.asarray or float, waits too but is not counted: it times the copy as well) and backend compiles.
The grade is about the order of those events, never about how long anything took: the clock must start after step
was compiled (and its warm-up result waited for), nothing may compile while it runs, and the last timed result must
be waited for before it stops. The number returned must be the seconds per call that the learner's own clock reads
give.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from jittrainer.authoring import (EventLog, Hooked, as_number, at_line, count, first_wrong, is_tracer, msg,
                                  spy_clocks, spy_compiles, spy_waits, still_running)

CHECKS = {
    "runs": "time_step returns for every call",
    "reads_clock": "reads the clock to start and to stop",
    "waits_for_result": "waits for the last timed result before the clock stops",
    "warm_up": "step is compiled and warmed up before the clock starts; nothing compiles while it runs",
    "timed_calls": "times exactly repeats calls of step",
    "per_call": "returns the seconds per call, from its own clock reads",
}

RTOL = 0.02  # the returned number against the clock reads: a rounding slip passes, a unit or a count does not
ATOL = 1e-6  # seconds: time.time() has a coarse resolution
SIZES = [128, 160, 192, 224, 256]  # x is float32[n, n]; a new n in every graded call
HOST_READ = r"\b(np|numpy)\.(asarray|array)\s*\(|\.tolist\s*\(|device_get\s*\("
WAIT_TIER = 2  # the hint tier that names block_until_ready and the warm-up call

# One log per graded call, filled by the spies while time_step runs. Mutated, never rebound: the grader checks that
# this module's names stay the objects they were.
_STATE = {"calls": 0}
_LOG = EventLog()  # the running call's events, then each call's (events, outs)
_OUTS: dict = {}  # id(result) -> (number of the step call that made it, the result)


# ------------------------------------------------------------------------------------------------ spies


def setup(g):
    """Spy on the clocks, on waiting and on compiles before the learner's file is imported: `import time`,
    `from time import perf_counter` and timeit all see the spies."""
    spy_clocks(g.filename, _on_clock)
    spy_waits(_on_wait)
    spy_compiles(lambda name: _LOG.add("compile", name))


def _on_clock(seconds: float, name: str) -> None:
    if _LOG.active:
        _LOG.add("clock", seconds, name, still_running(out for _, out in _OUTS.values()))


def _on_wait(value, how: str) -> None:
    if _LOG.active:
        ids = tuple(id(leaf) for leaf in jax.tree_util.tree_leaves(value) if _tracked(leaf))
        if ids:
            _LOG.add("wait", ids, how)


def _tracked(value) -> bool:
    entry = _OUTS.get(id(value))
    return entry is not None and entry[1] is value


def _record_call(out):
    if not _LOG.active:
        return out
    if isinstance(out, jax.Array) and not is_tracer(out):
        _STATE["calls"] += 1
        _OUTS[id(out)] = (_STATE["calls"], out)
        _LOG.add("call", _STATE["calls"], id(out))
    else:
        _LOG.add("traced_call")
    return out


def _reset() -> None:
    _OUTS.clear()
    _STATE["calls"] = 0


# ------------------------------------------------------------------------------------------------ graded values


def make_step(rng: np.random.Generator, real_jit) -> Hooked:
    """The jitted function handed to time_step: a few matmuls, long enough that a call returns before its result is
    ready on most runs (the checks never rely on that). Each graded call brings an x of a new size, so the first
    call of step in each graded call compiles."""
    scale = float(rng.uniform(0.5, 1.5))

    def step(x):
        def body(_, y):
            return jnp.tanh(y @ y * (scale / y.shape[0]))

        return jax.lax.fori_loop(0, 4, body, x)

    return Hooked(real_jit(step), _record_call, "step", "A jitted update step: step(x) returns an array of the "
                  "shape and dtype of x.")


def repeat_counts(rng: np.random.Generator) -> list[int]:
    """One call with repeats = 1, the others from 2 to 9, in a random order."""
    counts = [1, int(rng.integers(2, 6)), int(rng.integers(6, 10))]
    return [counts[i] for i in rng.permutation(3)]


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    time_step = g.graded(params=3)
    repeats = repeat_counts(g.rng)
    step = make_step(g.rng, g.jit_spy.real)
    sizes = g.rng.choice(SIZES, size=len(repeats), replace=False)
    args = [(step, jax.device_put(g.rng.normal(0.0, 1.0, (int(n), int(n))).astype(np.float32)), r)
            for n, r in zip(sizes, repeats)]
    jax.block_until_ready([a[1] for a in args])
    calls = g.calls(_LOG.watching(time_step, _reset, lambda: dict(_OUTS)), args)
    runs = [_Run(i, r, *(_LOG.runs[i - 1] if i - 1 < len(_LOG.runs) else ([], {})))
            for i, r in enumerate(repeats, 1)]
    g.check_ran("runs", calls, _error_advice, tier=WAIT_TIER)
    for run, record in zip(runs, calls.records):
        run.value = record.result

    if not _check_clock(g, runs):
        return
    _check_waits(g, runs)
    _check_warm_up(g, runs)
    _check_timed_calls(g, runs)
    _check_per_call(g, runs)


def _error_advice(error):
    if "block_until_ready" in error.message:
        return msg("advice.block_array", "call block_until_ready on the array step returned (out.block_until_ready()), "
                   "or pass it to jax.block_until_ready(out)")
    return None


class _Run:
    """One graded call of time_step: its events, read in order."""

    def __init__(self, index: int, repeats: int, events: list, outs: dict) -> None:
        self.index, self.repeats, self.events, self.outs = index, repeats, events, outs
        self.value = None
        self.clocks = [k for k, e in enumerate(events) if e[0] == "clock"]
        self.start = self.clocks[0] if self.clocks else None
        self.stop = self.clocks[-1] if len(self.clocks) > 1 else None
        self.calls = [(k, e[1], e[2]) for k, e in enumerate(events) if e[0] == "call"]
        self.traced = any(e[0] == "traced_call" for e in events)

    def common(self) -> dict:
        return {"call": self.index, "repeats": self.repeats}

    def seconds(self, k: int) -> float:
        return self.events[k][1]

    @property
    def timed(self) -> list:
        return [c for c in self.calls if self.start < c[0] < self.stop]

    @property
    def before(self) -> list:
        return [c for c in self.calls if c[0] < self.start]

    def waited(self, out_id: int, after: int, before: int) -> bool:
        return any(e[0] == "wait" and out_id in e[1] for e in self.events[after + 1:before])

    def compiles_between(self, after: int, before: int) -> list[str]:
        return [e[1] for e in self.events[after + 1:before] if e[0] == "compile"]


def _check_clock(g, runs) -> bool:
    return first_wrong(g, "reads_clock", runs, lambda run: len(run.clocks) >= 2, lambda _, run: msg(
        "clock.none", "call {call} (repeats = {repeats}): time_step read none of the clocks the grader watches "
        "(time.perf_counter, time.monotonic, time.time or their _ns forms, timeit) in its own code, so there is no "
        "timing to check", **run.common()) if not run.clocks else msg(
        "clock.once", "call {call} (repeats = {repeats}): time_step read the clock only once; a timing needs one read "
        "to start and one to stop", **run.common()), msg(
        "advice.clock", "read time.perf_counter() once right before the timed calls and once right after them"),
        tier=1, ok=msg("clock.ok", "every call read the clock to start and to stop"))


def _check_waits(g, runs) -> None:
    judged = False
    for run in runs:
        timed = run.timed
        if not timed:
            continue  # nothing was timed: timed_calls says so
        judged = True
        k, number, out_id = timed[-1]
        if run.waited(out_id, k, run.stop):
            continue
        pending = run.events[run.stop][3]
        earlier = [c for c in timed[:-1] if run.waited(c[2], c[0], run.stop)]
        lines = g.lines_calling(r"\b(perf_counter|monotonic|time)(_ns)?\s*\(|default_timer\s*\(|timeit\s*\(",
                                g.function_name)
        common = {**run.common(), "pending": pending, "total": len(run.outs)}
        host = g.lines_calling(HOST_READ, g.function_name)
        if earlier:
            observation = msg("wait.earlier", "call {call} (repeats = {repeats}): before the clock stopped, time_step "
                              "waited for an earlier result of step (call {earlier} of {calls}), not for the last "
                              "one: the work of the later calls was only dispatched, and the clock did not wait for "
                              "it", earlier=earlier[-1][1], calls=number, **run.common())
        elif host:
            observation = msg("wait.host_copy", "call {call} (repeats = {repeats}): the last result of step was not "
                              "waited for with block_until_ready before the clock stopped. Line {line} copies values "
                              "to the host, which does wait, but the clock then also measures the copy (a transfer "
                              "from the accelerator, on a GPU), so the contract counts only block_until_ready or "
                              "is_ready", line=host[0], **run.common())
        elif pending:
            observation = at_line(lines[-1:], msg(
                "wait.pending_line", "call {call} (repeats = {repeats}): line {line} stops the clock right after the "
                "last call of step returned, and at that moment {pending} of the {total} results of step were still "
                "being computed. A jitted call returns as soon as its work is dispatched (async dispatch), so the "
                "time measured is mostly the time it took to queue the work, not to do it", **common), msg(
                "wait.pending", "call {call} (repeats = {repeats}): the clock stopped right after the last call of "
                "step returned, and at that moment {pending} of the {total} results of step were still being "
                "computed. A jitted call returns as soon as its work is dispatched (async dispatch), so the time "
                "measured is mostly the time it took to queue the work, not to do it", **common))
        else:
            observation = msg("wait.lucky", "call {call} (repeats = {repeats}): nothing waited for the last result of "
                              "step before the clock stopped. This time the work happened to be finished already, "
                              "but a jitted call returns as soon as its work is dispatched (async dispatch): with a "
                              "bigger program, or on a GPU, the clock stops while the work is still running",
                              **run.common())
        g.failed("waits_for_result", observation, msg(
            "advice.wait", "after the timed calls, wait for the last result before reading the clock: "
            "out.block_until_ready() (or jax.block_until_ready(out))"), tier=WAIT_TIER)
        return
    if judged:
        g.passed("waits_for_result", msg("wait.ok", "every call waited for its last timed result before it stopped "
                                         "the clock"))


def _check_warm_up(g, runs) -> None:
    advice = msg("advice.warm_up", "before starting the clock, call step once and wait for it: "
                 "step(x).block_until_ready(); then time the calls that reuse that compile")
    for run in runs:
        inside = run.compiles_between(run.start, run.stop)
        before = run.before
        names = list(dict.fromkeys(inside))
        if inside and not before:
            g.failed("warm_up", msg(
                "warm.none", "call {call} (repeats = {repeats}): the clock started before step had ever run, so the "
                "first timed call traced and compiled it ({compiles} while the clock ran): the number includes a "
                "compile that happens only once, on the first call", compiles=count("compile", len(inside)),
                **run.common()), advice, tier=WAIT_TIER)
            return
        if {"jit(step)", "step"} & set(inside):  # step itself compiled again
            g.failed("warm_up", msg(
                "warm.recompiled", "call {call} (repeats = {repeats}): step was called before the clock started, yet "
                "it compiled again while the clock ran ({names}): the timed calls did not reuse what the warm-up "
                "compiled (the warm-up had other argument shapes or dtypes, or it compiled a separate copy)",
                names=names, **run.common()),
                msg("advice.same_args", "warm up with the very call you time, step(x) with the same x, or time the "
                    "compiled copy you made with step.lower(x).compile()"), tier=WAIT_TIER)
            return
        if inside:
            g.failed("warm_up", msg(
                "warm.other_compiles", "call {call} (repeats = {repeats}): something compiled while the clock ran "
                "({names}): jax.numpy operations run eagerly inside the timed window compile for every new shape, "
                "and that compile time is measured too", names=names, **run.common()),
                msg("advice.nothing_else", "between the two clock reads, only call step and wait for its result; "
                    "prepare everything else before the clock starts"), tier=WAIT_TIER)
            return
        if before:
            k, _, out_id = before[-1]
            if run.waited(out_id, k, run.start):
                continue
            # Whether it was still running when the clock started is the machine's business, as the statement says:
            # the verdict names the missing wait, never a readiness it happened to observe.
            g.failed("warm_up", msg("warm.not_waited", "call {call} (repeats = {repeats}): the warm-up call of step "
                                    "was not waited for before the clock started: JAX had only dispatched it, so "
                                    "its run can overlap the timed calls and be measured with them", **run.common()),
                     advice, tier=WAIT_TIER)
            return
    g.passed("warm_up", msg("warm.ok", "step was compiled before the clock started, and nothing compiled while it "
                            "ran"))


def _check_timed_calls(g, runs) -> None:
    counts = [len(run.timed) for run in runs]
    bad = [run for run, n in zip(runs, counts) if n != run.repeats]
    if not bad:
        g.passed("timed_calls", msg("timed.ok", "every call timed exactly repeats calls of step"))
        return
    advice = msg("advice.loop", "between the two clock reads, call step repeats times: for _ in range(repeats): "
                 "out = step(x)")
    run = bad[0]
    n = len(run.timed)
    common = {**run.common(), "n": n}
    if n == 0 and run.traced:
        observation = msg("timed.traced", "call {call} (repeats = {repeats}): step was only called with tracers "
                          "(inside a function you jitted), so none of the calls between the clock reads ran step "
                          "itself", **run.common())
    elif len(set(counts)) == 1 and len({r.repeats for r in runs}) > 1:
        observation = msg("timed.fixed", "step ran {n} times between the first and the last clock read in every "
                          "call, whatever repeats was ({list}): the number of timed calls is written into the code",
                          n=n, list=[str(r.repeats) for r in runs])
    elif n == run.repeats + 1 and run.before:
        observation = msg("timed.one_more", "call {call} (repeats = {repeats}): step ran {n} times between the first "
                          "and the last clock read, one more than repeats", **common)
    else:
        observation = msg("timed.count", "call {call} (repeats = {repeats}): step ran {n} times between the first and "
                          "the last clock read; the contract times exactly repeats calls", **common)
    g.failed("timed_calls", observation, advice, tier=1)


def _rates(run) -> tuple[float, float] | None:
    """The fewest and the most seconds per call that the run's own clock reads allow: over every stretch between
    two consecutive reads that holds calls of step, its length divided by the number of calls in it."""
    rates = []
    for a, b in zip(run.clocks, run.clocks[1:]):
        inside = [c for c in run.calls if a < c[0] < b]
        if inside:
            rates.append((run.seconds(b) - run.seconds(a)) / len(inside))
    return (min(rates), max(rates)) if rates else None


def _check_per_call(g, runs) -> None:
    advice = msg("advice.per_call", "return the seconds per call: (stop - start) / repeats, with both clock reads "
                 "in seconds")
    for run in runs:
        if not run.timed:
            continue
        got = as_number(run.value)
        if got is None:
            g.failed("per_call", msg("per_call.type", "call {call} (repeats = {repeats}): time_step returned {type}; "
                                     "expected the seconds per call, one number", type=type(run.value).__name__,
                                     **run.common()), advice, tier=1)
            return
        bounds = _rates(run)
        if bounds is None:
            continue
        lo, hi = bounds
        if lo * (1 - RTOL) - ATOL <= got <= hi * (1 + RTOL) + ATOL:
            continue
        span = run.seconds(run.stop) - run.seconds(run.start)
        common = {**run.common(), "value": got, "lo": lo, "hi": hi}
        g.failed("per_call", _slip(run, got, span, lo, hi, common), advice, tier=1)
        return
    g.passed("per_call", msg("per_call.ok", "every call returned the seconds per call its own clock reads give"))


def _near(a: float, b: float) -> bool:
    return b != 0 and abs(a - b) <= RTOL * abs(b) + ATOL


def _slip(run, got, span, lo, hi, common):
    if got < 0:
        return msg("per_call.negative", "call {call} (repeats = {repeats}): time_step returned {value:.4g}, a negative "
                   "time: the start was subtracted from the stop the wrong way round", **common)
    if run.repeats > 1 and _near(got, span):
        return msg("per_call.total", "call {call} (repeats = {repeats}): time_step returned {value:.4g} s, the time of "
                   "all {repeats} timed calls together, not the time per call", **common)
    units = ((1e3, msg("per_call.ms", "call {call} (repeats = {repeats}): time_step returned {value:.4g}, about 1000 "
                       "times the seconds per call its own clock reads give ({lo:.4g} to {hi:.4g} s): milliseconds, "
                       "where the contract asks for seconds", **common)),
             (1e6, msg("per_call.us", "call {call} (repeats = {repeats}): time_step returned {value:.4g}, about a "
                       "million times the seconds per call its own clock reads give ({lo:.4g} to {hi:.4g} s): "
                       "microseconds, where the contract asks for seconds", **common)),
             (1e9, msg("per_call.ns", "call {call} (repeats = {repeats}): time_step returned {value:.4g}, about a "
                       "billion times the seconds per call its own clock reads give ({lo:.4g} to {hi:.4g} s): "
                       "nanoseconds from a _ns clock, never converted to seconds", **common)))
    for factor, observation in units:
        if lo * factor * (1 - RTOL) <= got <= hi * factor * (1 + RTOL):
            return observation
    if _near(got, span / (run.repeats + 1)):
        return msg("per_call.plus_one", "call {call} (repeats = {repeats}): time_step returned {value:.4g} s, the "
                   "time between its clock reads divided by repeats + 1, while {repeats} calls were timed", **common)
    return msg("per_call.other", "call {call} (repeats = {repeats}): time_step returned {value:.4g} s per call, but "
               "its own clock reads give between {lo:.4g} and {hi:.4g} s per call", **common)
