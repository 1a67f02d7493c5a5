"""A job cannot reach anything outside itself: each red-team mechanism of the worker-start issue, in every start mode.

Three ways a job starts (``WorkerProcess.mode``): forked into namespaces of its own ("namespaces", where the kernel
allows: it does here, as root and as a user), forked without them ("plain": gVisor, or a host that forbids user
namespaces), and spawned ("spawned": a one-shot check). Each test says which modes its claim holds in, as the
README's "What holds" does; a claim for namespaces only is not asserted of the others.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from pathlib import Path

import pytest

from helpers import REPO
from jittrainer.course.exercises import find_exercise, load_exercises
from jittrainer.grading.host import zygote
from jittrainer.grading.host.process import WorkerProcess
from jittrainer.grading.host.run import GradingRun, Submission
from jittrainer.grading.limits import Limits

pytestmark = pytest.mark.worker

FIXTURES = REPO / "tests" / "fixtures" / "exercises"
DOUBLE = "\ndef double(x):\n    return 2 * x\n"
GONE_WITHIN_S = 15.0


@pytest.fixture(scope="module")
def double():
    return find_exercise(load_exercises(FIXTURES), "double")


@pytest.fixture(scope="module")
def plain_server():
    """A fork server that runs its jobs without namespaces, as it must where the kernel refuses them."""
    before = os.environ.get("JITTRAINER_NAMESPACES")
    os.environ["JITTRAINER_NAMESPACES"] = "0"
    try:
        server = zygote.Zygote()
    finally:
        if before is None:
            del os.environ["JITTRAINER_NAMESPACES"]
        else:
            os.environ["JITTRAINER_NAMESPACES"] = before
    assert server.wait_ready() and server.mode == "plain", server.log.decode(errors="replace")
    yield server
    server.close()


@pytest.fixture(scope="module")
def ns_server():
    server = zygote.Zygote()
    if not server.wait_ready() or server.mode != "namespaces":
        server.close()
        pytest.skip(f"no namespaces on this machine: {server.hello}")
    yield server
    server.close()


@pytest.fixture(params=["namespaces", "plain", "spawned"])
def mode(request):
    return request.param


@pytest.fixture
def start(mode, request):
    """A WorkerProcess factory for ``mode``."""
    if mode == "namespaces":
        server = request.getfixturevalue("ns_server")
    elif mode == "plain":
        server = request.getfixturevalue("plain_server")
    else:
        server = None
    return lambda: WorkerProcess(zygote=server)


def grade(ex, tmp_path: Path, code: str, worker: WorkerProcess, **limits):
    path = tmp_path / f"hostile_{uuid.uuid4().hex[:8]}.py"
    path.write_text(textwrap.dedent(code) + DOUBLE)
    run = GradingRun(Submission(ex, path.read_bytes(), path, seed=1, timing=False), Limits(**limits), worker=worker)
    return run.run()


def with_marker(marker: str) -> list[int]:
    """Live processes whose command line holds ``marker`` (zombies are not alive)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                if marker.encode() in fh.read():
                    with open(f"/proc/{name}/stat", "rb") as st:
                        if st.read().rsplit(b")", 1)[1].split()[0] != b"Z":
                            found.append(int(name))
        except OSError:
            continue
    return found


def gone(marker: str) -> bool:
    deadline = time.monotonic() + GONE_WITHIN_S
    while with_marker(marker):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def state_of(pid: int) -> str:
    with open(f"/proc/{pid}/stat", "rb") as fh:
        return fh.read().rsplit(b")", 1)[1].split()[0].decode()


# ------------------------------------------------------------------------------------------ pid hopping


@pytest.mark.parametrize("attempt", [1, 2, 3])
def test_a_fork_hopping_loop_dies_with_the_job(double, tmp_path, ns_server, attempt):
    """A process that forks, exits and calls setsid() in a loop is never where the kill looked: in its own PID
    namespace it cannot leave, and the namespace dies with its reaper. (Without namespaces the host stops and kills
    what it finds, repeatedly, and a loop faster than that can outrun it: the README says so.)"""
    marker = f"hop{uuid.uuid4().hex[:10]}"
    code = f"""
        import subprocess, sys, time
        loop = "import os\\nwhile True:\\n    if os.fork() > 0:\\n        os._exit(0)\\n    os.setsid()\\n"
        subprocess.Popen([sys.executable, "-S", "-c", loop, "{marker}"])
        time.sleep(0.5)
    """
    verdict = grade(double, tmp_path, code, WorkerProcess(zygote=ns_server))
    assert verdict.status == "pass", verdict.message
    assert gone(marker), f"the hopping loop outlived its job: {with_marker(marker)}"


