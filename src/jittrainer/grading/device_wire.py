"""What travels to and from the device executor (``grading.device.executor``), and its limits: no jax here.

The host sends the executor one job at a time: a program exported by a grading worker (``jax.export`` bytes) and its
inputs (``.npy`` bytes). Both came from a process that ran the learner's code, so they are untrusted: their sizes
are bounded on the host before they are sent, and the executor refuses anything it cannot read as an exported
program, a program that calls out of the device (a custom call outside ``ALLOWED_CUSTOM_CALLS``), and inputs that
are not plain arrays of the program's shapes. The executor answers each job with one reply.
"""

from __future__ import annotations

import json
import os
from typing import Any

from jittrainer.grading.protocol import HEADER, read_payload

MAX_PROGRAM_BYTES = 4 * 2**20  # a graded program is tens of KiB
MAX_INPUT_BYTES = 8 * 2**20  # the graded calls' inputs are small arrays
MAX_INPUTS = 256
PLATFORMS = ("tpu", "gpu")  # what --device can name besides cpu (gpu: the same design, untested)
# Custom calls a program may hold: sharding annotations, which stay on the device. A host callback
# (xla_python_*_callback, xla_ffi_python_*) or any other target is refused.
ALLOWED_CUSTOM_CALLS = frozenset({"Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape",
                                  "annotate_device_placement"})
# Why a figure stays on the CPU (a DeviceProgramFrame's reason, or the host's own).
REASONS = ("no_jitted_call", "ahead_of_time", "host_callback", "not_exportable", "too_large", "refused", "failed",
           "unavailable", "several_devices")

# The steady state, on the CPU (``sandbox.timing``) and on the device alike: the median of calls for a budget,
# within bounds.
STEADY_BUDGET_S = 0.3
STEADY_MAX_SAMPLES = 200
STEADY_MIN_SAMPLES = 5


def send(fd: int, data: dict[str, Any]) -> None:
    payload = json.dumps(data).encode("utf-8")
    view = memoryview(HEADER.pack(len(payload)) + payload)
    while view:
        view = view[os.write(fd, view):]


def receive(fd: int) -> dict[str, Any]:
    """One message; ProtocolError (over the size limit, not JSON), ChannelClosed (the other side ended)."""
    from jittrainer.grading.protocol import ProtocolError

    try:
        data = json.loads(read_payload(fd).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        if isinstance(exc, ProtocolError):
            raise
        raise ProtocolError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("not a JSON object")
    return data
