"""Grading one submission inside the worker: from the job's source bytes to a ``Verdict``.

Order of events: compile the learner's file, load the exercise's checks, run ``setup(g)``, install the spies,
snapshot the grader, import the learner's file (its output is captured), run ``grade(g)``, make sure the grader was
not changed, then assemble the verdict. Timing comes after the verdict has been sent (``timing``).
"""

from __future__ import annotations

import dataclasses
import contextlib
import importlib.util
import inspect
import os
import sys
import time
import traceback
import types
from collections.abc import Callable
from typing import Any

from jittrainer.authoring import use_domain
from jittrainer.grading.protocol import GradeJob
from jittrainer.grading.sandbox import learner_errors
from jittrainer.grading.sandbox.checks.context import CheckContext, ExerciseBug, LearnerFailure, StopChecks
from jittrainer.grading.sandbox.checks.jaxprs import jaxpr_report
from jittrainer.grading.sandbox.integrity import Snapshot
from jittrainer.grading.sandbox.source import Unreadable, compile_source
from jittrainer.grading.sandbox.timing import measure
from jittrainer.grading.verdict import CheckResult, ErrorInfo, InternalError, Jaxpr, OutputSection, Verdict
from jittrainer.i18n.catalogs import register_exercise
from jittrainer.i18n.message import Msg, msg, msgn

SUBMISSION_MODULE = "submission"