# ------------------------------------------------------------------------------------------ memory


def test_killing_its_supervisor_does_not_lift_the_memory_limit(double, tmp_path, start, mode):
    """The job kills its parent (in namespaces that is the reaper, pid 1, which ignores it), then takes 1 GiB: the
    run ends in an error (the memory limit, or the job killed with the supervisor it killed), never a pass, and
    nothing of the job is left."""
    marker = f"sup{uuid.uuid4().hex[:10]}"
    code = f"""
        import os, signal, time
        os.kill(os.getppid(), signal.SIGKILL)
        hold = bytearray(2**30)
        for i in range(0, len(hold), 4096):
            hold[i] = 1
        import subprocess, sys
        subprocess.Popen([sys.executable, "-S", "-c", "import time; time.sleep(120)", "{marker}"])
        time.sleep(60)
    """
    verdict = grade(double, tmp_path, code, start(), memory_mb=400, timeout_s=30)
    assert verdict.status == "error", verdict.message
    assert verdict.error.type in ("MemoryLimit", "Crash"), verdict.message
    assert gone(marker)


def test_memory_held_in_an_unmapped_memfd_counts(double, tmp_path, start, mode):
    code = """
        import os, time
        fd = os.memfd_create("hoard")
        os.posix_fallocate(fd, 0, 2**30)  # 1 GiB of shared memory, never mapped: not in any RSS
        time.sleep(60)
    """
    verdict = grade(double, tmp_path, code, start(), memory_mb=400, timeout_s=30)
    assert verdict.status == "error" and verdict.error.type == "MemoryLimit", verdict.message


def test_dev_shm_is_the_job_s_own_small_and_gone_with_it(double, tmp_path, ns_server):
    name = f"jittrainer-test-{uuid.uuid4().hex[:10]}"
    code = f"""
        import os
        try:
            with open("/dev/shm/{name}", "wb") as fh:
                fh.write(b"x" * (256 * 2**20))
            print("wrote 256 MiB")
        except OSError as exc:
            print("refused:", exc.strerror)
    """
    verdict = grade(double, tmp_path, code, WorkerProcess(zygote=ns_server))
    assert verdict.status == "pass", verdict.message
    assert "refused: No space left on device" in verdict.output, verdict.output
    assert not Path(f"/dev/shm/{name}").exists()


# ------------------------------------------------------------------------------------------ reach


def test_the_job_sees_only_its_own_processes(double, tmp_path, ns_server):
    """Its own /proc: pid 1 (its reaper) and itself as pid 2; the fork server, the host, spares and other jobs are
    not there to stop, kill or read. Signals sent to their real pids reach nothing."""
    spare = WorkerProcess(zygote=ns_server)
    assert spare.wait_ready(60)
    targets = [ns_server.pid, os.getpid(), spare.supervisor_pid]
    code = f"""
        import os, signal
        print("pid", os.getpid(), "sees", sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))
        for pid in {targets!r}:
            try:
                os.kill(pid, signal.SIGSTOP)
                print("stopped", pid)
            except OSError as exc:
                print("cannot reach", pid, exc.strerror)
    """
    try:
        verdict = grade(double, tmp_path, code, WorkerProcess(zygote=ns_server))
        assert verdict.status == "pass", verdict.message
        assert "pid 2 sees [1, 2" in verdict.output, verdict.output
        assert "stopped" not in verdict.output, verdict.output
        assert all(state_of(pid) != "T" for pid in targets)
        assert spare.alive() and spare.wait_ready(1)
    finally:
        spare.kill()


def test_a_forked_worker_holds_no_capabilities(double, tmp_path, start, mode):
    """Not CAP_SYS_PTRACE (which would open the host's memory and descriptors to it), nor any other, also as root."""
    code = """
        caps = dict(line.split(":", 1) for line in open("/proc/self/status") if line.startswith("Cap"))
        print("effective", caps["CapEff"].strip())
    """
    verdict = grade(double, tmp_path, code, start())
    assert verdict.status == "pass", verdict.message
    effective = int(verdict.output.split("effective", 1)[1].split()[0], 16)
    assert not effective & (1 << 19), verdict.output
    if mode != "spawned":
        assert effective == 0, verdict.output


