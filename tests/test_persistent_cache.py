"""The persistent-cache helpers (``checks/persistent_cache.py``): JAX's log lines read into events, a program's
name and text, and where two programs part. The lines come from JAX 0.10.2 and 0.12 (the same words); that the
installed JAX still writes them is tested in ``tests/test_jax_compat.py``."""

from __future__ import annotations

import numpy as np
import pytest

from jittrainer.grading.sandbox.checks.persistent_cache import (CacheEvent, first_difference,
                                                                 parse_cache_line, program_name)
from jittrainer.grading.sandbox.checks.values import numbers_in

KEY = "jit_step-2b456cd43a817d7ab7e2ef14d12d62d9d9b68059f33cd2272b8737ab8279912f"


@pytest.mark.parametrize(("line", "kind", "program", "seconds"), [
    (f"Persistent compilation cache hit for 'jit_step' with key '{KEY}'", "hit", "jit_step", None),
    (f"PERSISTENT COMPILATION CACHE MISS for 'jit_step' with key '{KEY}'", "miss", "jit_step", None),
    (f"Writing jit_step to persistent compilation cache with key '{KEY}'", "written", "jit_step", None),
    ("Not writing persistent cache entry for 'jit_step' because it took < 1.00 seconds to compile (0.41s)",
     "not_written", "jit_step", 0.41),
    ("Not writing persistent cache entry for 'jit_step' because it uses host callbacks (e.g. from jax.debug.print "
     "or breakpoint)", "not_written", "jit_step", None),
    (f"Not writing persistent cache entry with key '{KEY}' since its size (812 bytes) is less than threshold (4096 "
     "bytes)", "not_written", "jit_step", None),
    ("'jit_step' took at least 0.00 seconds to compile (0.63s)", "timed", "jit_step", 0.63),
])
def test_each_line_jax_logs_is_one_event(line, kind, program, seconds):
    event = parse_cache_line(line, cache_dir="/c", min_compile_time=0.0, folder="/c")
    assert event is not None and (event.kind, event.program, event.seconds) == (kind, program, seconds)
    assert (event.cache_dir, event.min_compile_time, event.folder) == ("/c", 0.0, "/c")
    if kind == "not_written":
        assert event.why and not event.why.startswith("for ")


def test_the_folder_the_cache_opened_at_and_other_lines():
    opened = parse_cache_line("Initialized persistent compilation cache at /tmp/sweep/cache", cache_dir="/x")
    assert opened == CacheEvent("opened", cache_dir="/x", folder="/tmp/sweep/cache")
    assert parse_cache_line("get_compile_options: num_replicas=1 num_partitions=1") is None
    assert parse_cache_line("TRACING CACHE MISS at step.py:3 (train):") is None


def test_a_programs_name_and_where_two_programs_part():
    jax = pytest.importorskip("jax")

    def text(lr):
        return jax.jit(lambda w, x: w - lr * x).lower(np.ones(3, np.float32), np.ones(3, np.float32)).as_text()

    assert program_name(text(0.5)) == "jit__lambda"
    assert program_name("HloModule jit_train_step, entry_computation_layout={()->()}") == "jit_train_step"
    assert program_name("no program here") == ""
    assert first_difference(text(0.5), text(0.5)) is None
    line, before, after = first_difference(text(0.5), text(0.25))
    assert "stablehlo.constant" in before and numbers_in(before) == [0.5] and numbers_in(after) == [0.25]
    assert first_difference("a\nb", "a") == (2, "b", "")

