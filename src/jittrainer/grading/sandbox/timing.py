"""The timing phase, after the verdict has been sent: steady state, and the opt-in eager and starter comparisons.
It never changes the verdict; the learner's output is muted while it runs."""

from __future__ import annotations

import statistics
import time
import types
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp

from jittrainer.grading.device_wire import STEADY_BUDGET_S, STEADY_MAX_SAMPLES, STEADY_MIN_SAMPLES
from jittrainer.grading.protocol import TimingRequest
from jittrainer.grading.sandbox.checks.calls import CallRecord, GradedCalls
from jittrainer.grading.sandbox.checks.values import is_deleted
from jittrainer.grading.sandbox.checks.spies import is_jitted
from jittrainer.grading.verdict import Timing
from jittrainer.i18n.message import Msg, msg

EAGER_SAMPLES = 3


def measure(timing: Timing, first: GradedCalls, request: TimingRequest, recorder: Any, watch: Any,
            starter: tuple[str, str, str] | None) -> Timing:
    """``starter`` is (path, function name, call mode) when the starter is to be timed over the same calls."""
    fn, fresh = first.fn, _arguments(first.records[0])
    args = fresh()
    notes: list[Msg] = []
    with recorder.mute():
        try:
            samples: list[float] = []
            spent = 0.0
            jax.block_until_ready(fn(*args))  # warm: compiled during grading, but make sure
            while len(samples) < STEADY_MAX_SAMPLES and (spent < STEADY_BUDGET_S or len(samples) < STEADY_MIN_SAMPLES):
                args = fresh()
                t0 = time.perf_counter()
                jax.block_until_ready(fn(*args))
                jax.effects_barrier()
                dt = time.perf_counter() - t0
                samples.append(dt)
                spent += dt
            timing.steady_s = statistics.median(samples)
            timing.steady_samples = [round(s, 7) for s in samples[:50]]
        except BaseException as exc:
            notes.append(msg("timing.steady_failed", "steady state not measured: {type}", type=type(exc).__name__))
        if request.eager:
            try:
                eager = []
                with jax.disable_jit():
                    for _ in range(EAGER_SAMPLES):
                        t0 = time.perf_counter()
                        jax.block_until_ready(fn(*args))
                        eager.append(time.perf_counter() - t0)
                timing.eager_s = statistics.median(eager)
            except BaseException as exc:
                notes.append(msg("timing.eager_failed", "eager run failed: {type}", type=type(exc).__name__))
        if request.starter and starter is not None:
            cached = request.starter_cached
            if cached:
                timing.starter_calls_s = cached.get("calls_s")
                timing.starter_compiles = cached.get("compiles")
                timing.starter_cached = True
            else:
                try:
                    timing.starter_calls_s, timing.starter_compiles = _time_starter(first, watch, *starter)
                except BaseException as exc:
                    notes.append(msg("timing.starter_failed", "starter not measured: {type}: {text}",
                                     type=type(exc).__name__, text=str(exc)[:160]))
    timing.status = "measured"
    timing.note = msg("timing.notes", "{notes}", notes=notes) if notes else ""
    return timing


def _arguments(record: CallRecord) -> Callable[[], tuple]:
    """The first call's arguments for one more run. A program that donates its inputs deleted them during grading:
    then every run gets fresh device copies of the host copies taken before that call (made outside the clock)."""
    args = record.args
    if record.host_args is None or not any(map(is_deleted, jax.tree_util.tree_leaves(args))):
        return lambda: args
    host = record.host_args
    return lambda: jax.tree_util.tree_map(lambda a, h: jnp.asarray(h) if is_deleted(a) else a, args, host)


def _time_starter(first: GradedCalls, watch: Any, path: str, function: str, call_mode: str) -> tuple[float, int]:
    with open(path, encoding="utf-8") as fh:
        source = fh.read()
    module = types.ModuleType("starter")
    exec(compile(source, path, "exec"), module.__dict__)
    fn = getattr(module, function)
    if call_mode != "plain" and not is_jitted(fn):
        fn = jax.jit(fn)
    with watch.counting() as window:
        t0 = time.perf_counter()
        for record in first.records:
            jax.block_until_ready(fn(*record.args))
        seconds = time.perf_counter() - t0
    return seconds, window.compiles