def load_checks(exercise_id: str, path: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(f"jittrainer_checks_{exercise_id}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and pickling look the module up by name
    spec.loader.exec_module(module)
    declared = getattr(module, "CHECKS", None)
    if not isinstance(declared, dict) or not declared or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in declared.items()
    ):
        raise TypeError("CHECKS must be a non-empty dict of check id -> check name")
    if not callable(getattr(module, "grade", None)):
        raise TypeError("checks.py must define grade(g)")
    return module


def import_message(info: ErrorInfo) -> Msg:
    """What went wrong while the learner's file was imported, in words."""
    line = info.line
    text = learner_errors.headline(info)
    if learner_errors.out_of_memory(info):
        if line:
            return msg("import.memory_line", "memory limit exceeded while importing your file on line {line} ({type}: "
                       "{text})", line=line, type=info.type, text=text)
        return msg("import.memory", "memory limit exceeded while importing your file ({type}: {text})",
                   type=info.type, text=text)
    if info.type == "SystemExit":
        if line:
            return msg("import.exit_line", "your file called sys.exit() while being imported on line {line}: the "
                       "grader needs it to define the function and return", line=line)
        return msg("import.exit", "your file called sys.exit() while being imported: the grader needs it to define "
                   "the function and return")
    if info.type in ("ModuleNotFoundError", "ImportError"):
        if line:
            return msg("import.failed_line", "an import in your file failed on line {line}: {text}", line=line,
                       text=info.message)
        return msg("import.failed", "an import in your file failed: {text}", text=info.message)
    if info.type == "EOFError":
        if line:
            return msg("import.input_line", "your file called input() on line {line}: there is no keyboard input "
                       "while grading (stdin is closed)", line=line)
        return msg("import.input", "your file called input(): there is no keyboard input while grading (stdin is "
                   "closed)")
    if line:
        return msg("import.raised_line", "your file raised {type} on line {line} while being imported: {text}",
                   type=info.type, line=line, text=info.message)
    return msg("import.raised", "your file raised {type} while being imported: {text}", type=info.type,
               text=info.message)


class SubmissionGrader:
    def __init__(self, worker: Any, job: GradeJob,
                 on_record: Callable[[str, str], None] = lambda check_id, status: None) -> None:
        self.worker = worker
        self.job = job
        self.on_record = on_record  # each check's result, to the host as it is recorded (protocol.CheckFrame)
        self.exercise = job.exercise
        self.domain = register_exercise(job.exercise, os.path.dirname(job.checks_path))
        self.context: CheckContext | None = None
        self.started = time.perf_counter()
        self.facts = worker.facts()

    # ---------------------------------------------------------------------------------------------- verdicts

    def _base(self) -> dict[str, Any]:
        return {"seed": self.job.seed, "jax_version": self.facts["jax_version"],
                "jittrainer_version": self.facts["jittrainer_version"], "devices": [self.facts["devices"]]}

    def _finish(self, verdict: Verdict) -> Verdict:
        verdict.duration_s = round(time.perf_counter() - self.started, 4)
        recorder = self.worker.recorder
        verdict.output, verdict.output_truncated = recorder.combined()
        verdict.output_sections = [OutputSection(s.label, s.text, s.dropped)
                                   for s in recorder.nonempty_sections()]
        return verdict

    def _error(self, headline: Msg, error: ErrorInfo | None = None, skip_reason: Msg | None = None) -> Verdict:
        verdict = Verdict.failure(self.exercise, headline, error=error, **self._base())
        if skip_reason is not None and self.context is not None:
            verdict.checks = [CheckResult(cid, self.context.name_of(cid), "skip", skip_reason)
                              for cid in self.context.declared]
        return self._finish(verdict)

    def _internal(self, file: str, exc: BaseException | str) -> Verdict:
        if isinstance(exc, BaseException):
            text = f"{type(exc).__name__}: {exc}"
            tb = "".join(traceback.format_exception(exc))[-6000:]
        else:
            text, tb = exc, ""
        headline = msg("exercise.broken", "the exercise is broken ({file}): {text}", file=os.path.basename(file),
                       text=text)
        verdict = Verdict.failure(self.exercise, headline, internal_error=InternalError("exercise", file, text, tb),
                                  **self._base())
        return self._finish(verdict)

    # -------------------------------------------------------------------------------------------------- run

    def run(self) -> Verdict:
        try:
            return self._run()
        except BaseException as exc:
            # Raised through the learner's own code outside the graded calls: the grader called a method of one of
            # their objects (a property, __eq__, __str__, a signature). Their failure, not a bug in the exercise.
            if not learner_errors.raised_in(exc, self.job.filename):
                raise
            info = learner_errors.describe(exc, self.job.filename, "checks")
            headline = msg("learner.raised_in_grader", "your code raised {type} on line {line} when the grader called "
                           "a method of one of your objects (a property, __eq__, __str__…): {text}",
                           type=info.type, line=info.line or 0, text=info.message)
            return self._error(headline, info, msg("skip.raised_in_grader", "not checked: your code raised while "
                                                   "the grader looked at it"))

    def _run(self) -> Verdict:
        job, worker = self.job, self.worker
        try:
            code = compile_source(job.source, job.filename)
        except Unreadable as exc:
            return self._error(exc.headline, exc.error)

        use_domain(self.domain)
        try:
            checks = load_checks(self.exercise, job.checks_path)
        except BaseException as exc:
            return self._internal(job.checks_path, exc)
        g = self.context = CheckContext(
            exercise=self.exercise,
            domain=self.domain,
            function=job.function,
            call_mode=job.call,
            declared=dict(checks.CHECKS),
            seed=job.seed,
            filename=job.filename,
            recorder=worker.recorder,
            watch=worker.watch,
            restore_streams=worker.install_streams,
            on_call=lambda i: worker.phase(f"call {i}"),
            on_record=self.on_record,
        )
        g.process, g.processes, g.shared_dir, g.carried = job.process, job.processes, job.shared_dir, dict(job.carried)
        setup = getattr(checks, "setup", None)
        if setup is not None:
            try:
                setup(g)
            except BaseException as exc:
                return self._internal(job.checks_path, exc)
        g.install_spies()
        # The grader's own objects too: an attribute set on one (g.failed = g.passed) hides its class's method.
        snapshot = Snapshot([checks], instances={"CheckContext": g, "JitSpy": g.jit_spy, "PmapSpy": g.pmap_spy,
                                                 "Worker": worker})

        worker.phase("import")
        module = types.ModuleType(SUBMISSION_MODULE)
        module.__file__ = job.filename
        sys.modules[SUBMISSION_MODULE] = module
        worker.install_streams()
        with worker.recorder.section("import"):
            try:
                exec(code, module.__dict__)
            except BaseException as exc:
                info = learner_errors.describe(exc, job.filename, "import")
                return self._error(import_message(info), info,
                                   msg("skip.no_import", "not checked: your file did not import"))
        g.module = module
        if _jit_disabled():
            headline = msg("jit_disabled", "your file turns jit off (jax_disable_jit): every exercise here is about "
                           "what jax.jit does, so remove that setting")
            return self._error(headline, ErrorInfo("JitDisabled", headline.render("en"), phase="import"),
                               msg("skip.jit_off", "not checked: jit is turned off"))

        worker.phase("checks")
        try:
            checks.grade(g)
        except LearnerFailure as exc:
            return self._error(exc.message, exc.error or g.learner_error,
                               msg("skip.nothing", "not checked: nothing could be graded"))
        except StopChecks:
            pass  # the check that stopped grading is reported; the rest show as skipped
        except ExerciseBug as exc:
            return self._internal(job.checks_path, str(exc))
        except BaseException as exc:
            if learner_errors.raised_in(exc, job.filename):
                raise  # said as the learner's (run())
            return self._internal(job.checks_path, exc)
        finally:
            worker.install_streams()

        _drop_hooks()
        tampered = snapshot.changed() + ([] if worker.watch.listening() else ["jax.monitoring listeners"])
        if tampered:
            headline = msg("tampered", "your code changed the grader itself ({names}): its results cannot be trusted, "
                           "so nothing was graded", names=tampered[:3])
            return self._error(headline, ErrorInfo("GraderTampered", headline.render("en"), phase="checks"),
                               msg("skip.tampered", "not checked: the grader was changed"))
        return self._finish(self._verdict(g, checks))

    def _verdict(self, g: CheckContext, checks: types.ModuleType) -> Verdict:
        # Skipped checks say which check failed first, not its whole message again: that is the verdict's message.
        first_bad = next((r for r in g.results.values() if r.failed), None)
        reason = (msg("skip.after", "not checked: “{name}” failed first", name=first_bad.name) if first_bad
                  else msg("skip.earlier", "not checked: an earlier check failed"))
        if first_bad is None and g.processes > 1:  # the rest is another process's (the host puts it together)
            reason = msg("skip.other_process", "checked in another of the {of} processes", of=g.processes)
        results: list[CheckResult] = []
        missing = []
        for cid in g.declared:
            if cid in g.results:
                results.append(g.results[cid])
            else:
                missing.append(cid)
                results.append(CheckResult(cid, g.name_of(cid), "skip", reason))
        failures = [r for r in results if r.failed]
        if missing and not failures and g.processes == 1:
            return self._internal(self.job.checks_path, f"grade() never reported check(s) {', '.join(missing)}")
        if failures:
            headline = failures[0].observation or msg("check.failed", "a check failed")
        else:
            headline = msgn("all_passed", "All {n} check passed.", "All {n} checks passed.", n=len(results))
        verdict = Verdict(exercise=self.exercise, status="fail" if failures else "pass", headline=headline,
                          **self._base())
        verdict.checks = results
        verdict.error = g.learner_error
        windows = g.graded_calls
        if windows:
            verdict.compiles = sum(c.compiles for c in windows)
            verdict.traces = sum(c.traces for c in windows)
            # A later window (the gradients of exercise 26) is counted by the checks on its own: its compiles say so.
            verdict.cache_misses = [dataclasses.replace(m, window=c.name) if i else m
                                    for i, c in enumerate(windows) for m in c.reasons()]
        verdict.jaxpr = self._jaxpr()
        timing = verdict.timing
        if windows:
            timing.compile_s = round(sum(c.window.compile_seconds() for c in windows), 6)
            timing.trace_s = round(sum(c.window.trace_seconds() for c in windows), 6)
            timing.calls_s = round(windows[0].seconds, 6)
        if not self.job.timing.enabled:
            timing.status, timing.note = "skipped", msg("timing.not_requested", "timing was not requested")
        elif not (windows and windows[0].ok):
            timing.status, timing.note = "skipped", msg("timing.calls_failed", "not timed: the graded calls did not "
                                                        "all return")
        return verdict

    def _jaxpr(self) -> Jaxpr | None:
        """The graded function's jaxpr; for plain-called exercises, the first jitted or pmapped function it calls."""
        import jax

        g = self.context
        assert g is not None
        if g.jaxpr_source is not None:
            closed = g.graded_jaxpr()
            return jaxpr_report(closed, g.jaxpr_name) if closed is not None else None
        first_jit = g.jit_spy.first
        if first_jit is not None:
            real, args, kwargs = first_jit.fn, first_jit.args, first_jit.kwargs
            source = (lambda: real.trace(*args, **kwargs).jaxpr) if hasattr(real, "trace") else None
            what = msg("jaxpr.first_jitted", "{name} (the first jitted function {function} calls)",
                       name=first_jit.function, function=g.function_name)
        elif g.pmap_spy.first is not None:
            real, args, kwargs = g.pmap_spy.first
            source = lambda: jax.make_jaxpr(real)(*args, **kwargs)  # noqa: E731
            what = msg("jaxpr.first_pmapped", "{name} (the first pmapped function {function} calls)",
                       name=_name_of(real), function=g.function_name)
        else:
            return None
        if source is None:
            return None
        try:
            with self.worker.recorder.mute(), contextlib.redirect_stdout(self.worker.stdout):
                closed = source()
        except BaseException:
            return None
        return jaxpr_report(closed, what)

    def timing(self, verdict: Verdict) -> dict[str, Any]:
        """Steady state, then the opt-in eager and starter comparisons; after the verdict has been sent."""
        from jittrainer.grading.verdict import _encode

        g = self.context
        assert g is not None and g.graded_calls
        starter = (self.job.starter_path, g.function_name, g.call_mode)
        timing = measure(dataclasses.replace(verdict.timing), g.graded_calls[0], self.job.timing, self.worker.recorder,
                         self.worker.watch, starter)
        return _encode(timing)

    def device_program(self, token: str, platform: str, *, with_inputs: bool = True) -> Any:
        """The graded program exported for ``platform`` (``sandbox.device_export``), or why it cannot be."""
        from jittrainer.grading.sandbox.device_export import export_first_call

        assert self.context is not None
        with self.worker.recorder.mute():  # exporting traces the learner's function again
            return export_first_call(self.context, platform, token, with_inputs=with_inputs)

    def review(self) -> dict[str, Any]:
        """The program's measures for the review (``grading.sandbox.review``); after the verdict and its timing."""
        from jittrainer.grading.sandbox.review import measure

        assert self.context is not None
        try:
            return measure(self.context, self.worker.recorder)
        except BaseException as exc:  # the learner's code may run again (a re-trace): a review, never a crash
            return {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}


def _drop_hooks() -> None:
    """Remove profile and trace hooks the learner's code set: one could patch the grader after the integrity check,
    at the next function call the grader makes."""
    import threading

    sys.setprofile(None)
    sys.settrace(None)
    threading.setprofile(None)
    threading.settrace(None)
    for name in ("setprofile_all_threads", "settrace_all_threads"):  # 3.12+
        with contextlib.suppress(Exception):
            getattr(threading, name)(None)


def _name_of(fn: Any) -> str:
    return getattr(inspect.unwrap(fn), "__name__", None) or "a function"


def _jit_disabled() -> bool:
    import jax

    try:
        return bool(jax.config.jax_disable_jit)
    except AttributeError:  # the option moved: grade as usual
        return False

