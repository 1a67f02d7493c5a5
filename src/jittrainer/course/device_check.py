"""``[grading.device]``: a check that only an accelerator can decide, read from the manifest (no jax here).

The worker grades everything else on the CPU and leaves the named check waiting (``g.on_device``). After a pass,
the session's device executor (``grading.executor``) runs the program the worker exported on the accelerator, with
inputs it makes itself from ``inputs`` and ``seed``, and measures it against the exercise's own float64 reference
(``device_reference.py``, NumPy only); the host decides the check from those numbers. On a machine whose device
mode gives none of ``platforms``, the exercise is unavailable and says why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from jittrainer.i18n import _

REFERENCE_FILE = "device_reference.py"
PLATFORMS = ("tpu", "gpu", "cpu")  # cpu: for the toolkit's own tests; a course exercise names an accelerator
MAX_ELEMENTS = 2**22  # all inputs together: the executor makes them, and the host never sees them

# The platform this process grades device checks on: set once from the device mode (``set_platform``), '' for none.
_platform = ""


@dataclass(frozen=True)
class DeviceCheck:
    platforms: tuple[str, ...]
    check: str  # the id in CHECKS the device decides
    inputs: tuple[tuple[int, ...], ...]  # float32 input shapes, in the function's order
    max_error: float  # max|out - ref| / max|ref| against the float64 reference
    seed: int = 0
    max_output_factor: float | None = None  # the result's bytes on the device / its logical bytes, at most
    any_shape: bool = False  # the result may have any shape holding the reference's values in row-major order


def set_platform(platform: str) -> None:
    """The device mode's platform ('' for the CPU alone): which device checks this process can decide."""
    global _platform
    _platform = platform


def unavailable_reason(check: DeviceCheck) -> str:
    """'' when this process's device mode can decide ``check``, else why not, in words."""
    if _platform in check.platforms or "cpu" in check.platforms:  # the executor can always run on the CPU
        return ""
    names = "/".join(p.upper() for p in check.platforms)
    return _("graded on a {device} by the device executor: run jittrainer --device auto on a machine with one "
             "(this one grades on the CPU alone)").format(device=names)


def read(value: object, bad) -> DeviceCheck | None:
    """``value`` (the ``[grading.device]`` table) as a DeviceCheck; ``bad(label, message)`` for each problem."""
    if value is None:
        return None
    if not isinstance(value, dict):
        bad("grading.device", "expected a table: platforms, check, inputs, max_error")
        return None
    known = {"platforms", "check", "inputs", "max_error", "seed", "max_output_factor", "any_shape"}
    for name in sorted(set(value) - known):
        bad(f"grading.device.{name}", "not a manifest key (known: see docs/authoring.md)")
    platforms = value.get("platforms")
    if not isinstance(platforms, list) or not platforms or not all(p in PLATFORMS for p in platforms):
        bad("grading.device.platforms", f"expected a list of platforms among {', '.join(PLATFORMS)}")
        return None
    check = value.get("check")
    if not isinstance(check, str) or not check.isidentifier():
        bad("grading.device.check", "expected the id of a check in CHECKS")
        return None
    shapes = value.get("inputs")
    ok = isinstance(shapes, list) and 0 < len(shapes) <= 8 and all(
        isinstance(s, list) and len(s) <= 4 and all(isinstance(d, int) and not isinstance(d, bool) and 0 < d
                                                    for d in s) for s in shapes)
    if not ok:
        bad("grading.device.inputs", "expected a list of float32 input shapes, such as [[512, 512], [512, 512]]")
        return None
    elements = sum(math.prod(s) for s in shapes)
    if elements > MAX_ELEMENTS:
        bad("grading.device.inputs", f"{elements} elements in all: at most {MAX_ELEMENTS}")
        return None
    max_error = value.get("max_error")
    if not isinstance(max_error, (int, float)) or isinstance(max_error, bool) or not 0 < max_error < 1:
        bad("grading.device.max_error", "expected a relative error between 0 and 1, such as 1e-4")
        return None
    seed = value.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        bad("grading.device.seed", "expected a non-negative integer")
        return None
    factor = value.get("max_output_factor")
    if factor is not None and (not isinstance(factor, (int, float)) or isinstance(factor, bool) or factor < 1):
        bad("grading.device.max_output_factor", "expected a factor of at least 1, such as 1.25")
        return None
    any_shape = value.get("any_shape", False)
    if not isinstance(any_shape, bool):
        bad("grading.device.any_shape", "expected true or false")
        return None
    return DeviceCheck(tuple(platforms), check, tuple(tuple(s) for s in shapes), float(max_error), seed,
                       float(factor) if factor is not None else None, any_shape)
