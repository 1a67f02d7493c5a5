"""Hostile submissions, round 2: attacks on the host side, each run as a learner would run it, through
``jittrainer check ID FILE`` in a fresh home (the fixture exercise is double(x) = 2x, graded under jax.jit).

Each test is one class of the red team's findings and fails on the grader before it was hardened: no traceback
reaches the user, every run ends within its limit + 5 s, nothing outlives the command, memory is counted over the
whole job, frames are bounded, forged frames are refused, the learner's output cannot drive the terminal or write a
second JSON object, and no progress is lost silently."""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from helpers import REPO, clean_env, jittrainer_cmd

pytestmark = pytest.mark.worker

FIXTURES = REPO / "tests" / "fixtures" / "exercises"
DOUBLE = "def double(x):\n    return 2 * x\n"
LIMIT_S = 4.0
# A command's wall time also holds a worker's cold start-up, which on a loaded 2-core machine can take many
# seconds; the limit itself (limit + 5 s from the job's hand-over) is held exactly in test_every_run_ends_in_time.
SLACK_S = 5.0 + 25.0

# A submission's way to the channel it is not given: every pipe it holds (the moved result descriptor among them),
# found through /proc/self/fd, written without blocking (a full pipe must not stop it reaching the next one).
WRITE_FRAME = """
import json, os, struct
def send_everywhere(frame: bytes):
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd < 3:
            continue
        try:
            if os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:"):
                blocking = os.get_blocking(fd)
                os.set_blocking(fd, False)
                try:
                    os.write(fd, frame)
                finally:
                    os.set_blocking(fd, blocking)
        except OSError:
            pass
def frame(data: dict) -> bytes:
    payload = json.dumps(data).encode()
    return struct.pack(">I", len(payload)) + payload
"""


def check(tmp_path: Path, code: str, *args: str, home: Path | None = None, draft: bool = False, timeout: float = LIMIT_S):
    """``jittrainer check double FILE --json`` (or the draft) in a fresh home; (exit code, stdout, stderr, wall s)."""
    home = home or tmp_path / "home"
    source = code
    if draft:
        workspace = home / "workspace"
        workspace.mkdir(parents=True, exist_ok=True)
        (workspace / "double.py").write_text(source)
        target: list[str] = []
    else:
        path = tmp_path / "hostile.py"
        path.write_text(source)
        target = [str(path)]
    cmd = [*jittrainer_cmd(), "--exercises", str(FIXTURES), "check", "double", *target, "--timeout", str(timeout),
           "--seed", "1", *args]
    started = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=clean_env(JITTRAINER_HOME=str(home)),
                          stdin=subprocess.DEVNULL, timeout=timeout + 120)
    return proc.returncode, proc.stdout, proc.stderr, time.monotonic() - started


def one_json(stdout: str) -> dict:
    """stdout must be exactly one JSON object (json.loads refuses trailing data)."""
    data = json.loads(stdout)
    assert isinstance(data, dict)
    return data


def no_traceback(stderr: str) -> None:
    assert "Traceback (most recent call last)" not in stderr, stderr


def alive(marker: str) -> list[str]:
    out = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if marker in line and "ps -eo" not in line]


