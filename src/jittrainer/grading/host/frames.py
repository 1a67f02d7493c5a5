"""Reading a worker's frames under a deadline and the memory limit, in the order that keeps a verdict that arrived.

Every frame already queued is read before memory is judged: a verdict that arrived must not be thrown away for an
overrun measured after it, nor the overrun be said to have happened in a phase the run had already left (on a host
whose workers were read as 30 GB, the first memory check came after the whole grade, with the verdict queued). A
flood of frames still gets memory judged every MEMORY_EVERY_S.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from jittrainer.i18n.message import Msg

if TYPE_CHECKING:
    from jittrainer.grading.host.process import WorkerProcess

POLL_S = 0.05
MEMORY_EVERY_S = 0.25
TIMED_OUT = object()  # next(): the deadline passed
_NOTHING = object()


class FrameReader:
    """``next(deadline)``: the next frame from ``worker`` (None once the channel closed), the message of
    ``over_memory()`` when it reports an overrun, or TIMED_OUT."""

    def __init__(self, worker: WorkerProcess, over_memory: Callable[[], Msg | None]) -> None:
        self.worker = worker
        self.over_memory = over_memory
        self.judged_at = float("-inf")

    def next(self, deadline: float) -> object:
        while True:
            if time.monotonic() >= deadline:
                return TIMED_OUT
            try:
                frame = self.worker.next_message(0)
            except queue.Empty:
                frame = _NOTHING
            if frame is _NOTHING or time.monotonic() - self.judged_at >= MEMORY_EVERY_S:
                self.judged_at = time.monotonic()
                over = self.over_memory()
                if over is not None:
                    return over
            if frame is not _NOTHING:
                return frame
            try:
                return self.worker.next_message(min(deadline - time.monotonic(), POLL_S))
            except queue.Empty:
                continue
