"""The grading worker: a child process that imports jax, waits for one job, grades it, reports, and exits.

Run as ``python -m jittrainer.core.worker --job-fd J --result-fd R`` by ``jittrainer.core.runner`` only.
Messages go over the private result fd (see ``protocol``); the learner's prints land in capture streams and
travel inside the verdict. One worker grades exactly one submission, so no JAX cache, monkeypatch or global
survives from one learner run into the next.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import dataclasses
import importlib
import importlib.util
import linecache
import os
import statistics
import sys
import time
import traceback
import types
from typing import Any

from jittrainer.core import protocol
from jittrainer.core.capture import CaptureStream, OutputRecorder
from jittrainer.core.learner_errors import describe, describe_syntax_error, headline, out_of_memory, where
from jittrainer.core.verdict import CheckResult, ErrorInfo, InternalError, OutputSection, Timing, Verdict

SUBMISSION_MODULE = "submission"
STEADY_BUDGET_S = 0.3
STEADY_MAX_SAMPLES = 200
STEADY_MIN_SAMPLES = 5
EAGER_SAMPLES = 3


class Worker:
    def __init__(self, result_fd: int) -> None:
        self.result_fd = result_fd
        self.recorder = OutputRecorder()
        self.stdout = CaptureStream(self.recorder, "<stdout>", 1)
        self.stderr = CaptureStream(self.recorder, "<stderr>", 2)
        t0 = time.perf_counter()
        import jax  # noqa: F401  (the slow part of start-up: done before any job arrives)
        import numpy as np

        import jittrainer.core.toolkit  # noqa: F401  (what every job needs, imported while nobody waits)
        from jittrainer.core.jaxwatch import JaxWatch

        jax.devices()  # initialise the backend now, not inside the first timed call
        # One throwaway compile pays XLA's first-use set-up. It is a fresh function, so no learner call can hit
        # its cache entry, and it runs before the JaxWatch exists, so it is never counted.
        jax.block_until_ready(jax.jit(lambda v: v * 2.0)(np.float32(1.0)))
        self.watch = JaxWatch()
        self.import_s = time.perf_counter() - t0

    def send(self, message: dict[str, Any]) -> None:
        protocol.write_message(self.result_fd, message)

    def install_streams(self) -> None:
        sys.stdout, sys.stderr = self.stdout, self.stderr

    def phase(self, name: str) -> None:
        self.send({"type": protocol.PHASE, "phase": name})


def _facts() -> dict[str, Any]:
    import jax

    import jittrainer

    devices = jax.devices()
    return {
        "jax_version": jax.__version__,
        "jittrainer_version": jittrainer.__version__,
        "devices": {
            "platform": jax.default_backend(),
            "count": len(devices),
            "local_count": jax.local_device_count(),
            "kind": devices[0].device_kind if devices else "",
        },
    }


def decode_source(raw: bytes, filename: str) -> tuple[str | None, ErrorInfo | None, str]:
    """(text, None, "") or (None, error, message) for bytes that are not a Python file we can read."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        message = (
            f"your file is not valid UTF-8 text: byte 0x{raw[exc.start]:02x} on line {line} cannot be decoded "
            f"(save it as UTF-8)"
        )
        return None, ErrorInfo("UnicodeDecodeError", message, line=line, phase="read"), message
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        message = "your file is empty: write the function the statement asks for"
        return None, ErrorInfo("EmptyFile", message, phase="read"), message
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        message = f"your file contains a NUL byte on line {line}: it looks like binary data, not Python source"
        return None, ErrorInfo("ValueError", message, line=line, phase="read"), message
    return text, None, ""


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