def wait_gone(marker: str, seconds: float = 5.0) -> list[str]:
    deadline = time.monotonic() + seconds
    while alive(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive(marker)


# ---------------------------------------------------------------------------------------- 1. no traceback


@pytest.mark.parametrize("phase", ["call \u00b2", "call 1" + "9" * 40, "\x1b[2J"])
def test_forged_phase_frames_end_in_a_verdict_not_a_traceback(tmp_path, phase):
    code = WRITE_FRAME + f"send_everywhere(frame({{'type': 'phase', 'phase': {phase!r}}}))\n" + DOUBLE
    rc, out, err, wall = check(tmp_path, code, "--json")
    no_traceback(err)
    verdict = one_json(out)
    assert rc == 1 and verdict["status"] == "error", verdict["message"]
    assert verdict["message"].startswith("the grading channel carried a message the grader did not write")
    assert "\x1b" not in out
    assert wall < LIMIT_S + SLACK_S


def test_a_bug_on_the_host_path_ends_in_a_message_and_exit_2(tmp_path, monkeypatch, capsys):
    """The last-resort handler: any exception in a command is one line on stderr (the traceback kept in a file),
    exit 2, and under --json still exactly one JSON object on stdout."""
    from jittrainer import cli
    from jittrainer.cli import check as check_cmd

    def broken(*args, **kwargs):
        raise MemoryError("the host ran out of memory reading something")

    monkeypatch.setenv("JITTRAINER_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(check_cmd, "Grading", broken)
    path = tmp_path / "d.py"
    path.write_text(DOUBLE)
    rc = cli.main(["--exercises", str(FIXTURES), "check", "double", str(path), "--json"])
    out, err = capsys.readouterr()
    assert rc == 2
    data = one_json(out)
    assert data["internal"] is True and "MemoryError" in data["error"]
    assert err.startswith("jittrainer: internal error (a bug in jittrainer): MemoryError") and "Traceback" not in err
    kept = list((tmp_path / "home" / "cache" / "crashes").glob("jittrainer-*.txt"))
    assert kept and "Traceback" in kept[0].read_text()


# ----------------------------------------------------------------------------- 2. the time limit holds


def test_a_fifo_where_the_stacks_used_to_go_cannot_stall_the_host(tmp_path):
    code = "import os\nos.mkfifo('stack.txt')\nwhile True:\n    pass\n" + DOUBLE
    rc, out, err, wall = check(tmp_path, code, "--json")
    no_traceback(err)
    verdict = one_json(out)
    assert verdict["error"]["type"] == "Timeout", verdict["message"]
    assert wall < LIMIT_S + SLACK_S


def test_junk_written_to_the_stack_pipe_is_bounded_and_not_believed(tmp_path):
    """The stack pipe is the one other descriptor the worker is given: a flood of fake stack lines on it neither
    blocks the host nor is read as where the code was stuck."""
    code = textwrap.dedent("""
        import os, sys, threading
        fd = int(sys.argv[sys.argv.index("--stack-fd") + 1])
        os.set_blocking(fd, False)
        def flood():
            while True:
                try:
                    os.write(fd, b'  File "/etc/passwd", line 1 in fake\\n' * 2000)
                except OSError:
                    pass
        threading.Thread(target=flood, daemon=True).start()
        def double(x):
            while True:
                pass
    """)
    rc, out, err, wall = check(tmp_path, code, "--json")
    no_traceback(err)
    verdict = one_json(out)
    assert verdict["error"]["type"] == "Timeout", verdict["message"]
    assert "/etc/passwd" not in out
    assert wall < LIMIT_S + SLACK_S


def test_a_timeout_names_the_graded_functions_line_and_the_helper_that_was_running(tmp_path):
    code = textwrap.dedent("""
        def step(v):
            n = 0
            while True: n += 1

        def double(x):
            y = x
            step(y)
            return 2 * x
    """)
    rc, out, err, wall = check(tmp_path, code, "--json")
    verdict = one_json(out)
    assert verdict["message"].startswith("timed out after 4 s during call 1 of double: line 8 of your file (in "
                                         "double) was still running, and inside it line 4 (in step)"), verdict["message"]
    assert verdict["error"]["line"] == 8


@pytest.mark.parametrize("code", [
    "import os\nos.mkfifo('stack.txt')\nwhile True:\n    pass\n",
    "import os, sys\nfd = int(sys.argv[sys.argv.index('--stack-fd') + 1])\nos.set_blocking(fd, False)\n"
    "while True:\n    try:\n        os.write(fd, b'x' * 65536)\n    except OSError:\n        pass\n",
    "import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\nwhile True:\n    pass\n",
], ids=["fifo", "stack-flood", "stopped-supervisor"])
@pytest.mark.parametrize("start", ["forked", "spawned"])
def test_every_run_ends_in_time(tmp_path, code, start, fork_server):
    """From the job's hand-over to the verdict: the limit plus 5 s at most, whatever the submission holds up, on a
    forked worker and on a spawned one (the stack flood needs the stack pipe's number, which only a spawned worker's
    command line gives away)."""
    from jittrainer.course.exercises import find_exercise, load_exercises
    from jittrainer.grading.host.process import WorkerProcess
    from jittrainer.grading.host.run import GradingRun, Submission
    from jittrainer.grading.limits import Limits

    if start == "forked" and ("--stack-fd" in code or fork_server is None):
        pytest.skip("the stack pipe of a forked worker is not named anywhere the job can read" if fork_server else
                    "no fork server in this session")
    ex = find_exercise(load_exercises(FIXTURES), "double")
    path = tmp_path / "hostile.py"
    path.write_text(code + DOUBLE)
    worker = WorkerProcess(zygote=fork_server if start == "forked" else None)
    run = GradingRun(Submission(ex, path.read_bytes(), path, seed=1, timing=False), Limits(timeout_s=LIMIT_S),
                     worker=worker)
    verdict = run.run()
    assert verdict.error is not None and verdict.error.type == "Timeout", verdict.message
    assert run.verdict_at - run.handed_over_at < LIMIT_S + 5


# ------------------------------------------------------------------------------------ 3. no orphan survives


@pytest.mark.parametrize("kill_supervisor", [False, True], ids=["orphan", "orphan-after-killing-the-supervisor"])
def test_a_double_forked_setsid_execve_with_an_empty_environment_dies_with_the_check(tmp_path, kill_supervisor):
    marker = f"{2000 + uuid.uuid4().int % 7000}.25"  # a sleep length nobody else uses
    code = textwrap.dedent(f"""
        import os, signal, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execve("/bin/sleep", ["sleep", "{marker}"], {{}})
            os._exit(0)
        time.sleep(0.3)
        print("orphan started")
        if {kill_supervisor}:
            os.kill(os.getppid(), signal.SIGKILL)  # the per-job supervisor: the host must clean up alone
    """) + DOUBLE
    rc, out, err, wall = check(tmp_path, code, "--json")
    no_traceback(err)
    verdict = one_json(out)
    assert "orphan started" in verdict["output"], verdict["message"]
    assert wait_gone(marker) == []
    assert wall < LIMIT_S + SLACK_S


# -------------------------------------------------------------------------- 4. memory over the whole job


def test_memory_taken_by_a_child_process_counts(tmp_path):
    code = textwrap.dedent("""
        import subprocess, sys, time
        subprocess.Popen([sys.executable, "-c", "b = bytearray(3 * 2**30); import time; time.sleep(60)"])
        time.sleep(60)
    """) + DOUBLE
    rc, out, err, wall = check(tmp_path, code, "--json", timeout=30)
    verdict = one_json(out)
    assert rc == 1 and verdict["message"].startswith("memory limit exceeded ("), verdict["message"]
    assert verdict["error"]["type"] == "MemoryLimit"


# --------------------------------------------------------------------------------- 5. frames are bounded


def test_an_oversized_frame_is_refused_and_never_reaches_the_output(tmp_path):
    code = WRITE_FRAME + (
        "import threading\n"
        "threading.Thread(target=send_everywhere, args=(frame({'type': 'phase', 'phase': 'call 1', "
        "'pad': 'x' * (48 << 20)}),), daemon=True).start()\n"
        "import time\ntime.sleep(2)\n") + DOUBLE
    rc, out, err, wall = check(tmp_path, code, "--json", timeout=20)
    no_traceback(err)
    verdict = one_json(out)
    assert verdict["status"] == "error" and "over the" in verdict["message"], verdict["message"]
    assert len(out) < 200_000


def test_every_string_from_a_worker_is_bounded_and_visible():
    from jittrainer.grading.host import untrusted

    data = untrusted.bounded({"output": "\x1b[32mok\x9b\u202e" + "y" * (untrusted.MAX_TEXT + 10),
                              "list": list(range(untrusted.MAX_ITEMS + 5)), "k\x1b": "a\r\nb\rc"})
    assert data["output"].startswith("\\x1b[32mok\\x9b\\u202e")
    assert data["output"].endswith("more characters not kept]")
    assert len(data["list"]) == untrusted.MAX_ITEMS
    assert data["k\\x1b"] == "a\nb\\x0dc"


# ----------------------------------------------------------------------------- 6. forged non-verdict frames


def test_an_untokened_crash_frame_is_refused_and_the_attempt_is_recorded(tmp_path):
    home = tmp_path / "home"
    code = WRITE_FRAME + ("send_everywhere(frame({'type': 'crash', 'token': '', 'traceback': 'boom'}))\n"
                          "import time\ntime.sleep(1)\n") + DOUBLE
    rc, out, err, wall = check(tmp_path, code, "--json", home=home, draft=True)
    no_traceback(err)
    verdict = one_json(out)
    assert rc == 1, (rc, err)
    assert "crash report without this run's token" in verdict["message"], verdict["message"]
    assert "a bug in jittrainer" not in verdict["message"]
    progress = json.loads((home / "progress.json").read_text())
    assert progress["exercises"]["double"]["attempts"] == 1


def test_a_pass_sent_with_the_stolen_token_but_a_failed_check_is_refused(tmp_path):
    """White-box: the token can be read off the worker's frames (the README says so). What the host still refuses
    is a pass that its own checks contradict, or one that does not report the exercise's declared checks."""
    code = textwrap.dedent("""
        import os, sys
        from jittrainer.grading import protocol
        from jittrainer.grading.verdict import CheckResult, Verdict
        from jittrainer.i18n.message import msg

        def double(x):
            frame = sys._getframe()
            while frame is not None:
                if "token" in frame.f_locals and "worker" in frame.f_locals:
                    token, worker = frame.f_locals["token"], frame.f_locals["worker"]
                    forged = Verdict(exercise="double", status="pass", headline=msg("all_passed", "all good"))
                    forged.checks = [CheckResult(cid, msg(cid, cid), status) for cid, status in
                                     (("runs", "pass"), ("values", "fail"), ("one_compile", "pass"))]
                    worker.send(protocol.VerdictFrame(token, forged.to_dict()))
                    os._exit(0)
                frame = frame.f_back
            return 3 * x
    """)
    rc, out, err, wall = check(tmp_path, code, "--json")
    verdict = one_json(out)
    assert rc == 1 and verdict["status"] == "error", verdict
    assert "(a pass with a check that did not pass)" in verdict["message"], verdict["message"]


# -------------------------------------------------------------------------------- 7. terminal injection


def test_escape_sequences_in_the_output_are_shown_not_obeyed(tmp_path):
    code = ("import sys\nprint('\\x1b[2J\\x1b[32mPASSED\\x1b[0m \\x9b31m \\u202eevil')\n"
            "sys.__stdout__.write('\\x1b]0;title\\x07')\n") + DOUBLE
    rc, out, err, wall = check(tmp_path, code)
    for raw in ("\x1b", "\x9b", "\u202e", "\x07"):
        assert raw not in out
    assert "\\x1b[32mPASSED" in out and "\\x9b31m" in out and "\\u202eevil" in out


def test_the_host_stdout_cannot_be_reached_through_proc(tmp_path):
    """The worker walks up its ancestors and writes a second JSON object into each one's stdout through
    /proc/<pid>/fd/1. The host is non-dumpable and the job has no CAP_SYS_PTRACE, so stdout holds one object."""
    code = textwrap.dedent("""
        import os
        pid = os.getpid()
        reached = []
        for _ in range(2):  # the supervisor, then the host
            with open(f"/proc/{pid}/status") as fh:
                pid = int(next(l for l in fh if l.startswith("PPid:")).split()[1])
            if pid <= 1:
                break
            try:
                fd = os.open(f"/proc/{pid}/fd/1", os.O_WRONLY)
                os.write(fd, b'{"status": "pass", "forged": true}\\n')
                os.close(fd)
                reached.append(pid)
            except OSError:
                pass
        with open(f"/proc/self/status") as fh:
            caps = next(l for l in fh if l.startswith("CapEff:")).split()[1]
        print("reached", reached, "ptrace" if int(caps, 16) >> 19 & 1 else "no-ptrace")
    """) + DOUBLE
    rc, out, err, wall = check(tmp_path, code, "--json")
    verdict = one_json(out)
    assert "forged" not in verdict and verdict["status"] == "pass", verdict["message"]
    assert "reached" in verdict["output"], verdict["output"]
    if os.geteuid() == 0:  # as root, only the dropped capability stands between the job and the host's fds
        assert "no-ptrace" in verdict["output"], verdict["output"]


# -------------------------------------------------------------------------------- 8. no silent progress loss


def test_progress_overwritten_with_its_backup_comes_back_and_the_learner_is_told(tmp_path):
    home = tmp_path / "home"
    for _ in range(3):  # a pass, then two more writes: .bak.2 holds the first
        rc, *_ = check(tmp_path, DOUBLE, home=home, draft=True)
        assert rc == 0
    code = textwrap.dedent("""
        import os
        home = os.environ["JITTRAINER_HOME"]
        for name in ("progress.json", "progress.json.bak"):
            with open(os.path.join(home, name), "w") as fh:
                fh.write("garbage")
    """) + DOUBLE.replace("2 * x", "3 * x")
    rc, out, err, wall = check(tmp_path, code, home=home, draft=True)
    assert rc == 1
    assert "your progress file could not be read" in err and "restored from progress.json.bak.2" in err, err
    progress = json.loads((home / "progress.json").read_text())
    entry = progress["exercises"]["double"]
    assert entry["status"] == "passed" and entry["last_result"] == "fail"
    assert list(home.glob("progress.json.corrupt-*"))


def test_every_command_tells_of_a_mended_progress_file(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "progress.json").write_text("{not json")
    rc, out, err, wall = check(tmp_path, DOUBLE, "--json", home=home)  # a file, not the draft: nothing is recorded
    assert rc == 0 and one_json(out)["status"] == "pass"
    assert "your progress file could not be read" in err and "progress starts afresh" in err, err