def test_two_concurrent_jobs_share_no_descriptor(double, tmp_path, start, mode):
    if mode == "spawned":
        pytest.skip("spawned workers are separate programs: nothing is inherited between them")
    meeting = tmp_path / "meeting"
    meeting.mkdir()
    code = f"""
        import os, time, uuid
        mine = []
        for n in os.listdir("/proc/self/fd"):
            try:
                mine.append(os.readlink(f"/proc/self/fd/{{n}}"))
            except OSError:
                pass  # the listing's own descriptor, closed by now
        (__import__("pathlib").Path("{meeting}") / uuid.uuid4().hex).write_text("\\n".join(mine))
        deadline = time.monotonic() + 60
        while len(os.listdir("{meeting}")) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
    """
    verdicts = []
    threads = [threading.Thread(target=lambda: verdicts.append(grade(double, tmp_path, code, start(), timeout_s=90)))
               for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert [v.status for v in verdicts] == ["pass", "pass"], [v.message for v in verdicts]
    first, second = (set(p.read_text().splitlines()) for p in meeting.iterdir())
    shared = {fd for fd in first & second if fd.startswith(("pipe:", "socket:"))}
    assert not shared, shared


# ------------------------------------------------------------------------------------------ the fork server


def test_a_job_that_stops_the_fork_server_gets_its_verdict_and_the_next_grade_comes(double, tmp_path, plain_server):
    """Where jobs can see it (plain mode), a job may stop its fork server: its own verdict still arrives, and the
    next grade, asked of the stopped fork server, times out and is spawned instead."""
    code = """
        import os, signal
        supervisor = os.getppid()
        with open(f"/proc/{supervisor}/stat") as fh:
            server = int(fh.read().rsplit(")", 1)[1].split()[1])
        os.kill(server, signal.SIGSTOP)
    """
    try:
        first = grade(double, tmp_path, code, WorkerProcess(zygote=plain_server))
        assert first.status == "pass", first.message
        assert state_of(plain_server.pid) == "T"
        worker = WorkerProcess(zygote=plain_server)
        assert worker.mode == "spawned" and plain_server.broken
        assert grade(double, tmp_path, "", worker).status == "pass"
    finally:
        os.kill(plain_server.pid, signal.SIGCONT)


def test_the_job_dies_with_a_killed_host_even_with_its_supervisor_stopped(tmp_path, ns_server):
    """The host is killed in the middle of a grade whose supervisor was stopped first: the fork server's lifeline
    closes, it exits, and parent-death signals take the supervisor, the reaper and the whole namespace."""
    marker = f"host{uuid.uuid4().hex[:10]}"
    ready = tmp_path / "ready"
    script = textwrap.dedent(f"""
        import sys, time
        from pathlib import Path
        sys.path.insert(0, {str(REPO / "tests")!r})
        from jittrainer.course.exercises import find_exercise, load_exercises
        from jittrainer.grading.host import zygote
        from jittrainer.grading.host.run import GradingRun, Submission
        from jittrainer.grading.limits import Limits
        ex = find_exercise(load_exercises(Path({str(FIXTURES)!r})), "double")
        zygote.start_shared()
        path = Path({str(tmp_path / "job.py")!r})
        path.write_text("import subprocess, sys, time\\n"
                        "subprocess.Popen([sys.executable, '-S', '-c', 'import time; time.sleep(300)', '{marker[:4]}' + '{marker[4:]}'])\\n"
                        "time.sleep(300)\\n")
        run = GradingRun(Submission(ex, path.read_bytes(), path, seed=1, timing=False), Limits(timeout_s=300))
        import threading
        threading.Thread(target=run.run, daemon=True).start()
        while run.worker is None or run.handed_over_at is None:
            time.sleep(0.05)
        Path({str(ready)!r}).write_text(str(run.worker.supervisor_pid))
        time.sleep(300)
    """)
    host = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not (ready.exists() and ready.read_text() and with_marker(marker)):
            assert host.poll() is None, host.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, "the job did not start"
            time.sleep(0.05)
        os.kill(int(ready.read_text()), signal.SIGSTOP)
        host.kill()
        host.wait(10)
        assert gone(marker), f"the job outlived its host: {with_marker(marker)}"
    finally:
        if host.poll() is None:
            host.kill()
            host.wait(10)
        host.stderr.close()
