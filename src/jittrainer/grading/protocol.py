"""The private channel between the host and a grading worker: typed frames, encoded and decoded only here.

Frames are length-prefixed JSON on inherited pipe fds. The learner's stdout and stderr are separate pipes that the
host only caps and keeps as text, so nothing the learner prints reaches this channel. The result fd is named on
the worker's command line, so a submission could write to it: every frame that reports an outcome (a verdict, its
timing, a task's result) carries the job's **token**, which arrives on the job channel only (never on the command
line or in the environment). The host refuses an outcome frame without it (a crash report included) and accepts
one verdict per job. The token stops frames forged by printing or by writing to an inherited descriptor; it does
not stop code that reads the worker's memory (frames, ``gc``, ``/proc/self/mem``), which can find it. ``Phase``
frames are sent while the learner's code runs, so a token on them would be within its reach: they carry none, are
checked against the few phases there are, and are used for nothing but saying where a run was. ``CheckFrame``
carries one check's result the moment the check records it: the host refuses a pass unless each of its checks was
sent as passed when it ran, so a result rewritten later (by a thread the learner's code left running) cannot pass.

Host → worker: one ``GradeJob``, ``RunJob`` (a scratch run), ``ProofJob`` or ``ProbeJob``. Worker → host:
``Ready``, then ``Phase`` updates and a ``CheckFrame`` per check, then ``VerdictFrame`` (+ ``TimingFrame``)
(+ ``DeviceProgramFrame``, when the timing asks for a device) (+ ``ReviewFrame``, for a passing program when the job
asks for a review), ``TaskResult`` or ``Crash``.
"""

from __future__ import annotations

import base64
import json
import os
import re
import struct
from dataclasses import asdict, dataclass, field
from typing import Any

HEADER = struct.Struct(">I")
MAX_FRAME = 16 * 1024 * 1024  # a verdict is far smaller (output is capped at 64 KiB in the worker)
PHASE = re.compile(r"(?:starting|import|checks|run|call [0-9]{1,6})\Z")


class ProtocolError(ValueError):
    """A frame that does not decode into a valid message."""


class ChannelClosed(EOFError):
    pass


# ---------------------------------------------------------------------------------------------------- jobs


@dataclass
class TimingRequest:
    enabled: bool = True
    eager: bool = False  # also time the call under jax.disable_jit()
    starter: bool = False  # also time the starter over the same calls
    starter_cached: dict[str, Any] | None = None  # the starter's timing measured earlier, if any
    device: str = ""  # a platform ("tpu") to export the graded program for after the timing; "": none


@dataclass
class GradeJob:
    exercise: str
    function: str
    call: str  # "jit" | "plain"
    checks_path: str
    starter_path: str
    filename: str  # where the learner's file lives: tracebacks and the editor's marks point here
    source: bytes
    seed: int
    token: str
    lang: str = "en"
    timing: TimingRequest = field(default_factory=TimingRequest)
    review: bool = False  # after a pass (and its timing): measure the program for the review (grading.review)
    # An exercise graded in several processes in turn (manifest ``grading.processes``): which one this is, the folder
    # they share, and what the one before carried forward (``g.carry``).
    process: int = 0
    processes: int = 1
    shared_dir: str = ""
    carried: dict[str, Any] = field(default_factory=dict)
    # The platform of the exercise's device check ([grading.device]): after a pass the worker exports the first
    # jitted call for it, before any timing ('' for none).
    device_check: str = ""
    kind: str = "grade"


@dataclass
class RunJob:
    """A scratch run: the learner's file run as a program (``__name__ == "__main__"``), ungraded."""

    exercise: str
    function: str
    call: str
    checks_path: str  # for the exercise's message catalog only: its checks are not run
    filename: str
    source: bytes
    token: str
    lang: str = "en"
    kind: str = "run"


@dataclass
class ProofJob:
    card: str
    code: str
    setup: str
    token: str
    kind: str = "proof"


@dataclass
class ProbeJob:
    token: str
    kind: str = "probe"


Job = GradeJob | RunJob | ProofJob | ProbeJob

# ------------------------------------------------------------------------------------------------- frames


@dataclass
class Ready:
    pid: int
    import_s: float
    devices: int
    type: str = "ready"


@dataclass
class Phase:
    phase: str  # "import", "call 2", "checks": so a timeout can say where it hung
    type: str = "phase"


@dataclass
class CheckFrame:
    """One check's result, sent when the check recorded it (before the verdict is built)."""

    token: str
    check: str
    status: str  # "pass" | "fail" | "error"
    type: str = "check"


@dataclass
class CarryFrame:
    """What a process that is not the last one hands to the next (``g.carry``), sent before its verdict."""

    token: str
    data: dict[str, Any]
    type: str = "carry"


@dataclass
class VerdictFrame:
    token: str
    verdict: dict[str, Any]  # Verdict.to_dict(); decoded by the host with Verdict.from_dict
    type: str = "verdict"


@dataclass
class TimingFrame:
    token: str
    timing: dict[str, Any]
    type: str = "timing"


@dataclass
class ReviewFrame:
    """What the passing program costs and holds, measured after the verdict and its timing: plain numbers and
    primitive names (``grading.review.ProgramMeasures``). It never changes the verdict."""

    token: str
    measures: dict[str, Any]
    type: str = "review"


