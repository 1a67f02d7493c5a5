"""The transfer and read counter: where a training loop makes the host wait for the device, and where it moves data to
the device without saying so.

Host-to-device: ``jax.transfer_guard_host_to_device("disallow")`` (public) makes JAX raise at every implicit transfer
(a NumPy array or a Python number handed to a jitted function or to an eager ``jax.numpy`` operation), on the CPU
backend too; ``jax.device_put`` stays allowed. Device-to-host: on the CPU backend the matching guard never fires (the
host reads the buffer in place), so the reads are counted by spies instead (``jax_compat.watch_host_syncs``), each
with the learner's line that caused it. Installed from an exercise's ``setup(g)``, before the learner's file is
imported."""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from collections.abc import Callable
from typing import Any

import jax

import jittrainer.grading.sandbox.jax_compat.runtime  # noqa: F401  (its file: the spies frames)
from jittrainer.grading.sandbox import jax_compat
from jittrainer.grading.sandbox.jax_compat import DISALLOWED_TRANSFER, watch_host_syncs
from jittrainer.grading.verdict import ErrorInfo

_SPIES = jax_compat.runtime.__file__  # where the read spies live
_GRADER = "jittrainer"  # the grader's modules and an exercise's checks (loaded as jittrainer_checks_<id>)


def spy_host_syncs(filename: str, on_sync: Callable[[str, int | None], None],
                   when: Callable[[], bool] = lambda: True) -> Callable[[], None]:
    """``on_sync(how, line)`` for each host sync (a read of a jax.Array's value, ``block_until_ready``) made while
    ``when()`` holds, by the learner's code: ``line`` is the line of ``filename`` it came from (None when no frame of
    that file is on the stack). Reads the grader makes (its jit spy's copies, a callback of the exercise's that the
    learner calls) are not reported. Returns the undo."""

    def on_host_sync(how: str) -> None:
        if not when():
            return
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename == _SPIES:  # the spy's own frames
                frame = frame.f_back
                continue
            if frame.f_code.co_filename == filename:
                on_sync(how, frame.f_lineno)
                return
            if str(frame.f_globals.get("__name__", "")).startswith(_GRADER):
                return
            frame = frame.f_back
        on_sync(how, None)

    return watch_host_syncs(on_host_sync)


def no_implicit_transfers(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` run under ``jax.transfer_guard_host_to_device("disallow")``: an implicit transfer raises (see
    ``implicit_transfer``), an explicit ``jax.device_put`` passes."""

    @functools.wraps(fn)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        with jax.transfer_guard_host_to_device("disallow"):
            return fn(*args, **kwargs)

    return guarded


@dataclass(frozen=True)
class Transfer:
    """An implicit transfer the guard stopped: the type of the value (``"float32[32,8]"``, as JAX writes it) and
    whether it was weakly typed (a Python number: ``float32[]`` from ``0.1``, ``int32[]`` from ``3``)."""

    aval: str
    python_number: bool


def implicit_transfer(error: ErrorInfo | None) -> Transfer | None:
    """What an implicit transfer tried to move, when ``error`` is the transfer guard's; else None."""
    found = DISALLOWED_TRANSFER.search(error.message) if error is not None else None
    if not found:
        return None
    aval = found.group("aval")
    return Transfer(aval.replace(", weak_type=True", ""), "weak_type=True" in aval)


class BatchLoader:
    """A data loader for a graded training loop: ``len()``, iteration and indexing give the batches, and
    ``on_take(number)`` (1-based) runs each time one is handed out, so a check can date what the loop did (a log call,
    a sync) against the batches it had taken. It is not a pytree: a loop must take the batches one by one."""

    def __init__(self, batches: list[Any], on_take: Callable[[int], None]) -> None:
        self._batches, self._on_take = batches, on_take

    def __len__(self) -> int:
        return len(self._batches)

    def __getitem__(self, i: int) -> Any:
        batch = self._batches[i]  # an IndexError ends a for loop over a loader without __iter__, as for a list
        self._on_take(range(len(self._batches))[i] + 1)
        return batch

    def __iter__(self) -> Any:
        return (self[i] for i in range(len(self._batches)))
