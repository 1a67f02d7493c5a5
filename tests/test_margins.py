"""Every right file of an exercise (solution and alternative submissions expected to pass) is held against the
exercise's own reference and tolerance on the graded inputs of 200 seeds (``tests/margins.py``, one process per
exercise): its largest error must stay within a tenth of the tolerance, so that no right fix fails by float32
rounding on a seed nobody graded (issue 20, class 4). A share above 1/10 means the tolerance is too tight for
float32 at those magnitudes, or the file is not a right fix.

The suite holds them on the first 8 seeds (each seed draws every graded input again: 200 take eleven minutes of CPU,
too long for every run on two cores, and the largest share seen over all 200 is 0.016, far under the limit);
``make margins`` runs all 200, as after any change to a tolerance or a generator."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from margins import EXERCISES, ROOT

LIMIT = 0.1
SUITE_SEEDS = "8"
pytestmark = pytest.mark.worker  # JAX in a process per exercise, minutes in all: not in `make test-fast`


@pytest.mark.parametrize("prefix", sorted(EXERCISES), ids=lambda p: EXERCISES[p][0])
def test_right_files_keep_a_tenth_of_the_tolerance(prefix: str) -> None:
    env = {**os.environ, "JITTRAINER_MARGIN_SEEDS": os.environ.get("JITTRAINER_MARGIN_SEEDS", SUITE_SEEDS)}
    run = subprocess.run([sys.executable, str(ROOT / "tests" / "margins.py"), prefix], capture_output=True,
                         text=True, timeout=1800, cwd=ROOT, env=env)  # minutes on a loaded machine
    assert run.returncode == 0, run.stderr[-2000:]
    shares = json.loads(run.stdout.strip().splitlines()[-1])  # learner files may print before it
    assert shares, "no right file was measured"
    over = {name: round(share, 3) for name, share in shares.items() if not share <= LIMIT}
    assert not over, f"largest error as a share of the tolerance, over {LIMIT}: {over}"
