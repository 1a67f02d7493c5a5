"""A device check (``[grading.device]``), decided on the host: after the CPU's pass, the worker exports the graded
program; the session's executor runs it on the accelerator with inputs it makes itself and measures it against the
exercise's float64 reference; the numbers decide the check here.

The program comes from a process that ran the learner's code, so nothing about it is taken on its word: its inputs'
shapes must be the manifest's, the inputs and the reference are the executor's, and only a result within
``max_error`` of the reference passes. A forged program that meets that on the device is, for this check, a right
one. When the check cannot be made (no device in this mode, the executor unavailable, no program handed over) the
verdict is an error that says why, never a pass.
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING, Any

from jittrainer.course.device_check import REFERENCE_FILE, DeviceCheck, unavailable_reason
from jittrainer.grading.host import untrusted
from jittrainer.grading.host.device import JOB_TIMEOUT_S, SESSION, Executors, Unavailable
from jittrainer.grading.host.device_timing import decoded, program_frame
from jittrainer.grading.verdict import CheckResult, Verdict
from jittrainer.i18n.message import Msg, msg

if TYPE_CHECKING:
    from jittrainer.grading.host.process import WorkerProcess
    from jittrainer.grading.host.run import GradingRun


def platform_for(run: GradingRun) -> str:
    """The platform the run's device check is made on ('' when none: the exercise is unavailable in this mode)."""
    spec = run.submission.exercise.device_check
    if spec is None:
        return ""
    if run.submission.device in spec.platforms:
        return run.submission.device
    return "cpu" if "cpu" in spec.platforms else ""


def judge(run: GradingRun, worker: WorkerProcess, verdict: Verdict, executors: Executors = SESSION) -> Verdict:
    """``verdict`` with its device check decided (a pass becomes a fail or an error when the device says so)."""
    ex = run.submission.exercise
    spec = ex.device_check
    if spec is None or not verdict.passed:
        return verdict
    index = next((i for i, r in enumerate(verdict.checks) if r.id == spec.check), None)
    if index is None or verdict.checks[index].status != "skip":
        return _error(verdict, None, msg("device_check.not_left", "the exercise's checks did not leave “{check}” to "
                                         "the device (g.on_device)", check=spec.check))
    row = verdict.checks[index]
    platform = platform_for(run)
    if not platform:
        return _error(verdict, index, msg("device_check.no_device", "not graded: this exercise is {why}",
                                          why=unavailable_reason(spec) or spec.platforms[0].upper()))
    if ex.pack:
        return _error(verdict, index, msg("device_check.pack", "not graded: a pack's exercise cannot run a reference "
                                          "in the device executor"))
    frame = program_frame(run, worker, "the device check", run.limits.timeout_s)
    if frame is None:
        return _error(verdict, index, msg("device_check.no_program", "not graded: the worker did not hand over the "
                                          "program"))
    program, why = decoded(frame)
    if program is None:
        reason = ": ".join(part for part in why if part)
        return _fail(verdict, index, row, msg("device_check.not_exported", "your program could not be handed to "
                                              "the {device} ({why})", device=platform.upper(), why=reason))
    try:
        executor = executors.get(platform)
        reply = executor.check_program(program, [list(s) for s in spec.inputs], spec.seed,
                                       str(ex.dir / REFERENCE_FILE), timeout=max(run.limits.timeout_s, JOB_TIMEOUT_S),
                                       any_shape=spec.any_shape)
    except Unavailable as exc:
        return _error(verdict, index, msg("device_check.unavailable", "not graded: the {device} is unavailable "
                                          "({why})", device=platform.upper(), why=str(exc)[:300]))
    device = str(executor.facts.get("device_kind") or platform.upper())
    if not reply.get("ok"):
        return _fail(verdict, index, row, msg("device_check.failed", "on the {device}, your program did not run "
                                              "({why})", device=device,
                                              why=untrusted.visible(str(reply.get("detail", "")))[:300]))
    if "reference_fault" in reply:  # an authoring bug: never the learner's failure, never a pass
        return _error(verdict, index, msg("device_check.reference", "not graded: the exercise's {file} failed on the "
                                          "{device} ({why}); this is a fault in the exercise, not in your program",
                                          file=REFERENCE_FILE, device=device,
                                          why=untrusted.visible(str(reply["reference_fault"]))[:300]))
    outcome = decide(spec, reply, device)
    return _passed(verdict, index, row, outcome[1]) if outcome[0] else _fail(verdict, index, row, outcome[1])


