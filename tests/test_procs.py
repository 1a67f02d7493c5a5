"""The job's processes as /proc lists them, on a fake /proc: each process is counted once, however its kernel lists
threads. (gVisor lists a child's threads in ``/proc/<pid>/task/<tid>/children``: a 474 MB worker with 65 threads
was read as 30.8 GB, and the walk read every thread's task list once per thread.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from jittrainer.grading.host import procs
from jittrainer.grading.host.frames import TIMED_OUT, FrameReader

PAGE = procs._PAGE


def fake_process(root: Path, pid: int, threads: list[int], children: dict[int, list[int]], pages: int) -> None:
    """``pid`` with ``threads`` (its own id among them), each thread's ``children`` list, and a resident size."""
    (root / str(pid)).mkdir(parents=True)
    (root / str(pid) / "statm").write_text(f"{pages * 3} {pages} 0 0 0 0 0\n")
    for tid in threads:
        task = root / str(pid) / "task" / str(tid)
        task.mkdir(parents=True)
        task.joinpath("children").write_text(" ".join(map(str, children.get(tid, []))) + (" " if tid in children else ""))
        # Like /proc/<tid>/status for a thread that is not listed in /proc itself: readable, with its group's Tgid.
        status = root / str(tid) / "status" if tid != pid else root / str(pid) / "status"
        status.parent.mkdir(parents=True, exist_ok=True)
        status.write_text(f"Name:\tpython\nTgid:\t{pid}\nPid:\t{tid}\n")


@pytest.fixture
def gvisor_proc(tmp_path, monkeypatch):
    """A supervisor (100) whose child, the worker (200), has 30 threads, all listed under 100's children as gVisor
    does; the worker has one child process (300) with 3 threads, listed likewise."""
    worker_threads = [200, *range(201, 230)]
    fake_process(tmp_path, 100, [100], {100: worker_threads}, pages=100)
    fake_process(tmp_path, 200, worker_threads, {203: [300, 301, 302]}, pages=1000)
    fake_process(tmp_path, 300, [300, 301, 302], {}, pages=10)
    monkeypatch.setattr(procs, "PROC", str(tmp_path))
    return tmp_path


def test_a_child_s_threads_are_not_children(gvisor_proc):
    assert procs.children_of(100) == {200}
    assert procs.children_of(200) == {300}
    assert procs.subtree(100) == {200, 300}


def test_each_process_s_memory_counts_once(gvisor_proc):
    assert procs.tree_rss(procs.subtree(100)) == (1000 + 10) * PAGE


def test_a_process_that_is_gone_is_not_a_child(gvisor_proc):
    (gvisor_proc / "300" / "status").unlink()  # it exited between the two reads
    assert procs.children_of(200) == set()


class QueueWorker:
    """A worker whose channel already holds ``frames`` (then nothing)."""

    def __init__(self, frames):
        self.frames = list(frames)

    def next_message(self, timeout):
        import queue
        if self.frames:
            return self.frames.pop(0)
        raise queue.Empty


def test_queued_frames_are_read_before_memory_is_judged():
    """A verdict that arrived before an overrun was seen is read, not thrown away: memory is judged only once the
    queue is empty (or, in a flood, every MEMORY_EVERY_S)."""
    judged = []
    reader = FrameReader(QueueWorker(["phase call 1", "verdict", "timing"]), lambda: judged.append(1) or "over")
    reader.judged_at = float("inf")  # judged just now: the flood rule does not apply yet
    import time
    deadline = time.monotonic() + 60
    assert [reader.next(deadline) for _ in range(3)] == ["phase call 1", "verdict", "timing"]
    assert judged == []
    assert reader.next(deadline) == "over"  # the queue is empty: now memory is judged, and it is over


def test_a_passed_deadline_is_a_timeout_even_with_frames_queued():
    reader = FrameReader(QueueWorker(["phase"]), lambda: None)
    assert reader.next(0.0) is TIMED_OUT
