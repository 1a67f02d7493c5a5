"""The training-step helpers of the authoring API (the transfer and read counter, the programs-per-step counter),
tested on hand-made code: the verdict tests of host_sync_metrics and jit_too_little cover them through whole grades,
these pin down their rules (which reads are the learner's, what counts as an implicit transfer)."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from jittrainer.authoring import (  # noqa: E402
    BatchLoader,
    ErrorInfo,
    implicit_transfer,
    no_implicit_transfers,
    programs_text,
    spy_host_syncs,
    spy_programs,
)
from jittrainer.grading.sandbox import learner_errors  # noqa: E402

LEARNER = "/tmp/learner_train.py"
LEARNER_CODE = """\
import numpy as np

def loop(x, log):
    total = 0.0
    for _ in range(3):
        total += float(x)          # line 6: a read on every step
    log(x)                         # the grader's callback reads too: not counted
    np.asarray(x)                  # line 8
    return total
"""


def _module(code: str, filename: str, name: str) -> dict:
    namespace = {"__name__": name}
    exec(compile(code, filename, "exec"), namespace)
    return namespace


def test_the_learner_s_reads_are_counted_with_their_lines_and_the_grader_s_are_not():
    learner = _module(LEARNER_CODE, LEARNER, "submission")
    grader = _module("def log(x):\n    return float(x)\n", "/tmp/checks.py", "jittrainer_checks_demo")
    seen: list[tuple[str, int | None]] = []
    active = [True]
    undo = spy_host_syncs(LEARNER, lambda how, line: seen.append((how, line)), when=lambda: active[0])
    try:
        x = jnp.float32(2.0) + 0
        learner["loop"](x, grader["log"])
        active[0] = False
        learner["loop"](x, grader["log"])  # not watched: nothing more
    finally:
        undo()
    assert seen == [("float()", 6)] * 3 + [("np.asarray", 8)]


def test_reads_outside_the_learner_s_file_come_without_a_line():
    seen: list[tuple[str, int | None]] = []
    undo = spy_host_syncs(LEARNER, lambda how, line: seen.append((how, line)))
    try:
        jax.device_get(jnp.arange(2))
    finally:
        undo()
    assert seen == [("jax.device_get", None)]


def test_an_implicit_transfer_raises_and_is_recognised():
    step = jax.jit(lambda v, lr: v * lr)
    x = jax.device_put(np.ones(4, np.float32))
    guarded = no_implicit_transfers(step)
    assert float(guarded(x, jax.device_put(np.float32(0.5)))[0]) == 0.5  # explicit transfers pass
    for args, aval, number in [((np.ones(4, np.float32), jax.device_put(np.float32(1))), "float32[4]", False),
                               ((x, 0.1), "float32[]", True), ((x, 3), "int32[]", True)]:
        with pytest.raises(Exception) as raised:
            guarded(*args)
        info = learner_errors.describe(raised.value, LEARNER, "call 1")
        found = implicit_transfer(info)
        assert found is not None and (found.aval, found.python_number) == (aval, number)
    assert implicit_transfer(ErrorInfo("ValueError", "something else")) is None
    assert implicit_transfer(None) is None


def test_programs_are_counted_per_run_and_named():
    runs: list[str] = []
    undo = spy_programs(runs.append)
    try:
        params = {"w": jax.device_put(np.ones(3, np.float32))}
        eager = jax.tree.map(lambda p: p - 0.1 * p, params)  # two eager operations
        whole = jax.jit(lambda p: jax.tree.map(lambda q: q - 0.1 * q, p))
        whole(params)
        whole(params)
    finally:
        undo()
    assert runs == ["jit(multiply)", "jit(subtract)", "jit(<lambda>)", "jit(<lambda>)"]
    assert float(eager["w"][0]) == pytest.approx(0.9)


def test_programs_text_puts_the_commonest_first():
    names = ["jit(add)"] * 3 + ["jit(step)"] + ["jit(mul)"] * 2 + ["jit(sqrt)", "jit(div)"]
    assert programs_text(names) == "jit(add) ×3, jit(mul) ×2, jit(step), jit(sqrt), …"
    assert programs_text(["jit(step)"]) == "jit(step)"


def test_the_loader_reports_each_batch_as_it_is_taken():
    taken: list[int] = []
    loader = BatchLoader(["a", "b", "c"], taken.append)
    assert len(loader) == 3 and taken == []
    it = iter(loader)
    assert next(it) == "a" and taken == [1]
    assert loader[-1] == "c" and taken == [1, 3]
    assert list(it) == ["b", "c"] and taken == [1, 3, 2, 3]
    with pytest.raises(IndexError):
        loader[3]