class Grade:
    """One job: from source bytes to a verdict dict, plus what the timing phase needs afterwards."""

    def __init__(self, worker: Worker, job: dict[str, Any]) -> None:
        self.worker = worker
        self.job = job
        self.exercise = job["exercise"]
        self.filename = job["filename"]
        self.seed = int(job["seed"])
        self.grading = None
        self.started = time.perf_counter()
        self.facts = _facts()

    # ---------------------------------------------------------------------------------------------- verdicts

    def _base(self) -> dict[str, Any]:
        return {"seed": self.seed, **self.facts}

    def _finish(self, verdict: Verdict) -> dict[str, Any]:
        verdict.duration_s = round(time.perf_counter() - self.started, 4)
        text, cut = self.worker.recorder.combined()
        verdict.output, verdict.output_truncated = text, cut
        verdict.output_sections = [
            OutputSection(s.label, s.text) for s in self.worker.recorder.nonempty_sections()
        ]
        return verdict.to_dict()

    def _error(self, message: str, error: ErrorInfo | None = None, checks: list[CheckResult] | None = None) -> dict:
        verdict = Verdict.failure(self.exercise, message, error=error, **self._base())
        verdict.checks = checks or []
        return self._finish(verdict)

    def _internal(self, where_: str, file: str, exc: BaseException | str) -> dict:
        if isinstance(exc, BaseException):
            text = f"{type(exc).__name__}: {exc}"
            tb = "".join(traceback.format_exception(exc))[-6000:]
        else:
            text, tb = exc, ""
        message = f"the exercise is broken ({os.path.basename(file)}): {text}"
        internal = InternalError(where=where_, file=file, message=text, traceback=tb)
        verdict = Verdict.failure(self.exercise, message, internal_error=internal, **self._base())
        return self._finish(verdict)

    # -------------------------------------------------------------------------------------------------- run

    def run(self) -> dict[str, Any]:
        from jittrainer.core.toolkit import ExerciseBug, Grading, LearnerFailure, StopChecks

        job, worker = self.job, self.worker
        raw = base64.b64decode(job["source_b64"])
        text, error, message = decode_source(raw, self.filename)
        if error is not None:
            return self._error(message, error)
        try:
            code = compile(text, self.filename, "exec", dont_inherit=True)
        except SyntaxError as exc:
            info = describe_syntax_error(exc)
            return self._error(f"{info.type} on line {info.line}: {info.message}", info)
        except (ValueError, OverflowError, MemoryError, RecursionError) as exc:
            info = ErrorInfo(type(exc).__name__, str(exc), phase="compile")
            return self._error(f"your file could not be compiled: {type(exc).__name__}: {exc}", info)
        linecache.cache[self.filename] = (len(text), None, text.splitlines(True), self.filename)

        checks_path = job["checks_path"]
        try:
            checks = load_checks(self.exercise, checks_path)
        except BaseException as exc:
            return self._internal("exercise", checks_path, exc)
        declared: dict[str, str] = dict(checks.CHECKS)

        def skipped(reason: str) -> list[CheckResult]:
            return [CheckResult(cid, name, "skip", reason) for cid, name in declared.items()]

        g = Grading(
            exercise=self.exercise,
            function=job["function"],
            call_mode=job["call"],
            declared=declared,
            seed=self.seed,
            filename=self.filename,
            recorder=worker.recorder,
            watch=worker.watch,
            restore_streams=worker.install_streams,
            on_call=lambda i: worker.phase(f"call {i}"),
        )
        self.grading = g
        setup = getattr(checks, "setup", None)
        if setup is not None:
            try:
                setup(g)
            except BaseException as exc:
                return self._internal("exercise", checks_path, exc)

        worker.phase("import")
        module = types.ModuleType(SUBMISSION_MODULE)
        module.__file__ = self.filename
        sys.modules[SUBMISSION_MODULE] = module
        worker.install_streams()
        with worker.recorder.section("import"):
            try:
                exec(code, module.__dict__)
            except BaseException as exc:
                info = describe(exc, self.filename, "import")
                return self._error(_import_message(info), info, skipped("not checked: your file did not import"))
        g.module = module
        if _jit_disabled():
            message = (
                "your file turns jit off (jax_disable_jit): every exercise here is about what jax.jit does, "
                "so remove that setting"
            )
            return self._error(message, ErrorInfo("JitDisabled", message, phase="import"), skipped("not checked: jit is turned off"))

        worker.phase("checks")
        try:
            checks.grade(g)
        except LearnerFailure as exc:
            return self._error(exc.message, exc.error or g.learner_error, skipped("not checked: nothing could be graded"))
        except StopChecks:
            pass  # the check that stopped grading is reported; the rest show as skipped
        except ExerciseBug as exc:
            return self._internal("exercise", checks_path, str(exc))
        except BaseException as exc:
            return self._internal("exercise", checks_path, exc)
        finally:
            worker.install_streams()

        # Skipped checks say which check failed first, not its whole message again: that is the verdict's message.
        first_bad = next((r.name for r in g.results.values() if r.status in ("fail", "error")), None)
        reason = f"not checked: “{first_bad}” failed first" if first_bad else "not checked: an earlier check failed"
        results: list[CheckResult] = []
        missing = []
        for cid, name in declared.items():
            if cid in g.results:
                results.append(g.results[cid])
            else:
                missing.append(cid)
                results.append(CheckResult(cid, name, "skip", reason))
        failures = [r for r in results if r.status in ("fail", "error")]
        if missing and not failures:
            return self._internal("exercise", checks_path, f"grade() never reported check(s) {', '.join(missing)}")

        verdict = Verdict(exercise=self.exercise, status="fail" if failures else "pass", message="", **self._base())
        verdict.checks = results
        verdict.error = g.learner_error
        if failures:
            verdict.message = failures[0].message
        else:
            verdict.message = f"All {len(results)} checks passed."
        if g.windows:
            verdict.compiles = sum(c.compiles for c in g.windows)
            verdict.traces = sum(c.traces for c in g.windows)
            verdict.cache_misses = [m for c in g.windows for m in c.reasons()]
        verdict.jaxpr = self._jaxpr()
        timing = verdict.timing
        if g.windows:
            first = g.windows[0]
            timing.compile_s = round(sum(c.window.compile_seconds() for c in g.windows), 6)
            timing.trace_s = round(sum(c.window.trace_seconds() for c in g.windows), 6)
            timing.calls_s = round(first.seconds, 6)
        if not job.get("timing", {}).get("enabled", True):
            timing.status, timing.note = "skipped", "timing was not requested"
        elif not (g.windows and g.windows[0].ok):
            timing.status, timing.note = "skipped", "not timed: the graded calls did not all return"
        return self._finish(verdict)

    def _jaxpr(self):
        """The graded function's jaxpr; for plain-called exercises, the first jitted or pmapped function it calls."""
        import jax

        from jittrainer.core.jaxwatch import jaxpr_report

        g = self.grading
        if g.jaxpr_source is not None:
            closed = g.graded_jaxpr()
            return jaxpr_report(closed, g.jaxpr_name) if closed is not None else None
        if g.jit_spy and g.jit_spy.first:
            real, args, kwargs = g.jit_spy.first
            source = lambda: real.trace(*args, **kwargs).jaxpr  # noqa: E731
            what = "jitted"
        elif g.pmap_spy and g.pmap_spy.first:
            real, args, kwargs = g.pmap_spy.first
            source = lambda: jax.make_jaxpr(real)(*args, **kwargs)  # noqa: E731
            what = "pmapped"
        else:
            return None
        try:
            with self.worker.recorder.mute(), contextlib.redirect_stdout(self.worker.stdout):
                closed = source()
        except BaseException:
            return None
        return jaxpr_report(closed, f"{_name_of(real)} (the first {what} function {g.function_name} calls)")

    # ------------------------------------------------------------------------------------------------ timing

    def timing(self, verdict: dict[str, Any]) -> dict[str, Any]:
        """Steady state, then the opt-in eager and starter comparisons; after the verdict has been sent."""
        import jax

        timing = Timing(**verdict["timing"])
        if timing.status != "pending":
            return verdict["timing"]
        g = self.grading
        first = g.windows[0]
        fn, args = first.fn, first.records[0].args
        options = self.job.get("timing", {})
        notes = []
        with self.worker.recorder.mute():
            try:
                samples = []
                spent = 0.0
                jax.block_until_ready(fn(*args))  # warm: compiled during grading, but make sure
                while len(samples) < STEADY_MAX_SAMPLES and (spent < STEADY_BUDGET_S or len(samples) < STEADY_MIN_SAMPLES):
                    t0 = time.perf_counter()
                    jax.block_until_ready(fn(*args))
                    jax.effects_barrier()
                    dt = time.perf_counter() - t0
                    samples.append(dt)
                    spent += dt
                timing.steady_s = statistics.median(samples)
                timing.steady_samples = [round(s, 7) for s in samples[:50]]
            except BaseException as exc:
                notes.append(f"steady state not measured: {type(exc).__name__}")
            if options.get("eager"):
                try:
                    eager = []
                    with jax.disable_jit():
                        for _ in range(EAGER_SAMPLES):
                            t0 = time.perf_counter()
                            jax.block_until_ready(fn(*args))
                            eager.append(time.perf_counter() - t0)
                    timing.eager_s = statistics.median(eager)
                except BaseException as exc:
                    notes.append(f"eager run failed: {type(exc).__name__}")
            if options.get("starter"):
                cached = options.get("starter_cached")
                if cached:
                    timing.starter_calls_s = cached.get("calls_s")
                    timing.starter_compiles = cached.get("compiles")
                    timing.starter_cached = True
                else:
                    try:
                        timing.starter_calls_s, timing.starter_compiles = self._time_starter(first)
                    except BaseException as exc:
                        notes.append(f"starter not measured: {type(exc).__name__}: {exc}"[:200])
        timing.status = "measured"
        timing.note = "; ".join(notes)
        return dataclasses.asdict(timing)

    def _time_starter(self, first) -> tuple[float, int]:
        import jax

        from jittrainer.core.toolkit import is_jitted

        g = self.grading
        source = open(self.job["starter_path"], encoding="utf-8").read()
        module = types.ModuleType("starter")
        exec(compile(source, self.job["starter_path"], "exec"), module.__dict__)
        fn = getattr(module, g.function_name)
        if g.call_mode != "plain" and not is_jitted(fn):
            fn = jax.jit(fn)
        with self.worker.watch.counting() as window:
            t0 = time.perf_counter()
            for record in first.records:
                jax.block_until_ready(fn(*record.args))
            seconds = time.perf_counter() - t0
        return seconds, window.compiles


