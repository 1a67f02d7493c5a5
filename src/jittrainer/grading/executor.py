"""The device executor: one long-lived process per session that holds the accelerator and times exported programs.

``python -m jittrainer.grading.executor --platform tpu --job-fd J --reply-fd R``, started by the host
(``grading.host.device``) with ``JAX_PLATFORMS=tpu,cpu`` (``cpu`` kept for what JAX runs on the host). It opens the
device once (about 9 s on a TPU), says ``ready``, then for each job: deserialises the exported program, refuses what
it must not run (``grading.device_wire``), compiles it, puts the inputs on the device once, times the steady state
as the CPU timing does, reads ``cost_analysis``/``memory_analysis``, frees everything, and replies.

A device check (``kind: check``, ``course.device_check``) runs the program once on inputs the executor makes itself
and measures it against the exercise's float64 reference (``device_reference.py``: NumPy, a course file, never a
pack's or a learner's), and reads the matmul precisions its StableHLO asks for; the host decides from the numbers.

It never runs the learner's Python: a program is StableHLO, exported in the worker after the verdict. So the process
can live across jobs without one learner's ``jax.config`` (matmul precision, say) reaching the next: the precision a
program asked for is written into the program itself.
"""

from __future__ import annotations

import argparse
import base64
import gc
import io
import os
import re
import statistics
import sys
import time
from typing import Any

from jittrainer.grading import device_wire as wire
from jittrainer.grading.protocol import ChannelClosed, ProtocolError

_CUSTOM_CALL = re.compile(r'custom_call\s*@([\w.$-]+)|call_target_name\s*=\s*"([^"]+)"')


class Refused(ValueError):
    """A job the executor will not run: said back as the reason, never raised to the host."""


def open_device(platform: str) -> tuple[Any, dict[str, Any]]:
    t0 = time.perf_counter()
    import jax

    device = jax.devices(platform)[0]
    jax.block_until_ready(jax.device_put(1.0, device))  # the device answers before the first job's clock
    return device, {"platform": device.platform, "device_kind": device.device_kind, "jax_version": jax.__version__,
                    "count": len(jax.devices(platform)), "open_s": round(time.perf_counter() - t0, 3)}


def custom_calls(module_text: str) -> set[str]:
    return {a or b for a, b in _CUSTOM_CALL.findall(module_text)}


def program(job: dict[str, Any], platform: str) -> Any:
    """The job's exported program, checked; Refused for anything else."""
    from jax import export

    try:
        blob = base64.b64decode(job.get("program", ""), validate=True)
    except (TypeError, ValueError) as exc:
        raise Refused(f"not base64: {exc}") from None
    if not blob or len(blob) > wire.MAX_PROGRAM_BYTES:
        raise Refused(f"a program of {len(blob)} bytes")
    try:
        exported = export.deserialize(bytearray(blob))
    except Exception as exc:  # noqa: BLE001 (whatever the bytes are, they are not a program)
        raise Refused(f"not an exported program: {type(exc).__name__}") from None
    if exported.nr_devices != 1:
        raise Refused(f"a program for {exported.nr_devices} devices")
    calls = custom_calls(exported.mlir_module()) - wire.ALLOWED_CUSTOM_CALLS
    if calls:
        raise Refused(f"the program makes custom calls: {', '.join(sorted(calls))[:120]}")
    if platform not in exported.platforms:
        raise Refused(f"exported for {', '.join(exported.platforms)}, not {platform}")
    return exported


def load(job: dict[str, Any], platform: str) -> tuple[Any, list[Any]]:
    """The exported program and its inputs as NumPy arrays, checked; Refused for anything else."""
    import numpy as np

    try:
        raw_inputs = [base64.b64decode(b, validate=True) for b in job.get("inputs", [])]
    except (TypeError, ValueError) as exc:
        raise Refused(f"not base64: {exc}") from None
    if len(raw_inputs) > wire.MAX_INPUTS or sum(map(len, raw_inputs)) > wire.MAX_INPUT_BYTES:
        raise Refused("too many or too large inputs")
    exported = program(job, platform)
    avals = list(exported.in_avals)
    if len(raw_inputs) != len(avals):
        raise Refused(f"{len(raw_inputs)} inputs for {len(avals)} program inputs")
    arrays = []
    for data, aval in zip(raw_inputs, avals):
        try:
            value = np.load(io.BytesIO(data), allow_pickle=False)
        except Exception as exc:  # noqa: BLE001
            raise Refused(f"an input that is not an .npy array: {type(exc).__name__}") from None
        if not isinstance(value, np.ndarray) or value.shape != tuple(aval.shape) or value.dtype != aval.dtype:
            raise Refused("an input whose shape or dtype is not the program's")
        arrays.append(value)
    return exported, arrays