@dataclass
class DeviceProgramFrame:
    """The graded program exported for the device the job asked for (``GradeJob.device_check``: right after a
    passing verdict, without inputs; ``TimingRequest.device``: after the timing): the serialised program and its
    inputs (``.npy`` bytes; base64 on the wire), or why it stays on the CPU (``reason``: a word from
    ``grading.device_wire.REASONS``). Untrusted bytes: the host bounds and checks them."""

    token: str
    program: Any = b""
    inputs: list[Any] = field(default_factory=list)
    function: str = ""
    reason: str = ""
    detail: str = ""
    type: str = "device"


@dataclass
class TaskResult:
    """The answer to a proof or a probe: ``data`` holds the facts, ``error`` says why there are none."""

    token: str
    ok: bool
    data: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    type: str = "result"


@dataclass
class Crash:
    """The grader itself failed (a bug in jittrainer, not in the learner's code)."""

    token: str
    traceback: str
    type: str = "crash"


Frame = (Ready | Phase | CheckFrame | CarryFrame | VerdictFrame | TimingFrame | ReviewFrame | DeviceProgramFrame
         | TaskResult | Crash)

_FRAMES: dict[str, type] = {"ready": Ready, "phase": Phase, "check": CheckFrame, "carry": CarryFrame,
                            "verdict": VerdictFrame,
                            "timing": TimingFrame, "review": ReviewFrame, "device": DeviceProgramFrame,
                            "result": TaskResult, "crash": Crash}
_JOBS: dict[str, type] = {"grade": GradeJob, "run": RunJob, "proof": ProofJob, "probe": ProbeJob}
_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "pid": (int,), "import_s": (int, float), "devices": (int,), "phase": (str,), "token": (str,),
    "verdict": (dict,), "timing": (dict, TimingRequest), "ok": (bool,), "data": (dict,), "error": (str,), "traceback": (str,),
    "review": (bool,), "measures": (dict,), "check": (str,), "status": (str,),
    "process": (int,), "processes": (int,), "shared_dir": (str,), "carried": (dict,),
    "program": (str, bytes), "inputs": (list,), "function": (str,), "reason": (str,), "detail": (str,),
}

# ------------------------------------------------------------------------------------------------ encoding


def encode(message: Any) -> bytes:
    payload = json.dumps(_plain(message), default=_jsonable).encode("utf-8")
    return HEADER.pack(len(payload)) + payload


def _plain(message: Any) -> dict[str, Any]:
    data = asdict(message)
    if isinstance(message, (GradeJob, RunJob)):
        data["source"] = base64.b64encode(message.source).decode("ascii")
    return data


def _jsonable(value: Any) -> Any:
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if hasattr(value, "tolist"):  # NumPy scalars and arrays that slip into timing or data
        return value.tolist()
    return repr(value)


def decode_frame(payload: bytes) -> Frame:
    """A worker's frame; ProtocolError for anything that is not one."""
    data = _json(payload)
    kind = _FRAMES.get(data.get("type"))  # type: ignore[arg-type]
    if kind is None:
        raise ProtocolError(f"unknown frame type {data.get('type')!r}")
    return _build(kind, data)


def decode_job(payload: bytes) -> Job:
    data = _json(payload)
    kind = _JOBS.get(data.get("kind"))  # type: ignore[arg-type]
    if kind is None:
        raise ProtocolError(f"unknown job kind {data.get('kind')!r}")
    if kind in (GradeJob, RunJob):
        data = dict(data)
        try:
            data["source"] = base64.b64decode(data["source"], validate=True)
            if kind is GradeJob:
                data["timing"] = TimingRequest(**data.get("timing", {}))
        except (KeyError, TypeError, ValueError) as exc:
            raise ProtocolError(f"malformed {kind.__name__}: {exc}") from None
    return _build(kind, data)


def _json(payload: bytes) -> dict[str, Any]:
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ProtocolError(f"a frame that is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("a frame that is not a JSON object")
    return data


def _build(kind: type, data: dict[str, Any]) -> Any:
    try:
        obj = kind(**{k: v for k, v in data.items() if k in kind.__dataclass_fields__})
    except TypeError as exc:
        raise ProtocolError(f"malformed {kind.__name__}: {exc}") from None
    for name in kind.__dataclass_fields__:
        allowed = _FIELD_TYPES.get(name)
        value = getattr(obj, name)
        if allowed and (not isinstance(value, allowed) or (bool not in allowed and isinstance(value, bool))):
            raise ProtocolError(f"malformed {kind.__name__}: {name} is {type(value).__name__}")
    if kind is Phase and not PHASE.match(obj.phase):
        raise ProtocolError(f"a phase that does not exist: {obj.phase[:40]!r}")
    return obj


# ------------------------------------------------------------------------------------------------------ io


def write(fd: int, message: Any) -> None:
    data = memoryview(encode(message))
    while data:
        written = os.write(fd, data)
        data = data[written:]


def read_exact(fd: int, size: int) -> bytes:
    chunks, remaining = [], size
    while remaining:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            raise ChannelClosed("the other side closed the channel")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def read_payload(fd: int) -> bytes:
    (size,) = HEADER.unpack(read_exact(fd, HEADER.size))
    if size > MAX_FRAME:
        raise ProtocolError(f"frame of {size} bytes is over the {MAX_FRAME} byte limit")
    return read_exact(fd, size)
