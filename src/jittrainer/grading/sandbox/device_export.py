"""The graded program, exported for an accelerator: after the verdict and its CPU timing, when the job asks for a
device (``TimingRequest.device``), the worker serialises the first jitted call of the graded calls with
``jax.export`` for that platform, with its input values, for the host's device executor (``grading.host.device``).

No device is opened here: exporting for a TPU works in a CPU-only process. What cannot be exported (host callbacks,
a program too large to send, arguments that are not arrays) stays on the CPU, with the reason in words.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np

from jittrainer.grading.device_wire import MAX_INPUT_BYTES, MAX_PROGRAM_BYTES
from jittrainer.grading.protocol import DeviceProgramFrame


def export_first_call(context: Any, platform: str, token: str, *, with_inputs: bool = True) -> DeviceProgramFrame:
    """The frame for the first jitted call (with array arguments) of the graded calls: the program and its inputs
    (none without ``with_inputs``: a device check's executor makes its own), or the reason it stays on the CPU."""
    call = _first_call(context)
    if call is None:
        return DeviceProgramFrame(token, reason="no_jitted_call")
    fn, args, kwargs, leaves, function = call
    if not hasattr(fn, "trace"):
        return DeviceProgramFrame(token, reason="ahead_of_time")
    try:
        exported, inputs = export_call(fn, args, kwargs, leaves=leaves, platform=platform, with_inputs=with_inputs)
    except TooLarge as exc:
        return DeviceProgramFrame(token, reason="too_large", detail=str(exc)[:200])
    except Unexportable as exc:
        return DeviceProgramFrame(token, reason="not_exportable", detail=str(exc)[:200])
    except BaseException as exc:  # noqa: BLE001 (host callbacks, effects, a custom call: export says which)
        text = f"{type(exc).__name__}: {str(exc)[:200]}"
        # A host callback lowers for the CPU it was traced on only (JAX says the platforms differ, or names it).
        callback = "callback" in text or "different from the lowering platform" in text
        return DeviceProgramFrame(token, reason="host_callback" if callback else "not_exportable", detail=text)
    return DeviceProgramFrame(token, program=exported, inputs=inputs, function=str(function)[:80])


def _first_call(context: Any) -> tuple[Any, tuple, dict, list[Any], str] | None:
    """(jitted function, args, kwargs, program input values, name) of the first jitted call with arrays: one the
    learner's code made (the jit spy saw it), else the graded call of a function the grader jitted itself."""
    import jax

    first = context.jit_spy.first
    if first is not None:
        if first.ahead_of_time:
            return first.fn, (), {}, [], first.function
        args, kwargs = first.arguments()
        return first.fn, args, kwargs, first.dynamic_leaves(), first.function
    graded = context.graded_calls[0] if context.graded_calls else None
    if context.call_mode == "plain" or graded is None or not graded.records:
        return None
    record = graded.records[0]
    args = record.host_args if record.host_args is not None else record.args
    return graded.fn, tuple(args), {}, jax.tree_util.tree_leaves(tuple(args)), context.function_name


class Unexportable(ValueError):
    pass


class TooLarge(ValueError):
    pass


def export_call(fn: Any, args: tuple, kwargs: dict, *, leaves: list[Any], platform: str,
                with_inputs: bool = True) -> tuple[bytes, list[bytes]]:
    """``fn`` (what ``jax.jit`` returned) exported for ``platform`` at these arguments: the serialised program and
    each program input as ``.npy`` bytes, in the program's order (none without ``with_inputs``)."""
    import jax

    with jax.default_device(jax.devices("cpu")[0]):
        exported = jax.export.export(fn, platforms=[platform])(*args, **kwargs)
    program = bytes(exported.serialize())
    if len(program) > MAX_PROGRAM_BYTES:
        raise TooLarge(f"the program is {len(program)} bytes (limit {MAX_PROGRAM_BYTES})")
    avals = list(exported.in_avals)
    if not with_inputs:
        return program, []
    if len(leaves) != len(avals):
        raise Unexportable(f"{len(leaves)} argument values for {len(avals)} program inputs")
    inputs, total = [], 0
    for leaf, aval in zip(leaves, avals):
        value = np.asarray(leaf)
        if value.dtype == object:  # before astype, which would raise on it
            raise Unexportable("an argument that is not an array")
        if value.shape != tuple(aval.shape):
            raise Unexportable(f"an argument of shape {value.shape} for a program input of shape {aval.shape}")
        value = value.astype(aval.dtype, copy=False)
        buffer = io.BytesIO()
        np.save(buffer, value, allow_pickle=False)
        data = buffer.getvalue()
        total += len(data)
        if total > MAX_INPUT_BYTES:
            raise TooLarge(f"the inputs are over {MAX_INPUT_BYTES} bytes")
        inputs.append(data)
    return program, inputs
