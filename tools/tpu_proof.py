"""The --device proof on a machine with a TPU: grade course solutions with their timing on the chip, in one process,
so one executor opens the chip once for the whole run; write what was measured as JSON.

    python3 tools/tpu_proof.py OUT.json EXERCISE...   (folder names or ids; run by tools/tpu_proof.sh)
"""

from __future__ import annotations

import json
import sys
import time

from jittrainer.course.exercises import default_root, find_exercise, load_exercises
from jittrainer.grading.host.device import SESSION, choose
from jittrainer.grading.host.grading import Grading
from jittrainer.grading.host.run import Submission
from jittrainer.i18n.message import render


def main(out: str, keys: list[str]) -> int:
    exercises = load_exercises(default_root())
    started = time.monotonic()
    choice = choose("tpu")
    rows, failures = [], 0
    for key in keys:
        ex = find_exercise(exercises, key)
        sub = Submission(ex, ex.solution_path.read_bytes(), ex.solution_path.resolve(), seed=0, timing=True,
                         lang="en").on_device(choice)
        t0 = time.monotonic()
        verdict = Grading(sub).run()
        t = verdict.timing
        row = {"exercise": ex.id, "status": verdict.status, "timing": t.status, "platform": t.platform,
               "device_kind": t.device_kind, "steady_s": t.steady_s, "cpu_steady_s": t.cpu_steady_s,
               "device_compile_s": t.device_compile_s, "device_flops": t.device_flops,
               "device_memory": t.device_memory, "note": render(t.device_note, "en") if t.device_note else "",
               "grade_wall_s": round(time.monotonic() - t0, 3)}
        failures += verdict.status != "pass"
        rows.append(row)
        print(json.dumps(row), flush=True)
    executors = [{"platform": p, **e.facts} for p, e in SESSION.running.items()]
    result = {"choice": {"mode": choice.mode, "platform": choice.platform}, "executors": executors,
              "executor_failures": dict(SESSION.failed), "rows": rows, "wall_s": round(time.monotonic() - started, 3)}
    SESSION.close()
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(result, fh, indent=1)
    print(json.dumps({k: result[k] for k in ("executors", "executor_failures", "wall_s")}))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
