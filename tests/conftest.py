"""Fixtures for every test: a throwaway learner home, and the bundled exercises."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import EXERCISES

from jittrainer.course.exercises import Exercise, load_exercises
from jittrainer.i18n import set_language


SIGNALS = [s for s in ("SIGINT", "SIGTERM", "SIGHUP", "SIGCHLD", "SIGUSR1", "SIGPIPE", "SIGWINCH") if hasattr(signal, s)]
LEAK_WAIT_S = 15.0  # a worker killed from another thread, or a thread finishing its last step, may need a moment


# Set by others, not leaked by a test: pytest sets PYTEST_CURRENT_TEST per phase; JAX sets TF_CPP_MIN_LOG_LEVEL when
# it is first imported (jax/__init__.py, setdefault) and TPU_SKIP_MDS_QUERY on its first backend initialisation
# (jax/_src/cloud_tpu_init.py, on a machine without a TPU), once per process, in whichever test comes first.
JAX_OR_PYTEST_SET = frozenset({"PYTEST_CURRENT_TEST", "TF_CPP_MIN_LOG_LEVEL", "TPU_SKIP_MDS_QUERY"})


def _process_state() -> dict[str, object]:
    return {
        "environment": {k: v for k, v in os.environ.items() if k not in JAX_OR_PYTEST_SET},
        "working directory": os.getcwd(),
        "signal handlers": {name: signal.getsignal(getattr(signal, name)) for name in SIGNALS},
        "sys.excepthook": sys.excepthook,
        "threading.excepthook": threading.excepthook,
    }


def _leaks(threads_before: set[threading.Thread]) -> list[str]:
    from helpers import pool_supervisors

    from jittrainer.grading.host import procs

    found = []
    left = [t for t in threading.enumerate() if t not in threads_before and not t.daemon and t.is_alive()]
    if left:
        found.append(f"non-daemon threads still running: {[t.name for t in left]}")
    workers = procs.supervisors - pool_supervisors()
    if workers:
        found.append(f"grading workers still running (supervisor pids {sorted(workers)})")
    return found


@pytest.fixture(autouse=True)
def process_state_is_untouched():
    """Nothing process-wide crosses tests: under xdist one process runs many tests, and state one leaves behind (an
    environment variable, a signal handler, a hook, a worker or thread still running) changes what the next one sees,
    in an order that differs between runs. State a command legitimately sets (the language, the "JSON printed" flag,
    the progress notices, the device checks' platform) is reset before each test instead."""
    from jittrainer.cli.style import reset_json_printed
    from jittrainer.course.device_check import set_platform
    from jittrainer.session.progress import drain_notices

    reset_json_printed()
    set_platform("")
    drain_notices()
    set_language("en")
    before = _process_state()
    threads = set(threading.enumerate())
    yield
    after = _process_state()
    changed = [k for k in before if before[k] != after[k]]
    if "environment" in changed:
        keys = {k for k in before["environment"].keys() | after["environment"].keys()  # type: ignore[union-attr]
                if before["environment"].get(k) != after["environment"].get(k)}  # type: ignore[union-attr]
        changed[changed.index("environment")] = f"environment ({sorted(keys)})"
    deadline = time.monotonic() + LEAK_WAIT_S
    while (leaks := _leaks(threads)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not changed and not leaks, f"the test left process-wide state behind: {changed + leaks}"


@pytest.fixture(autouse=True)
def learner_home(process_state_is_untouched: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("JITTRAINER_HOME", str(home))
    monkeypatch.delenv("JITTRAINER_EXERCISES", raising=False)
    # The language is pinned, so the suite passes whatever the machine's locale; tests of Chinese ask for it.
    monkeypatch.setenv("JITTRAINER_LANG", "en")
    return home


@pytest.fixture(scope="session", autouse=True)
def fork_server():
    """The test session grades as the app does: every worker is forked from one fork server per test process
    (``JITTRAINER_TEST_SPAWN=1`` runs the suite on spawned workers instead). Tests of the spawn path ask for it."""
    from jittrainer.grading.host import zygote

    if os.environ.get("JITTRAINER_TEST_SPAWN", "") not in ("", "0"):
        yield None
        return
    server = zygote.start_shared()
    yield server
    zygote.stop_shared()


@pytest.fixture(scope="session")
def exercises() -> list[Exercise]:
    return load_exercises(EXERCISES)
