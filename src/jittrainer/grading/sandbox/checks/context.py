"""``CheckContext``: the ``g`` an exercise's ``checks.py`` receives in ``setup(g)`` and ``grade(g)``.

The file says *what* to call and *what* must hold; the context knows *how*: it hands out the learner's function as
graded (under ``jax.jit`` unless it is jitted already), runs the graded calls while counting every trace and compile
and capturing each call's output, spies on ``jax.jit`` and ``jax.pmap``, and records each check's result as an
observation plus, for a failure, an advice. Checks not reported because grading stopped early show as skipped.
"""

from __future__ import annotations

import inspect
import linecache
import re
import time
import warnings
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

import jax

from jittrainer.grading.sandbox import learner_errors
from jittrainer.grading.sandbox.capture import OutputRecorder
from jittrainer.grading.sandbox.checks.calls import CallRecord, GradedCalls
from jittrainer.grading.sandbox.checks.jaxprs import feeding_callbacks
from jittrainer.grading.sandbox.checks.spies import JitSpy, PmapSpy, is_compiled, is_jitted
from jittrainer.grading.sandbox.checks.values import host_copy, type_name
from jittrainer.grading.sandbox.compile_watch import CompileWatch
from jittrainer.grading.verdict import CheckResult, ErrorInfo
from jittrainer.i18n.message import Msg, count, msg

_UNSET = object()


class LearnerFailure(Exception):
    """The submission cannot be graded at all (missing or uncallable function, wrong signature): status "error"."""

    def __init__(self, message: Msg, error: ErrorInfo | None = None) -> None:
        super().__init__(message.render("en"))
        self.message = message
        self.error = error


class StopChecks(Exception):
    """Stop grading here; checks not yet reported are listed as skipped."""


class ExerciseBug(Exception):
    """The exercise's checks.py misused the toolkit: an authoring error, reported as the exercise's fault."""


