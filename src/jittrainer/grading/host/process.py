"""One grading worker process, from start to kill: its pipes, its captured output, its exit.

A worker starts one of two ways, with the same pipes and the same guarantees to the run that uses it:

- **forked** from this process's fork server (``zygote.py``) when one is running: its supervisor (``forked.py``)
  runs the job in namespaces of its own where the machine allows (``mode`` "namespaces": the job cannot see or
  signal anything outside it, and dies whole with its reaper), else as a plain subtree (``mode`` "plain");
- **spawned**: a fresh ``python -m jittrainer.grading.sandbox.worker`` under ``supervisor.py`` in a new session, so
  that the job is exactly the supervisor's subtree (``mode`` "spawned"; a one-shot ``check`` takes this path).

Either way the worker has a clean environment (the user's ``JAX_*`` and ``XLA_FLAGS`` removed, then set here),
stdin closed, stdout/stderr drained and capped by threads, and a throwaway working directory. Frames from the
worker are decoded here; one that does not decode is passed on as a ``ProtocolError`` for the run to turn into a
verdict.
"""

from __future__ import annotations

import contextlib
import os
import queue
import secrets
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from jittrainer.grading import protocol
from jittrainer.grading.host.workdir import make_workdir, remove_tree
from jittrainer.grading.host import procs
from jittrainer.grading.host import zygote as zygote_mod
from jittrainer.grading.host.handles import Forked, Spawned
from jittrainer.grading.host.workenv import worker_env
from jittrainer.grading.limits import DEFAULT_DEVICES

RAW_OUTPUT_CAP = 32 * 1024
STACK_CAP = 64 * 1024  # the most of the worker's stack dump the host reads
MESSAGE_BACKLOG = 256  # frames the host keeps waiting to be read
PHASE_BACKLOG = 64  # progress frames beyond this many waiting are dropped
KILLED_POLL_S = 0.1  # how soon a reader waiting on a killed worker hears that nothing more will come
TREE_REFRESH_S = 0.25
WORKER_MODULE = "jittrainer.grading.sandbox.worker"
SUPERVISOR = str(Path(__file__).with_name("supervisor.py"))


class _Drain(threading.Thread):
    """Reads one of the worker's std streams to the end, keeping the first RAW_OUTPUT_CAP bytes after ``mark``."""

    def __init__(self, stream: Any) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.kept = bytearray()
        self.dropped = 0
        self.recording = False
        self.lock = threading.Lock()

    def run(self) -> None:
        with contextlib.suppress(Exception):
            while chunk := self.stream.read1(65536) if hasattr(self.stream, "read1") else self.stream.read(65536):
                with self.lock:
                    if not self.recording:
                        continue
                    room = RAW_OUTPUT_CAP - len(self.kept)
                    self.kept += chunk[: max(room, 0)]
                    self.dropped += max(0, len(chunk) - max(room, 0))

    def mark(self) -> None:
        with self.lock:
            self.recording = True

    def text(self) -> str:
        with self.lock:
            text = self.kept.decode("utf-8", "replace")
            if self.dropped:
                text += f"\n[… {self.dropped:,} more bytes not shown]\n"
            return text


SHARED = object()  # WorkerProcess(zygote=SHARED): fork from this process's fork server if it runs one