def decide(spec: DeviceCheck, reply: dict[str, Any], device: str) -> tuple[bool, Msg]:
    """Whether the executor's measures meet the check, and what was seen."""
    if "inputs_differ" in reply:
        return False, msg("device_check.inputs", "the program handed to the {device} takes {found}, not float32 "
                          "arrays of shapes {shapes}", device=device, found=str(reply["inputs_differ"])[:200],
                          shapes=", ".join(str(list(s)) for s in spec.inputs))
    if "outputs" in reply:
        return False, msg("device_check.outputs", "the program handed to the {device} returns {n} arrays, not one",
                          device=device, n=str(reply["outputs"]))
    shape, want = reply.get("shape"), reply.get("reference_shape")
    if spec.any_shape and isinstance(shape, list) and isinstance(want, list) and _size(shape) == _size(want):
        shape = want  # the executor compared them in row-major order
    if shape != want:
        return False, msg("device_check.shape", "on the {device} the result has shape {shape}, the reference {want}",
                          device=device, shape=str(shape)[:80], want=str(want)[:80])
    error = reply.get("error")
    precisions = [str(p)[:40] for p in reply.get("precisions") or []][:8]
    asked = ", ".join(precisions) if precisions else "—"
    limit = format(spec.max_error, ".0e")
    if not isinstance(error, (int, float)) or isinstance(error, bool):
        return False, msg("device_check.not_finite", "on the {device} the result is not finite where the float64 "
                          "reference is", device=device)
    off = format(error, ".1e")
    if error > spec.max_error:
        return False, msg("device_check.too_far", "on the {device} the result is off by {error} of its largest value "
                          "against the float64 reference (at most {limit} allowed); the program's matrix products "
                          "ask for precision {asked}", device=device, error=off, limit=limit, asked=asked)
    if spec.max_output_factor is not None:
        stored, logical = reply.get("output_bytes"), reply.get("output_logical_bytes")
        if not _count(stored) or not _count(logical) or logical == 0:
            return False, msg("device_check.no_memory", "the {device} did not say how much memory the result takes",
                              device=device)
        factor = stored / logical
        words = {"device": device, "stored": format(stored, ","), "logical": format(logical, ","),
                 "factor": format(factor, ".2f"), "limit": format(spec.max_output_factor, "g")}
        if factor > spec.max_output_factor:
            return False, msg("device_check.padded", "on the {device} the result takes {stored} bytes for {logical} "
                              "bytes of values: {factor}× its size (at most {limit}× allowed)", **words)
        return True, msg("device_check.fits", "on the {device} the result takes {stored} bytes for {logical} bytes "
                         "of values ({factor}×, at most {limit}×); off by {error} of the largest value against "
                         "float64", error=off, **words)
    return True, msg("device_check.close", "on the {device}: off by {error} of the largest value against float64 "
                     "(at most {limit}); matrix products at precision {asked}", device=device, error=off,
                     limit=limit, asked=asked)


def _size(shape: list) -> int:
    return math.prod(d if isinstance(d, int) else 0 for d in shape)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _passed(verdict: Verdict, index: int, row: CheckResult, seen: Msg) -> Verdict:
    checks = list(verdict.checks)
    checks[index] = dataclasses.replace(row, status="pass", observation=seen, advice=None, advice_tier=None)
    return dataclasses.replace(verdict, checks=checks)


def _fail(verdict: Verdict, index: int, row: CheckResult, seen: Msg) -> Verdict:
    checks = list(verdict.checks)
    checks[index] = dataclasses.replace(row, status="fail", observation=seen)
    return dataclasses.replace(verdict, checks=checks, status="fail", headline=seen)


def _error(verdict: Verdict, index: int | None, why: Msg) -> Verdict:
    checks = list(verdict.checks)
    if index is not None:
        checks[index] = dataclasses.replace(checks[index], status="error", observation=why, advice=None,
                                            advice_tier=None)
    return dataclasses.replace(verdict, checks=checks, status="error", headline=why)
