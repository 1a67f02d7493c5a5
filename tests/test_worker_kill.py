"""Killing a grading job never reaches a process outside it.

A cancelled grade used to be killed twice: by the cancel, then by its run's own clean-up. The second kill found a
supervisor that had ended by a signal, as if the learner's code had killed it, and swept the host's orphans: the
host's children in a session of their own that are not registered supervisors. The next grade's worker, started at
that moment (with no spare ready: the app's tests keep none), is exactly that until it is registered, so it died
before it was ready: "the grading worker did not start: signal SIGKILL", a flake of
``test_a_new_run_kills_the_one_in_flight``. The second kill also signalled the reaped supervisor's pid and group,
which by then may be another process's. These tests spy on every signal the host sends, on a spawned worker and on one forked from the fork server (whose
supervisor is released to the fork server for reaping instead of being waited for).
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time

import pytest

from jittrainer.grading.host import procs, process
from jittrainer.grading.host.process import WorkerProcess

pytestmark = pytest.mark.worker


@pytest.fixture
def sent(monkeypatch):
    """Every signal the host sends from now on: (how, pid or group, signal)."""
    calls: list[tuple[str, int, int]] = []
    real_kill, real_killpg = os.kill, os.killpg

    def kill(pid, sig):
        calls.append(("kill", pid, sig))
        return real_kill(pid, sig)

    def killpg(pgid, sig):
        calls.append(("killpg", pgid, sig))
        return real_killpg(pgid, sig)

    monkeypatch.setattr(os, "kill", kill)
    monkeypatch.setattr(os, "killpg", killpg)
    return calls


@pytest.fixture(params=["spawned", "forked"])
def start(request, fork_server):
    """How the worker under test starts: a WorkerProcess factory."""
    if request.param == "forked" and fork_server is None:
        pytest.skip("no fork server in this session")
    return lambda: WorkerProcess(zygote=fork_server if request.param == "forked" else None)


def on_reap(worker: WorkerProcess, hook) -> None:
    """Call ``hook()`` when the worker's supervisor is reaped: Popen.wait for a spawned one, the release that lets
    the fork server reap it for a forked one."""
    handle = worker.supervisor
    name = "release" if worker.mode != "spawned" else "wait"
    real = getattr(handle.proc, "wait") if name == "wait" else handle.release

    def wrapped(*args, **kwargs):
        result = real(*args, **kwargs)
        hook()
        return result

    if name == "wait":
        handle.proc.wait = wrapped
    else:
        handle.release = wrapped


def wait_for(predicate, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def ticks_now() -> int:
    with open("/proc/uptime") as fh:
        return int(float(fh.read().split()[0]) * os.sysconf("SC_CLK_TCK"))


def test_a_second_kill_sends_no_signal(sent, start):
    worker = start()
    try:
        worker.kill()
        assert worker.supervisor.poll() is not None  # reaped, or released: its pid is free for any new process
        first = list(sent)
        assert ("kill", worker.supervisor_pid, signal.SIGKILL) in first
        worker.kill()
        assert sent == first, f"the second kill signalled {sent[len(first):]}"
    finally:
        worker.kill()


def test_concurrent_kills_signal_the_supervisor_only_before_it_is_reaped(sent, start):
    worker = start()
    reaped_at: list[int] = []
    on_reap(worker, lambda: reaped_at.append(len(sent)))
    threads = [threading.Thread(target=worker.kill) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not any(t.is_alive() for t in threads)
    assert worker.supervisor.poll() is not None and reaped_at
    to_it = [i for i, (_, pid, _) in enumerate(sent) if pid == worker.supervisor_pid]
    assert to_it and max(to_it) < reaped_at[0], (sent, reaped_at)


def test_a_supervisor_that_ended_is_not_signalled_by_its_old_pid(sent, start):
    worker = start()
    try:
        os.close(worker._lifeline_w)  # the supervisor ends its job and exits, as after every verdict
        worker._lifeline_w = None
        wait_for(lambda: worker.supervisor.poll() is not None)
        assert worker.supervisor.poll() == 0
        worker.kill()
        assert not [call for call in sent if call[1] == worker.supervisor_pid], sent
    finally:
        worker.kill()


def test_an_orphan_sweep_during_a_spawn_spares_the_new_supervisor(monkeypatch):
    """A sweep (its job's supervisor was killed by the learner's code) that runs while another worker is being
    started: the new supervisor has its own session and no registration yet, until the spawn is done."""
    real_popen = subprocess.Popen
    swept: list[set[int]] = []
    sweeps: list[threading.Thread] = []

    def popen(*args, **kwargs):
        since = ticks_now() - 1
        proc = real_popen(*args, **kwargs)
        sweep = threading.Thread(target=lambda: swept.append(procs.kill_job("", None, strays_since=since)))
        sweep.start()
        sweep.join(0.5)  # the sweep runs now, unless it has to wait for the spawn to be done
        sweeps.append(sweep)
        return proc

    monkeypatch.setattr(process.subprocess, "Popen", popen)
    worker = WorkerProcess(zygote=None)
    try:
        sweeps[0].join(30)
        assert swept and worker.supervisor_pid not in swept[0], swept
        assert worker.alive()
    finally:
        worker.kill()


def test_an_orphan_sweep_during_a_fork_spares_the_new_supervisor(monkeypatch, fork_server):
    """The same for a forked worker: between the fork server's answer and the supervisor's registration, a sweep of
    the fork server's strays (what re-parents to it) must not take the new supervisor."""
    if fork_server is None:
        pytest.skip("no fork server in this session")
    real_fork = type(fork_server).fork
    swept: list[set[int]] = []
    sweeps: list[threading.Thread] = []

    def fork(self, *args, **kwargs):
        since = ticks_now() - 1
        pid = real_fork(self, *args, **kwargs)
        sweep = threading.Thread(target=lambda: swept.append(
            procs.kill_job("", None, strays_since=since, adopters=(self.pid,))))
        sweep.start()
        sweep.join(0.5)
        sweeps.append(sweep)
        return pid

    monkeypatch.setattr(type(fork_server), "fork", fork)
    worker = WorkerProcess(zygote=fork_server)
    try:
        sweeps[0].join(30)
        assert swept and worker.supervisor_pid not in swept[0], swept
        assert worker.alive()
    finally:
        worker.kill()


