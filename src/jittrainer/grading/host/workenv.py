"""The environment a grading worker (and the fork server) runs with: the learner's own JAX and XLA settings removed,
the grader's set."""

from __future__ import annotations

import os
from pathlib import Path

import jittrainer
from jittrainer.grading.host import procs
from jittrainer.grading.limits import DEFAULT_DEVICES


def worker_env(token: str = "", devices: int = DEFAULT_DEVICES) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_") and k != "XLA_FLAGS"}
    env[procs.TOKEN_VAR] = token  # inherited by whatever the learner's code starts, so kill() can find it
    env["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={devices}"
    env["JAX_PLATFORMS"] = "cpu"  # the simulated devices are CPU devices, on any machine
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"  # XLA's C++ info logs are not the learner's output
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("PYTHONSTARTUP", None)
    src = str(Path(jittrainer.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH", "")) if p)
    return env


def zygote_env() -> dict[str, str]:
    """The worker's clean environment (no device count yet: each job sets its own), with NumPy's OpenBLAS kept to one
    thread: it starts one per core at import, and a process that forks must have exactly one."""
    env = worker_env("")
    env.pop("XLA_FLAGS", None)
    env["OPENBLAS_NUM_THREADS"] = "1"
    return env


def executor_env(platform: str) -> dict[str, str]:
    """The device executor's: a worker's clean environment without the simulated CPU devices or a job's token, on
    ``platform`` with ``cpu`` kept (``jax.debug.print`` needs a CPU device)."""
    env = worker_env("")
    env.pop("XLA_FLAGS", None)
    env.pop(procs.TOKEN_VAR, None)
    env["JAX_PLATFORMS"] = "cpu" if platform == "cpu" else f"{platform},cpu"
    return env