def run_job(job: dict[str, Any], device: Any, platform: str) -> dict[str, Any]:
    import jax

    exported, arrays = load(job, platform)
    on_device = [jax.device_put(a, device) for a in arrays]
    jax.block_until_ready(on_device)

    def arguments(flat: list[Any]) -> tuple[tuple, dict]:
        args, kwargs = jax.tree_util.tree_unflatten(exported.in_tree, flat)
        return tuple(args), dict(kwargs)

    args, kwargs = arguments(on_device)
    t0 = time.perf_counter()
    compiled = jax.jit(exported.call).lower(*args, **kwargs).compile()
    compile_s = time.perf_counter() - t0
    figures = analysis(compiled)
    jax.block_until_ready(compiled(*args, **kwargs))  # warm
    donated = any(x.is_deleted() for x in on_device)
    samples: list[float] = []
    spent = 0.0
    while len(samples) < wire.STEADY_MAX_SAMPLES and (spent < wire.STEADY_BUDGET_S or
                                                      len(samples) < wire.STEADY_MIN_SAMPLES):
        if donated:  # a program that donates its inputs gets fresh copies each call, made outside the clock
            on_device = [jax.device_put(a, device) for a in arrays]
            jax.block_until_ready(on_device)
            args, kwargs = arguments(on_device)
        t0 = time.perf_counter()
        jax.block_until_ready(compiled(*args, **kwargs))
        dt = time.perf_counter() - t0
        samples.append(dt)
        spent += dt
    del compiled, args, kwargs, on_device
    gc.collect()
    return {"ok": True, "steady_s": statistics.median(samples), "samples": [round(s, 7) for s in samples[:50]],
            "compile_s": round(compile_s, 6), **figures}


def check_job(job: dict[str, Any], device: Any, platform: str) -> dict[str, Any]:
    """A device check (``course.device_check``): the program run once on the device with inputs made here, its
    result against the exercise's float64 reference, the bytes the result takes there, and the matmul precisions
    its StableHLO asks for. Numbers only: the host decides the check."""
    import jax
    import numpy as np

    from jittrainer.grading.sandbox.jax_compat import memory_stats

    exported = program(job, platform)
    shapes = [tuple(int(d) for d in s) for s in job.get("shapes", [])]
    avals = list(exported.in_avals)
    if [tuple(a.shape) for a in avals] != shapes or any(a.dtype != np.float32 for a in avals):
        found = ", ".join(f"{a.dtype}{list(a.shape)}" for a in avals)[:200]
        return {"ok": True, "inputs_differ": found}
    rng = np.random.RandomState(int(job.get("seed", 0)))
    arrays = [rng.standard_normal(shape).astype(np.float32) for shape in shapes]
    args, kwargs = jax.tree_util.tree_unflatten(exported.in_tree, [jax.device_put(a, device) for a in arrays])
    compiled = jax.jit(exported.call).lower(*args, **kwargs).compile()
    leaves = jax.tree_util.tree_leaves(compiled(*args, **kwargs))
    if len(leaves) != 1:
        return {"ok": True, "outputs": len(leaves)}
    memory = memory_stats(compiled) or {}
    logical = int(leaves[0].nbytes)
    out = np.asarray(jax.device_get(leaves[0]), dtype=np.float64)
    try:
        ref = np.asarray(reference(str(job.get("reference", "")))(*[a.astype(np.float64) for a in arrays]),
                         dtype=np.float64)
    except Exception as exc:  # noqa: BLE001  (the exercise's file, not the learner's program: said as such)
        return {"ok": True, "reference_fault": f"{type(exc).__name__}: {exc}"[:300]}
    reply: dict[str, Any] = {"ok": True, "precisions": precisions(exported.mlir_module()),
                             "shape": list(out.shape), "reference_shape": list(ref.shape),
                             "output_logical_bytes": logical,
                             "output_bytes": memory.get("output")}
    if job.get("any_shape") and out.size == ref.size:  # the same values in row-major order, in any shape
        out = out.reshape(ref.shape)
    if out.shape == ref.shape:
        scale = float(np.max(np.abs(ref))) if ref.size else 0.0
        worst = float(np.max(np.abs(out - ref))) if ref.size else 0.0
        reply["error"] = worst / scale if scale > 0 and np.isfinite(worst) else (0.0 if worst == 0 else None)
    del compiled, args, kwargs
    gc.collect()
    return reply


