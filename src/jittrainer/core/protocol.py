"""The private channel between the runner and a worker: length-prefixed JSON frames on inherited pipe fds.

The learner's stdout and stderr are separate pipes that the runner only caps and keeps as text, so nothing the
learner prints (a fake verdict included) or closes can reach or break this channel.
"""

from __future__ import annotations

import json
import os
import struct
from typing import Any

HEADER = struct.Struct(">I")
MAX_FRAME = 64 * 1024 * 1024

# Message types, worker -> runner.
READY = "ready"  # jax imported and initialised; waiting for a job
PHASE = "phase"  # what the worker is doing now ("import", "call 2"), so a timeout can say where it hung
RESULT = "result"  # answer to a non-grading job (a probe, a drill proof)
CRASH = "crash"  # the grader itself failed (a bug in jittrainer, not in the learner's code)
VERDICT = "verdict"
TIMING = "timing"
DONE = "done"
# Runner -> worker.
JOB = "job"


class ChannelClosed(EOFError):
    pass


def encode(message: dict[str, Any]) -> bytes:
    payload = json.dumps(message, default=_jsonable).encode("utf-8")
    return HEADER.pack(len(payload)) + payload


def write_message(fd: int, message: dict[str, Any]) -> None:
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


def read_message(fd: int) -> dict[str, Any]:
    (size,) = HEADER.unpack(read_exact(fd, HEADER.size))
    if size > MAX_FRAME:
        raise ValueError(f"frame of {size} bytes is over the {MAX_FRAME} byte limit")
    message = json.loads(read_exact(fd, size).decode("utf-8"))
    if not isinstance(message, dict) or "type" not in message:
        raise ValueError("malformed message on the result channel")
    return message


def _jsonable(value: Any) -> Any:
    # numpy scalars and arrays that slip into check messages or timing
    if hasattr(value, "tolist"):
        return value.tolist()
    return repr(value)