def test_a_run_waiting_for_its_worker_to_start_hears_the_kill(start):
    """A cancel (the app's quit, a newer live grade) kills a worker still importing jax while the run waits for it
    to be ready. That wait must end on the kill, not at the 90 s start-up limit: the e2e quit during a live grade
    left the app on a blank screen, the interpreter joining the grading thread (5 of 25 quits under load)."""
    worker = start()
    worker.kill()  # a spawned worker is far from ready here: its reader drops the Ready and the closing None
    answers: list[bool] = []
    waiting = threading.Thread(target=lambda: answers.append(worker.wait_ready(600)), daemon=True)
    waiting.start()
    waiting.join(60)  # the kill is heard within KILLED_POLL_S; only the old wait reaches this bound
    assert not waiting.is_alive(), "wait_ready still waiting on a killed worker"
    if worker.mode == "spawned":
        assert answers == [False]


def test_a_reader_waiting_on_a_killed_worker_hears_the_end(start):
    """A cancel kills the worker while the run waits for its next frame (the app's quit during timing). The reader
    drops what comes after a kill, the channel's closing None included, so the wait must end on the kill itself, not
    at its deadline: a quit that waited out the 20 s timing deadline left the app hanging on a blank screen."""
    worker = start()
    try:
        assert worker.wait_ready(60)
    finally:
        worker.kill()
    while (frame := worker.next_message(60)) is not None:  # frames queued before the kill come first
        assert not isinstance(frame, BaseException), frame
