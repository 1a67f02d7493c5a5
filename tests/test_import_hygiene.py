"""The UI and CLI processes never import jax; the core never imports Textual."""

import subprocess
import sys

import pytest

CHECK = "import sys, {module}; bad = [m for m in {banned!r} if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)"


@pytest.mark.parametrize(
    ("module", "banned"),
    [
        ("jittrainer.cli", ["jax", "jaxlib", "textual"]),
        ("jittrainer.core.runner", ["jax", "textual"]),
        ("jittrainer.core.store", ["jax", "textual"]),
        ("jittrainer.core.validate", ["jax", "textual"]),
        ("jittrainer.core.cachemiss", ["jax", "textual"]),
        ("jittrainer.core.units", ["jax", "textual"]),
        ("jittrainer.core.toolkit", ["textual"]),
        ("jittrainer.core.worker", ["jax", "textual"]),
    ],
)
def test_module_imports_stay_clean(module, banned):
    r = subprocess.run([sys.executable, "-c", CHECK.format(module=module, banned=banned)], capture_output=True, text=True)
    assert r.returncode == 0, f"{module} imported {r.stdout.strip()} {r.stderr[-500:]}"