def reference(path: str) -> Any:
    """The exercise's ``reference`` function (NumPy on float64), from the path the host named."""
    import runpy

    namespace = runpy.run_path(path, run_name="device_reference")
    fn = namespace.get("reference")
    if not callable(fn):
        raise Refused(f"{os.path.basename(path)} defines no reference()")
    return fn


_PRECISION = re.compile(r"precision = \[(\w+)|num_primitive_operations = (\d+)")


def precisions(module_text: str) -> list[str]:
    """The precision each matrix product of the program asks for: DEFAULT when it names none, the precision it
    names (HIGH, HIGHEST), or the number of passes of a dot algorithm."""
    found = []
    for line in module_text.splitlines():
        if "stablehlo.dot_general" not in line and "stablehlo.convolution" not in line:
            continue
        m = _PRECISION.search(line)
        word = "DEFAULT" if m is None else (m.group(1) or f"{m.group(2)} passes (dot algorithm)")
        if word not in found:
            found.append(word)
    return found[:8]


def analysis(compiled: Any) -> dict[str, Any]:
    """Plain numbers from XLA's cost and memory analyses of the compiled program (None where one is missing)."""
    out: dict[str, Any] = {"flops": None, "bytes_accessed": None, "memory": {}}
    try:
        cost = compiled.cost_analysis()
        cost = cost[0] if isinstance(cost, list) and cost else cost
        if isinstance(cost, dict):
            out["flops"] = _number(cost.get("flops"))
            out["bytes_accessed"] = _number(cost.get("bytes accessed"))
    except Exception:  # noqa: BLE001 (a backend without the analysis)
        pass
    from jittrainer.grading.sandbox.jax_compat import memory_stats

    out["memory"] = memory_stats(compiled) or {}
    return out


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and value >= 0 else None


def serve(platform: str, job_fd: int, reply_fd: int) -> int:
    try:
        device, facts = open_device(platform)
    except Exception as exc:  # noqa: BLE001 (no such device, or another process holds it)
        wire.send(reply_fd, {"type": "ready", "ok": False, "error": f"{type(exc).__name__}: {str(exc)[:300]}"})
        return 1
    wire.send(reply_fd, {"type": "ready", "ok": True, **facts})
    while True:
        try:
            job = wire.receive(job_fd)
        except (ChannelClosed, ProtocolError, OSError):
            return 0
        try:
            reply = check_job(job, device, platform) if job.get("kind") == "check" else run_job(job, device, platform)
        except Refused as exc:
            reply = {"ok": False, "reason": "refused", "detail": str(exc)[:300]}
        except Exception as exc:  # noqa: BLE001 (the program failed on the device: said, never fatal)
            reply = {"ok": False, "reason": "failed", "detail": f"{type(exc).__name__}: {str(exc)[:300]}"}
        wire.send(reply_fd, {"type": "reply", **reply})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="jittrainer-device-executor")
    parser.add_argument("--platform", required=True, choices=("cpu",) + wire.PLATFORMS)
    parser.add_argument("--job-fd", type=int, required=True)
    parser.add_argument("--reply-fd", type=int, required=True)
    args = parser.parse_args(argv)
    sys.stdin.close()
    os.environ.setdefault("JAX_PLATFORMS", args.platform if args.platform == "cpu" else f"{args.platform},cpu")
    return serve(args.platform, args.job_fd, args.reply_fd)


if __name__ == "__main__":
    sys.exit(main())