class WorkerProcess:
    """One grading worker process under its own supervisor. Grades exactly one job; ``devices`` simulated CPU
    devices. ``mode`` says how it started: "namespaces", "plain" (both forked) or "spawned"."""

    def __init__(self, devices: int = DEFAULT_DEVICES, zygote: object = SHARED) -> None:
        self._lock = threading.Lock()
        # The supervisor is signalled by pid only while it is known not to be reaped: reaping (poll/wait, or the fork
        # server's release) and signalling both hold _reap_lock, since a reaped pid can be handed to a new process.
        self._reap_lock = threading.Lock()
        self._kill_lock = threading.Lock()  # kill() runs once; a second call waits for the first
        self.devices = devices
        self.kill_token = secrets.token_hex(8)
        procs.harden_host()
        self.workdir = make_workdir()
        job_r, self._job_w = os.pipe()
        self._result_r, result_w = os.pipe()
        self._stack_r, stack_w = os.pipe()
        self._status_r, status_w = os.pipe()
        lifeline_r, self._lifeline_w = os.pipe()
        os.set_blocking(self._stack_r, False)
        passed = (job_r, result_w, stack_w, status_w, lifeline_r)
        self._adopter: int | None = None  # the fork server this job was forked from: it adopts what the job leaves
        server = zygote_mod.shared() if zygote is SHARED else zygote
        try:
            started = self._fork(server, passed) if isinstance(server, zygote_mod.Zygote) else None
            if started is None:
                started = self._spawn(passed)
        except BaseException:
            for fd in (self._job_w, self._result_r, self._stack_r, self._status_r, self._lifeline_w):
                os.close(fd)
            remove_tree(self.workdir)
            raise
        finally:
            for fd in passed:
                os.close(fd)
        self.supervisor, stdout, stderr = started
        self._started_ticks = procs.started_at(self.supervisor.pid) or 0
        self.started = time.monotonic()
        # Decoded frames; a ProtocolError for a frame that did not decode; None once the channel closed. Bounded:
        # progress frames beyond PHASE_BACKLOG are dropped, and any other frame waits for room (the job's writes
        # block), so a job that floods the channel cannot grow the host's memory.
        self.messages: queue.Queue[protocol.Frame | protocol.ProtocolError | None] = queue.Queue(MESSAGE_BACKLOG)
        self.ready: protocol.Ready | None = None
        self.used = False
        self.killed = False
        self._tree: set[int] = set()  # the job's processes, as last looked up (rss)
        self._tree_at = float("-inf")
        self._status: int | None = None  # the worker's end, as the supervisor reported it
        self._status_closed = False
        self._stdout = _Drain(stdout)
        self._stderr = _Drain(stderr)
        self._reader = threading.Thread(target=self._read, daemon=True)
        for thread in (self._stdout, self._stderr, self._reader):
            thread.start()

    def _spawn(self, passed: tuple[int, ...]) -> tuple[Spawned, Any, Any]:
        job_r, result_w, stack_w, status_w, lifeline_r = passed
        worker = [sys.executable, "-m", WORKER_MODULE, "--job-fd", str(job_r), "--result-fd", str(result_w),
                  "--stack-fd", str(stack_w)]
        cmd = [sys.executable, "-I", "-S", SUPERVISOR, "--status-fd", str(status_w), "--lifeline-fd",
               str(lifeline_r), "--", *worker]
        with procs.spawn_lock:  # registered before any stray sweep can see it (procs.strays)
            proc = subprocess.Popen(cmd, pass_fds=passed, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, cwd=self.workdir,
                                    env=worker_env(self.kill_token, self.devices), start_new_session=True)
            procs.supervisors.add(proc.pid)
        self.mode = "spawned"
        return Spawned(proc), proc.stdout, proc.stderr

    def _fork(self, server: zygote_mod.Zygote, passed: tuple[int, ...]) -> tuple[Forked, Any, Any] | None:
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        try:
            with procs.spawn_lock:  # registered before any stray sweep can see it (procs.strays)
                pid = server.fork(self.devices, worker_env(self.kill_token, self.devices), self.workdir,
                                  [*passed, out_w, err_w])
                if pid is not None:
                    procs.supervisors.add(pid)
        finally:
            os.close(out_w)
            os.close(err_w)
        if pid is None:
            os.close(out_r)
            os.close(err_r)
            return None
        self.mode = server.mode
        self._adopter = server.pid
        return Forked(server, pid), os.fdopen(out_r, "rb", buffering=0), os.fdopen(err_r, "rb", buffering=0)

    @property
    def supervisor_pid(self) -> int:
        return self.supervisor.pid

    def alive(self) -> bool:
        return self._poll() is None and self._worker_status(0) is None

    def _poll(self) -> int | None:
        with self._reap_lock:
            return self.supervisor.poll()

    def _worker_status(self, timeout: float) -> int | None:
        """The worker's exit status as ``Popen.returncode`` would say it (negative: a signal), once the supervisor
        reported it; None while it runs. A supervisor that died without a report gives its own status."""
        fd = self._status_r
        if self._status is not None or self._status_closed or fd is None:
            return self._status
        try:
            ready, _, _ = select.select([fd], [], [], max(timeout, 0.0))
        except (OSError, ValueError):  # closed by kill() meanwhile
            return self._status
        if not ready:
            return None
        with self._lock:
            try:
                data = b"" if self._status_closed or self._status_r is None else os.read(fd, 64)
            except OSError:
                data = b""
        words = data.decode("ascii", "replace").split()
        if len(words) == 2 and words[0] in ("exit", "signal") and words[1].isascii() and words[1].isdigit():
            self._status = int(words[1]) if words[0] == "exit" else -int(words[1])
        else:  # closed with no report: the supervisor itself was killed
            self._status_closed = True
            with self._reap_lock:
                self._status = self.supervisor.wait(max(timeout, 0.5))
        return self._status

    def _read(self) -> None:
        try:
            while True:
                payload = protocol.read_payload(self._result_r)
                try:
                    frame = protocol.decode_frame(payload)
                except protocol.ProtocolError as exc:
                    self._put(exc)
                    continue
                if isinstance(frame, protocol.Phase) and self.messages.qsize() >= PHASE_BACKLOG:
                    continue  # progress only: the run keeps the phases it has, and the job cannot grow the queue
                self._put(frame)
        except protocol.ProtocolError as exc:  # an oversized frame: nothing after it can be trusted
            self._put(exc)
            self._put(None)
        except Exception:
            self._put(None)  # closed: the process exited (or was killed)
        finally:
            with contextlib.suppress(OSError):
                os.close(self._result_r)

    def _put(self, item: object) -> None:
        """Queue a frame, waiting for room while the job is alive; once it is killed nobody reads: drop it (a reader
        blocked for ever would keep the channel's descriptor open)."""
        while not self.killed:
            try:
                self.messages.put(item, timeout=0.1)  # type: ignore[arg-type]
                return
            except queue.Full:
                continue

    def wait_ready(self, timeout: float) -> bool:
        """Block until jax is imported in the worker; False if it died, was killed or took longer than ``timeout``.
        A kill ends the wait at once (through next_message): a cancelled grade waiting here for a worker that was
        still starting held the app's quit for the whole start-up limit, the interpreter joining its thread."""
        if self.ready is not None:
            return True
        try:
            message = self.next_message(timeout)
        except queue.Empty:
            return False
        if not isinstance(message, protocol.Ready):
            return False
        self.ready = message
        return True

    def send_job(self, job: protocol.Job) -> None:
        self.used = True
        self._stdout.mark()
        self._stderr.mark()
        try:
            protocol.write(self._job_w, job)
        finally:
            self._close_job_pipe()

    def _close_job_pipe(self) -> None:
        # Exactly once: a second close could hit a descriptor number another thread has reused meanwhile.
        with self._lock:
            fd, self._job_w = self._job_w, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def next_message(self, timeout: float) -> protocol.Frame | protocol.ProtocolError | None:
        """The next frame; None when the channel closed or the worker was killed (its reader drops what comes
        after a kill, the closing None included, so nobody waits out a deadline on a killed worker); raises
        queue.Empty after ``timeout`` seconds."""
        end = time.monotonic() + max(timeout, 0.0)
        while True:
            try:
                return self.messages.get(timeout=min(max(end - time.monotonic(), 0.0), KILLED_POLL_S))
            except queue.Empty:
                if self.killed and self.messages.empty():
                    return None
                if time.monotonic() >= end:
                    raise

    def raw_output(self) -> str:
        parts = [(label, drain.text()) for label, drain in (("stdout", self._stdout), ("stderr", self._stderr))]
        return "".join(f"[{label}]\n{text}" if text.strip() else "" for label, text in parts)

    def exit_status(self, timeout: float = 2.0) -> int | None:
        """How the worker ended (``Popen.returncode`` style), waiting up to ``timeout``; None if it has not."""
        return self._worker_status(timeout)

    def rss(self) -> int | None:
        """Resident memory of the whole job: the worker and everything it started. The job's processes are looked up
        again every TREE_REFRESH_S (a walk of the tree costs ~2 ms; reading one process's size far less)."""
        now = time.monotonic()
        if now - self._tree_at >= TREE_REFRESH_S:
            self._tree, self._tree_at = procs.subtree(self.supervisor_pid), now
            if not self._tree and self._poll() is not None:
                # The job killed its own supervisor: what it left is found as a kill would find it (the job's token,
                # orphans re-parented to this host or the fork server), so the limit still holds.
                self._tree = procs.job_processes(self.kill_token, None, strays_since=self._started_ticks,
                                                 adopters=(self._adopter,))
        resident = procs.tree_rss(self._tree)
        # Shared memory a job holds through a descriptor (memfd, /dev/shm) is resident without being mapped.
        held = procs.shared_memory_bytes(self._tree)
        return None if resident is None else resident + held

    def dump_stacks(self, wait_s: float = 0.5) -> str:
        """Ask the running worker for its Python stacks (faulthandler on SIGUSR1, written to a pipe only the host
        reads) before it is killed: where a timed-out submission was stuck. '' when it cannot say. Never blocks,
        and keeps at most STACK_CAP bytes, whatever the learner's code wrote to that pipe."""
        self._read_stacks(STACK_CAP * 4)  # whatever was written there before the signal is not the stack
        # The supervisor passes SIGUSR1 on to the worker (through the reaper, in namespaces): its pid is the one this
        # process may signal safely, for as long as it is not reaped.
        with self._reap_lock:
            if self.ready is None or self.supervisor.poll() is not None:
                return ""
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self.supervisor_pid, signal.SIGUSR1)
        end = time.monotonic() + wait_s
        data = b""
        while time.monotonic() < end and len(data) < STACK_CAP:
            chunk = self._read_stacks(STACK_CAP - len(data))
            data += chunk
            if not chunk and data.endswith(b"\n") and b"File " in data:
                break  # quiet after a whole stack: the other threads' stacks came with it
            time.sleep(0.02)
        return data.decode("utf-8", "replace")

    def _read_stacks(self, limit: int) -> bytes:
        out = b""
        # Under the lock: a kill() from another thread (a cancel) closes the pipe, and its number may be reused.
        with self._lock, contextlib.suppress(OSError):  # EAGAIN when empty: the pipe is non-blocking
            while (self._stack_r is not None and len(out) < limit
                   and (chunk := os.read(self._stack_r, min(65536, limit - len(out))))):
                out += chunk
        return out

    def kill(self) -> None:
        """Kill the worker and everything it started (the supervisor's subtree, processes carrying the job's token,
        orphans re-parented to the host), then reap the supervisor. Once: a later call (a run's own, after a cancel
        from another thread) waits for the first to finish and does nothing more, so it never signals pids that
        were reaped meanwhile."""
        with self._kill_lock:
            if self.killed:
                return
            self.killed = True
            self._kill()

    def _kill(self) -> None:
        killed: set[int] = set()
        with self._reap_lock:
            ended = self.supervisor.poll()  # 0: the supervisor saw everything under it end; else it was killed
            if self.mode == "namespaces":
                # Killing the supervisor kills its reaper (parent-death signal), and with it the whole namespace:
                # nothing in it can fork away from that, nor outlive it.
                if ended is None:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(self.supervisor_pid, signal.SIGKILL)
            else:
                since = self._started_ticks if ended not in (None, 0) else None
                root = self.supervisor_pid if ended is None else None  # once reaped, nobody's to signal
                killed = procs.kill_job(self.kill_token, root, strays_since=since,
                                        adopters=(self._adopter,))
                if root is not None:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(root, signal.SIGKILL)
        self.supervisor.wait(5)
        procs.reap(killed)  # the worker, if the supervisor died before it could collect it
        with self._reap_lock:
            self.supervisor.release()
            procs.supervisors.discard(self.supervisor_pid)
        self._close_job_pipe()
        with self._lock:
            for name in ("_lifeline_w", "_stack_r", "_status_r"):
                fd = getattr(self, name)
                if fd is not None:
                    setattr(self, name, None)
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._status_closed = True
        for thread in (self._stdout, self._stderr):
            thread.join(timeout=1)
        remove_tree(self.workdir)  # iterative: a job may leave folders nested thousands deep


def describe_exit(status: int | None) -> tuple[str, str]:
    """(key, English words) for a worker's exit status, e.g. ("signal", "crashed with signal SIGSEGV …")."""
    if status is None:
        return "stopped", "stopped responding"
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return "signal", name
    return "status", str(status)
