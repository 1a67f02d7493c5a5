"""A scratch run inside the worker: the learner's file run as a program, watched like graded calls, never judged.

The file runs with ``__name__ == "__main__"``, so its ``if __name__ == "__main__":`` block (every starter has one,
with a small example call) runs too. The jit spy numbers each call the program makes of a jitted function (calls
made while tracing another jitted function belong to that one) and gives each its own output section, so traces,
compiles and JAX's cache-miss reasons are reported per call, as in a verdict.
"""

from __future__ import annotations

import contextlib
import os
import time
import types
from collections.abc import Iterator
from typing import Any

from jittrainer.grading.protocol import RunJob
from jittrainer.grading.sandbox import learner_errors
from jittrainer.grading.sandbox.checks.context import CheckContext
from jittrainer.grading.sandbox.checks.jaxprs import jaxpr_report
from jittrainer.grading.sandbox.source import Unreadable, compile_source
from jittrainer.grading.scratch import ScratchCall, ScratchRun
from jittrainer.grading.verdict import Jaxpr, OutputSection
from jittrainer.i18n.catalogs import register_exercise
from jittrainer.i18n.message import Msg, count, msg

MAX_CALLS = 200  # calls reported one by one; a loop of thousands is summed up after these
MAX_JAXPRS = 8


class ScratchRunner:
    def __init__(self, worker: Any, job: RunJob) -> None:
        self.worker, self.job = worker, job
        self.domain = register_exercise(job.exercise, os.path.dirname(job.checks_path))
        self.calls: list[ScratchCall] = []
        self._depth = 0
        self._firsts: dict[str, Any] = {}  # function name → the first call's record (to read its jaxpr)

    @contextlib.contextmanager
    def _around(self, name: str, args: tuple, kwargs: dict) -> Iterator[None]:
        """Around each call of a spied function: a new numbered call, unless it is made while tracing another."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        watch, recorder = self.worker.watch, self.worker.recorder
        number = len(self.calls) + 1
        self.calls.append(ScratchCall(number, name))
        self._depth, watch.call = 1, number
        try:
            with recorder.section(f"call {number}"):
                yield
        except BaseException as exc:  # the call never returned: it did not hit the cache, whatever it compiled
            self.calls[number - 1].raised = type(exc).__name__
            raise
        finally:
            self._depth, watch.call = 0, None
            recorder.switch(f"after {number}")  # what the program prints next comes after this call

    def run(self) -> ScratchRun:
        job, worker = self.job, self.worker
        started = time.perf_counter()
        facts = worker.facts()
        base = {"exercise": job.exercise, "jax_version": facts["jax_version"]}
        has_main = b"__main__" in job.source
        try:
            code = compile_source(job.source, job.filename)
        except Unreadable as exc:
            return ScratchRun.failure(headline=exc.headline, error=exc.error, main_block=has_main, **base)
        g = CheckContext(exercise=job.exercise, domain=self.domain, function=job.function, call_mode=job.call,
                         declared={}, seed=0, filename=job.filename, recorder=worker.recorder, watch=worker.watch,
                         restore_streams=worker.install_streams)
        g.install_spies()
        g.jit_spy.around = self._around
        module = types.ModuleType("__main__")
        module.__file__ = job.filename
        worker.install_streams()
        error = None
        worker.phase("run")
        with worker.watch.counting() as window, worker.recorder.section("run"):
            try:
                exec(code, module.__dict__)
            except BaseException as exc:  # SystemExit and KeyboardInterrupt are the program's too
                error = learner_errors.describe(exc, job.filename, "run")
        worker.install_streams()
        misses = window.explained()
        for call in self.calls:
            call.traces = sum(1 for e in window.events if e.kind == "trace" and e.call == call.number)
            call.compiles = window.compiles_in_call(call.number)
        for record in g.jit_spy.calls:
            if record.call is not None and 0 < record.call <= len(self.calls):
                self.calls[record.call - 1].types = record.shown_types()
                self._firsts.setdefault(record.function, record)
        recorder = worker.recorder
        output, cut = recorder.combined()
        result = ScratchRun(
            headline=self._headline(error, has_main, window.traces, window.compiles),
            main_block=has_main, calls=self._shown_calls(), traces=window.traces, compiles=window.compiles,
            cache_misses=misses, output=output, output_truncated=cut,
            output_sections=[OutputSection(s.label, s.text, s.dropped) for s in recorder.sections
                             if s.chunks or s.dropped or s.label.startswith("call ")],  # a silent call says a lot
            jaxprs=self._jaxprs(), error=error, **base)
        result.duration_s = round(time.perf_counter() - started, 4)
        return result

    def _shown_calls(self) -> list[ScratchCall]:
        if len(self.calls) <= MAX_CALLS:
            return self.calls
        rest = self.calls[MAX_CALLS:]
        summary = ScratchCall(MAX_CALLS + 1, f"… {len(rest)} more", traces=sum(c.traces for c in rest),
                              compiles=sum(c.compiles for c in rest))
        return [*self.calls[:MAX_CALLS], summary]

    def _headline(self, error: Any, has_main: bool, traces: int, compiles: int) -> Msg:
        jitted = count("jitted call", len(self.calls))
        if error is not None:
            where = msg("scratch.line", " on line {line}", line=error.line) if error.line else ""
            return msg("scratch.raised", "your program raised {type}{where} after {calls}: {text}", type=error.type,
                       where=where, calls=jitted, text=learner_errors.headline(error, join_dangling=True))
        if not has_main:
            return msg("scratch.no_main", "your file ran, but it has no if __name__ == \"__main__\": block, so it "
                       "called nothing: add one that calls your function to see what it does")
        own = sum(c.compiles for c in self.calls)
        if compiles > own:
            return msg("scratch.ran_eager", "your program ran: {calls}, {traces} and {compiles} in them, and "
                       "{eager} of JAX's own operations run eagerly outside them", calls=jitted,
                       traces=count("trace", sum(c.traces for c in self.calls)), compiles=count("compile", own),
                       eager=count("compile", compiles - own))
        return msg("scratch.ran", "your program ran: {calls}, {traces} and {compiles} in them", calls=jitted,
                   traces=count("trace", traces), compiles=count("compile", compiles))

    def _jaxprs(self) -> list[Jaxpr]:
        out = []
        with self.worker.recorder.mute(), self.worker.watch.paused():  # tracing again runs the learner's prints
            for name, record in list(self._firsts.items())[:MAX_JAXPRS]:
                real = record.fn
                if not hasattr(real, "trace"):
                    continue
                try:
                    closed = real.trace(*record.args, **record.kwargs).jaxpr
                except BaseException:  # a donated argument, a program that only traced once: nothing to show
                    continue
                out.append(jaxpr_report(closed, name))
        return out