class CheckContext:
    def __init__(
        self,
        *,
        exercise: str,
        domain: str,
        function: str,
        call_mode: str,
        declared: dict[str, str],
        seed: int,
        filename: str,
        recorder: OutputRecorder,
        watch: CompileWatch,
        restore_streams: Callable[[], None],
        on_call: Callable[[int], None] = lambda index: None,
        on_record: Callable[[str, str], None] = lambda check_id, status: None,
    ) -> None:
        import numpy as np

        self.exercise = exercise
        self.domain = domain
        self.function_name = function
        self.call_mode = call_mode
        self.declared = dict(declared)
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.filename = filename
        self.recorder = recorder
        self.watch = watch
        self._restore_streams = restore_streams
        self._on_call = on_call
        self._on_record = on_record  # sends each result to the host as it is recorded (protocol.CheckFrame)
        self.module: ModuleType | None = None
        self.results: dict[str, CheckResult] = {}
        self.learner_error: ErrorInfo | None = None
        self.graded_calls: list[GradedCalls] = []
        self.graded_function: Callable | None = None
        self.graded_params: tuple[str, ...] = ()
        self.jaxpr_source: Callable[[], Any] | None = None  # returns a ClosedJaxpr, after the checks
        self._graded_jaxpr: Any = _UNSET
        self.jaxpr_name = ""
        self.jit_spy = JitSpy(self)
        self.pmap_spy = PmapSpy(self)
        # An exercise graded in several processes in turn (``grading.processes``): this one's index, how many there
        # are, the folder they share, what the one before handed on, and what this one hands on (``carry``).
        self.process = 0
        self.processes = 1
        self.shared_dir = ""
        self.carried: dict[str, Any] = {}
        self.carried_out: dict[str, Any] = {}

    @property
    def last_process(self) -> bool:
        return self.process == self.processes - 1

    def carry(self, key: str, value: Any) -> None:
        """Hand ``value`` (plain JSON: numbers, strings, lists, dicts) to the next process as ``g.carried[key]``. It
        travels through the host, which bounds it like anything a worker sends."""
        self.carried_out[str(key)] = value

    def install_spies(self) -> None:
        """Before the learner's file is imported: every jax.jit and jax.pmap it makes is watched."""
        self.jit_spy.install()
        self.pmap_spy.install()

    # -- the learner's module --------------------------------------------------------------------------------

    @property
    def current_call(self) -> int | None:
        return self.watch.call

    def attr(self, name: str) -> Any:
        """A module-level name from the learner's file; a clear error if it is not there."""
        if self.module is None or not hasattr(self.module, name):
            raise LearnerFailure(msg("contract.missing_name", "{name} is not defined in your file; the exercise "
                                     "needs it (see the statement)", name=name))
        return getattr(self.module, name)

    def replace(self, name: str, value: Any) -> Any:
        """Set a module-level name the learner's file defines (e.g. swap ``report`` for a recorder)."""
        old = self.attr(name)
        setattr(self.module, name, value)
        return old

    def set_global(self, name: str, value: Any) -> None:
        """Set a module-level name whether or not the learner's file defines it (a setting the program updates)."""
        setattr(self.module, name, value)

    def function(self, name: str | None = None, *, params: int | None = None) -> Callable:
        """The learner's function ``name`` (default: the manifest's), checked callable with ``params`` arguments."""
        name = name or self.function_name
        fn = self.attr(name)
        if not callable(fn):
            raise LearnerFailure(msg("contract.not_function", "{name} in your file is {type}, not a function",
                                     name=name, type=type_name(fn)))
        if params is not None:
            _check_arity(name, fn, params)
        return fn

    def graded(self, name: str | None = None, *, params: int | None = None) -> Callable:
        """The function as graded: for ``call = "jit"`` the learner's own jitted (or ahead-of-time compiled)
        function as it is, otherwise ``jax.jit(f)`` with no options; plain Python for ``call = "plain"``."""
        name = name or self.function_name
        fn = self.function(name, params=params)
        self.graded_params = _param_names(fn)
        if self.call_mode == "plain":
            graded = fn
        else:
            graded = fn if is_jitted(fn) else jax.jit(fn)
            self.jaxpr_name = name
            if is_compiled(graded):
                self.jaxpr_source = getattr(graded, "jaxpr_source", None)
        self.graded_function = graded
        return graded

    @property
    def source(self) -> str:
        """The learner's file as graded (for messages that depend on what they wrote)."""
        return "".join(linecache.getlines(self.filename))

    @property
    def code(self) -> str:
        """The learner's file without comments."""
        return "".join(line.split("#", 1)[0] + "\n" for line in self.source.splitlines())

    @property
    def wrapped_host_code(self) -> bool:
        """The graded function is not jitted itself, yet the file uses jit inside it or elsewhere: what the learner
        meant to run on the host (around an inner jitted function) is traced by the grader's own jax.jit. Worth
        saying in a failure message, since the learner did not write that outer jit."""
        try:
            fn = self.function()
        except LearnerFailure:
            return False
        return not is_jitted(fn) and re.search(r"\bjit\b", self.code) is not None

    def lines_calling(self, pattern: str, function: str | None = None) -> list[int]:
        """Lines of the learner's file (1-based) whose code matches ``pattern``, within ``function``'s source
        when it can be found: where a message can point at the learner's own code."""
        code_lines = self.code.splitlines()
        span = range(1, len(code_lines) + 1)
        if function:
            try:
                target = inspect.unwrap(self.attr(function))
                lines, start = inspect.getsourcelines(target)
                span = range(start, start + len(lines))
            except (LearnerFailure, OSError, TypeError):
                pass
        rx = re.compile(pattern)
        return [n for n in span if n - 1 < len(code_lines) and rx.search(code_lines[n - 1])]

    def feeding_callbacks(self) -> list[str]:
        """Host callbacks in the graded program whose results it uses (pure_callback, io_callback): values
        fetched from Python at run time. Empty when the program did not trace."""
        closed = self.graded_jaxpr()
        return feeding_callbacks(closed) if closed is not None else []

    def graded_jaxpr(self) -> Any:
        """The ClosedJaxpr of the graded function on the first graded input, or None (it did not trace).
        Traced once and kept: several checks and the verdict's Jaxpr pane all read it."""
        if self._graded_jaxpr is _UNSET:
            self._graded_jaxpr = None
            if self.jaxpr_source is not None:
                try:
                    with self.recorder.mute():  # a re-trace would run the learner's prints again
                        self._graded_jaxpr = self.jaxpr_source()
                except BaseException:  # the learner's code runs again: SystemExit, KeyboardInterrupt, ...
                    pass
        return self._graded_jaxpr

    # -- spies ----------------------------------------------------------------------------------------------

    def spy_pmap(self) -> PmapSpy:
        """The pmap spy (always installed; kept for checks written against the first authoring API)."""
        return self.pmap_spy

    def spy_jit(self) -> JitSpy:
        return self.jit_spy

    # -- calls ----------------------------------------------------------------------------------------------

    def calls(
        self,
        fn: Callable,
        arglist: Iterable[tuple],
        *,
        name: str | None = None,
        before: Callable[[int, tuple], None] | None = None,
        after: Callable[[int, tuple], None] | None = None,
    ) -> GradedCalls:
        """Call ``fn(*args)`` for each args, counting every trace and compile in between and capturing each
        call's output. ``before(i, args)`` runs before call i (1-based) and ``after(i, args)`` after it returned:
        set and check globals there, but build arrays beforehand, because eager jax operations compile too."""
        arglist = [tuple(a) for a in arglist]
        # A learner's demo call at import (or an earlier window) must not pre-fill the caches: counts and callbacks
        # then reflect these calls alone. (clear_caches keeps already-built input arrays.)
        jax.clear_caches()
        calls = GradedCalls(name=name or self.function_name, planned=len(arglist), fn=fn, params=self.graded_params)
        start = time.perf_counter()
        with self.watch.counting() as window:
            calls.window = window
            for index, args in enumerate(arglist, 1):
                if before is not None:
                    before(index, args)
                record = CallRecord(index, args, host_args=host_copy(args) if index == 1 else None)
                calls.records.append(record)
                self._restore_streams()
                self._on_call(index)
                self.watch.call = index
                t0 = time.perf_counter()
                with self.recorder.section(f"call {index}") as section, warnings.catch_warnings(record=True) as seen:
                    warnings.simplefilter("always")
                    mark = len(section.chunks)
                    try:
                        result = fn(*args)
                        jax.block_until_ready(result)
                        jax.effects_barrier()
                        record.result = result
                    except BaseException as exc:  # SystemExit and KeyboardInterrupt are the learner's too
                        record.error = learner_errors.describe(exc, self.filename, f"call {index}")
                        _settle()
                    record.output = "".join(section.chunks[mark:])
                record.warnings = [learner_errors.warning_line(w) for w in seen]
                record.seconds = time.perf_counter() - t0
                self.watch.call = None
                if record.error is not None:
                    self.learner_error = self.learner_error or record.error
                    break
                if after is not None:
                    after(index, args)
        calls.seconds = time.perf_counter() - start
        self.graded_calls.append(calls)
        if (self.graded_function is fn and self.jaxpr_source is None and arglist and self.call_mode != "plain"
                and not is_compiled(fn)):
            first = arglist[0]
            self.jaxpr_source = lambda: fn.trace(*first).jaxpr
        return calls

    # -- reporting ------------------------------------------------------------------------------------------

    def name_of(self, check_id: str) -> Msg:
        return Msg(f"check:{check_id}", self.declared[check_id], domain=self.domain)

    def _record(self, check_id: str, status: str, observation: Msg | None, advice: Msg | None = None,
                tier: int | None = None) -> None:
        if check_id not in self.declared:
            raise ExerciseBug(f"check {check_id!r} is not declared in CHECKS")
        if check_id in self.results:
            raise ExerciseBug(f"check {check_id!r} was reported twice")
        for what in (observation, advice):
            if what is not None and not isinstance(what, Msg):
                raise ExerciseBug(f"check {check_id!r}: messages are built with msg(...), got {type(what).__name__}")
        self.results[check_id] = CheckResult(check_id, self.name_of(check_id), status, observation,
                                             advice if status != "pass" else None, tier if advice is not None else None)
        self._on_record(check_id, status)

    def passed(self, check_id: str, observation: Msg | None = None) -> bool:
        """Check ``check_id`` holds; ``observation`` says what was seen (shown beside the passed check)."""
        self._record(check_id, "pass", observation)
        return True

    def failed(self, check_id: str, observation: Msg, advice: Msg | None = None, *, tier: int | None = None) -> bool:
        """Check ``check_id`` fails. ``observation``: what happened and which pitfall it shows, no code to copy.
        ``advice``: what to write instead, shown once the learner has taken hint ``tier`` (default: the last),
        failed this check often enough, or asked for it."""
        if observation is None:
            raise ExerciseBug(f"check {check_id!r} failed without an observation")
        self._record(check_id, "fail", observation, advice, tier)
        return False

    def check(self, check_id: str, ok: bool, observation: Msg | None = None, advice: Msg | None = None, *,
              tier: int | None = None, passed: Msg | None = None) -> bool:
        """``passed(check_id, passed)`` when ``ok``, else ``failed(check_id, observation, advice)``."""
        if ok:
            return self.passed(check_id, passed)
        if observation is None:
            raise ExerciseBug(f"check {check_id!r} failed without an observation")
        return self.failed(check_id, observation, advice, tier=tier)

    def on_device(self, check_id: str, advice: Msg | None = None, *, tier: int | None = None) -> bool:
        """Leave ``check_id`` (the manifest's ``[grading.device] check``) to the accelerator: once every other check
        has passed, the host has the device executor run the exported first jitted call and decides it there.
        ``advice`` is shown with its failure as ``failed``'s is. Recorded only when nothing failed before it."""
        if any(r.failed for r in self.results.values()):
            return False
        self._record(check_id, "skip", msg("device.waiting", "decided on the accelerator once the other checks "
                                           "pass"), advice, tier)
        return True

    def check_ran(self, check_id: str, calls: GradedCalls,
                  advice: Callable[[ErrorInfo], Msg | None] | None = None, *, tier: int | None = None,
                  explain: Callable[[ErrorInfo], Msg | None] | None = None) -> bool:
        """Pass if every planned call returned; otherwise an error with the learner's exception (its text is
        JAX's own), then stop grading: later checks would only repeat the same error. ``explain(error)`` may add
        which pitfall the error shows (no code); ``advice(error)`` may say what to write instead."""
        if calls.ok:
            return self.passed(check_id, msg("ran.ok", "{calls} returned", calls=count("call", calls.planned)))
        record = calls.failed
        observation = calls.error_message()
        error = record.error if record is not None else None
        why = explain(error) if error is not None and explain else None
        if why is not None:
            # On its own line: the error text is JAX's and may end in any punctuation.
            observation = msg("ran.explained", "{error}\n{why}", error=observation, why=why)
        extra = advice(error) if error is not None and advice else None
        self._record(check_id, "error", observation, extra, tier)
        raise StopChecks(check_id)


def _settle() -> None:
    try:
        jax.effects_barrier()
    except BaseException:
        pass


def _param_names(fn: Callable) -> tuple[str, ...]:
    try:
        return tuple(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return ()


def _check_arity(name: str, fn: Callable, params: int) -> None:
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(*([None] * params))
    except TypeError:
        raise LearnerFailure(msg(
            "contract.arity",
            "{name} is called with {count}, but yours is defined as {name}({params})",
            name=name, count=count("positional argument", params), params=", ".join(signature.parameters),
        )) from None
