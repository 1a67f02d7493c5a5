"""The starter's timing, for exercises that compare against it: measured once per starter file, JAX version and
platform (where it was measured: the starter runs on the CPU for every ``--device``)."""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path
from typing import Any

from jittrainer import paths
from jittrainer.course.exercises import Exercise
from jittrainer.files import atomic_write_text, read_json_object
from jittrainer.grading.verdict import Timing


class StarterTimingCache:
    def __init__(self, path: Path | None = None, jax_version: str = "", platform: str = "cpu") -> None:
        self.path = path or paths.cache_dir() / "starter-timing.json"
        self.jax_version = jax_version
        self.platform = platform

    def key(self, exercise: Exercise) -> str:
        digest = hashlib.sha256(exercise.starter_path.read_bytes()).hexdigest()[:16]
        return f"{exercise.id}:{digest}:{self.jax_version}:{self.platform}"

    def _load(self) -> dict[str, Any]:
        return read_json_object(self.path)

    def get(self, exercise: Exercise) -> dict[str, Any] | None:
        try:
            found = self._load().get(self.key(exercise))
        except OSError:
            return None
        return found if isinstance(found, dict) else None

    def put(self, exercise: Exercise, timing: Timing) -> None:
        with contextlib.suppress(OSError):
            data = self._load()
            data[self.key(exercise)] = {"calls_s": timing.starter_calls_s, "compiles": timing.starter_compiles}
            atomic_write_text(self.path, json.dumps(data, indent=1))