def _name_of(fn: Any) -> str:
    import inspect

    return getattr(inspect.unwrap(fn), "__name__", None) or "a function"


def _jit_disabled() -> bool:
    import jax

    try:
        return bool(jax.config.jax_disable_jit)
    except AttributeError:  # the option moved: grade as usual
        return False


def _import_message(info: ErrorInfo) -> str:
    if out_of_memory(info):
        return f"memory limit exceeded while importing your file{where(info)} ({info.type}: {headline(info)})"
    if info.type == "SystemExit":
        return f"your file called sys.exit() while being imported{where(info)}: the grader needs it to define the function and return"
    if info.type in ("ModuleNotFoundError", "ImportError"):
        return f"an import in your file failed{where(info)}: {info.message}"
    if info.type == "EOFError":
        return f"your file called input(){where(info)}: there is no keyboard input while grading (stdin is closed)"
    return f"your file raised {info.type}{where(info)} while being imported: {info.message}"


# Other work a worker can do in the same isolation: "module:function" taking (worker, job), returning a dict.
TASKS = {"proof": "jittrainer.core.proofs:run_proof"}


def run_task(worker: Worker, kind: str, job: dict[str, Any]) -> None:
    """A non-grading job (a probe, a drill card's proof): answer with one RESULT message, then exit."""
    try:
        if kind == "probe":
            result = {"import_s": worker.import_s, **_facts()}
        else:
            module_name, _, function = TASKS[kind].partition(":")
            worker.install_streams()
            result = getattr(importlib.import_module(module_name), function)(worker, job)
        worker.send({"type": protocol.RESULT, "ok": True, **result})
    except BaseException:
        with contextlib.suppress(BaseException):
            worker.send({"type": protocol.RESULT, "ok": False, "error": traceback.format_exc()[-4000:]})
    os._exit(0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="jittrainer-worker")
    parser.add_argument("--job-fd", type=int, required=True)
    parser.add_argument("--result-fd", type=int, required=True)
    args = parser.parse_args(argv)
    worker = Worker(args.result_fd)
    worker.send({"type": protocol.READY, "pid": os.getpid(), "import_s": worker.import_s})
    try:
        job = protocol.read_message(args.job_fd)
    except protocol.ChannelClosed:
        os._exit(0)  # a spare that was never used
    os.close(args.job_fd)
    kind = job.get("kind", "grade")
    if kind != "grade":
        run_task(worker, kind, job)
    try:
        grade = Grade(worker, job)
        verdict = grade.run()
        worker.send({"type": protocol.VERDICT, "verdict": verdict})
        if verdict["timing"]["status"] == "pending":
            worker.send({"type": protocol.TIMING, "timing": grade.timing(verdict)})
        worker.send({"type": protocol.DONE})
    except BaseException:
        # A grader bug, not the learner's: report it on the channel (the streams are captured).
        tb = traceback.format_exc()
        with contextlib.suppress(BaseException):
            worker.send({"type": protocol.CRASH, "traceback": tb[-8000:]})
        os.write(2, tb.encode("utf-8", "replace"))
        os._exit(3)
    # os._exit: threads or atexit handlers the learner left behind must not keep the process alive.
    os._exit(0)


if __name__ == "__main__":
    main()
