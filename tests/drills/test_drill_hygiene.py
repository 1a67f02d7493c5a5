"""The drill modules keep the project's import rules: no jax outside the worker, no Textual in the core."""

import subprocess
import sys

import pytest

CHECK = "import sys, {module}; bad = [m for m in {banned!r} if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)"


@pytest.mark.parametrize(
    ("module", "banned"),
    [
        ("jittrainer.core.drills", ["jax", "jaxlib", "textual"]),
        ("jittrainer.core.proofs", ["jax", "textual"]),
        ("jittrainer.drill_cli", ["jax", "jaxlib", "textual"]),
        ("jittrainer.app.drill", ["jax", "jaxlib"]),
    ],
)
def test_drill_modules_import_clean(module, banned):
    r = subprocess.run([sys.executable, "-c", CHECK.format(module=module, banned=banned)], capture_output=True, text=True)
    assert r.returncode == 0, f"{module} imported {r.stdout.strip()} {r.stderr[-500:]}"


def test_the_worker_knows_the_proof_task():
    from jittrainer.core.worker import TASKS

    module, _, function = TASKS["proof"].partition(":")
    assert (module, function) == ("jittrainer.core.proofs", "run_proof")
