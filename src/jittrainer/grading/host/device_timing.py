"""The device step of a run's timing (``--device``): after the CPU timing, take the worker's exported program, have
the session's executor time it on the accelerator, and say in the timing which device each figure comes from.

The frame comes from a process that ran the learner's code: its bytes are bounded and decoded here, and only the
executor (which runs no Python of theirs) reads them as a program. Every way this step can go wrong leaves the CPU's
figures in place and says why; none of it changes the verdict.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import time
from typing import TYPE_CHECKING, Any

from jittrainer.grading import device_wire as wire
from jittrainer.grading import protocol
from jittrainer.grading.host import untrusted
from jittrainer.grading.host import device
from jittrainer.grading.host.device import SESSION, Executors, Unavailable
from jittrainer.grading.host.frames import TIMED_OUT
from jittrainer.grading.verdict import Timing
from jittrainer.i18n.message import Msg, msg

if TYPE_CHECKING:
    from jittrainer.grading.host.process import WorkerProcess
    from jittrainer.grading.host.run import GradingRun


def several_devices(run: GradingRun) -> bool:
    """An exercise graded on several devices or in several processes: its timing stays on the CPU's simulated
    devices on a one-chip host."""
    ex = run.submission.exercise
    return bool(ex.devices and max(ex.devices) > 1) or run.processes > 1


def requested(run: GradingRun) -> str:
    """The platform the worker is to export the program for ('' for none)."""
    sub = run.submission
    if not sub.timing or not sub.device or several_devices(run):
        return ""
    return sub.device


def finish(run: GradingRun, worker: WorkerProcess, timing: Timing, executors: Executors = SESSION) -> Timing:
    """``timing`` with its steady state measured on the device, or with the reason it stayed on the CPU."""
    sub = run.submission
    if not sub.device:
        if sub.device_reason:  # the mode asked for a device this machine does not have
            return dataclasses.replace(timing, device_note=msg(
                "device.no_runtime", "steady state on the CPU: --device {mode} found no accelerator here ({why})",
                mode=sub.device_mode, why=sub.device_reason))
        return timing
    if several_devices(run):
        return dataclasses.replace(timing, device_note=msg(
            "device.several", "steady state on the CPU: this exercise is graded on several devices, which a host "
            "with one {platform} chip cannot give it", platform=sub.device.upper()))
    frame = program_frame(run, worker, "timing", run.limits.timing_timeout_s)
    if frame is None:
        return dataclasses.replace(timing, device_note=msg(
            "device.no_program", "steady state on the CPU: the worker did not hand over the program"))
    program, inputs = decoded(frame)
    if program is None:
        return dataclasses.replace(timing, device_note=_stays(*inputs))
    try:
        executor = executors.get(sub.device)
        reply = executor.time_program(program, inputs, timeout=max(run.limits.timing_timeout_s, device.JOB_TIMEOUT_S))
    except Unavailable as exc:
        return dataclasses.replace(timing, device_note=msg(
            "device.unavailable", "steady state on the CPU: {platform} unavailable ({why})",
            platform=sub.device.upper(), why=str(exc)))
    if not reply.get("ok"):
        return dataclasses.replace(timing, device_note=_stays(str(reply.get("reason", "failed")),
                                                              str(reply.get("detail", ""))))
    return _merged(timing, reply, executor.facts, untrusted.visible(frame.function)[:80])


def program_frame(run: GradingRun, worker: WorkerProcess, after: str,
                  timeout: float) -> protocol.DeviceProgramFrame | None:
    """The worker's next DeviceProgramFrame for this run (sent after ``after``), or None when none comes."""
    deadline = time.monotonic() + timeout
    frames = run.frames(worker, after=after)
    while True:
        message = frames.next(deadline)
        if isinstance(message, protocol.DeviceProgramFrame) and message.token == run.token:
            return message
        if message is TIMED_OUT or message is None or isinstance(message, (Msg, protocol.ProtocolError)):
            return None


def decoded(frame: protocol.DeviceProgramFrame) -> tuple[bytes, list[bytes]] | tuple[None, tuple[str, str]]:
    """The program's bytes and its inputs', within the executor's limits; else (None, (reason, detail)): a word
    of ``wire.REASONS`` and the detail, made visible."""
    if frame.reason:
        reason = frame.reason if frame.reason in wire.REASONS else "not_exportable"
        return None, (reason, untrusted.visible(frame.detail)[:200])
    try:
        if not isinstance(frame.program, str) or len(frame.program) > wire.MAX_PROGRAM_BYTES * 4 // 3 + 4:
            raise ValueError("program")
        if len(frame.inputs) > wire.MAX_INPUTS or not all(isinstance(b, str) for b in frame.inputs):
            raise ValueError("inputs")
        program = base64.b64decode(frame.program, validate=True)
        inputs = [base64.b64decode(b, validate=True) for b in frame.inputs]
    except (ValueError, binascii.Error):
        return None, ("refused", "the program's frame was malformed")
    if sum(map(len, inputs)) > wire.MAX_INPUT_BYTES or not program:
        return None, ("too_large", "")
    return program, inputs


def _stays(reason: str, detail: str) -> Msg:
    if reason == "no_jitted_call":
        return msg("device.no_jit", "steady state on the CPU: no jitted function was called with arrays")
    if reason == "ahead_of_time":
        return msg("device.ahead_of_time", "steady state on the CPU: the program was compiled ahead of time "
                   "(.lower().compile()), which the device cannot be handed")
    if reason == "host_callback":
        return msg("device.host_callback", "steady state on the CPU: the program calls back into Python on the host "
                   "(jax.debug.print, a pure_callback…), which cannot be exported for the device")
    if reason == "several_devices":
        return msg("device.program_several", "steady state on the CPU: the program runs on several devices")
    if reason in ("refused", "failed"):
        return msg("device.failed", "steady state on the CPU: the device did not time the program ({why})",
                   why=detail or reason)
    return msg("device.not_exported", "steady state on the CPU: the program cannot be exported for the device "
               "({why})", why=detail or reason)


def _merged(timing: Timing, reply: dict[str, Any], facts: dict[str, Any], function: str) -> Timing:
    samples = [float(s) for s in reply.get("samples", []) if isinstance(s, (int, float))][:50]
    steady = reply.get("steady_s")
    if not isinstance(steady, (int, float)) or not samples:
        return dataclasses.replace(timing, device_note=_stays("failed", "no steady state"))
    memory = {str(k): int(v) for k, v in dict(reply.get("memory") or {}).items() if isinstance(v, int)}
    kind = str(facts.get("device_kind") or "")
    return dataclasses.replace(
        timing, cpu_steady_s=timing.steady_s, steady_s=float(steady), steady_samples=samples,
        platform=str(facts.get("platform") or ""), device_kind=kind,
        device_compile_s=_number(reply.get("compile_s")), device_flops=_number(reply.get("flops")),
        device_memory=memory,
        device_note=msg("device.timed", "steady state on {device}: {function}, exported after the verdict and "
                        "compiled there; trace, compile, eager and starter figures are the CPU's",
                        device=kind or str(facts.get("platform")), function=function))


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
