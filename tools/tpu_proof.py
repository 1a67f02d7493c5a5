"""The --device proof on a machine with a TPU: grade course solutions with their timing on the chip, in one process,
so one executor opens the chip once for the whole run; write what was measured as JSON.

    python3 tools/tpu_proof.py OUT.json EXERCISE...   (folder names or ids; run by tools/tpu_proof.sh)
    python3 tools/tpu_proof.py --files OUT.json EXERCISE...

``--files``: every graded file of an exercise with a device check (starter, solution, wrong/ and
tests/alt_submissions/<id>/), each held to what it declares, as ``test_exercise_verdicts`` does on the CPU, and the
approach each passing file's review finds (for tests/review/approaches.json). CI has no accelerator: this is how
those files are proved.
"""

from __future__ import annotations

import json
import sys
import time

from pathlib import Path

from jittrainer.course.device_check import set_platform
from jittrainer.course.exercises import default_root, find_exercise, load_exercises
from jittrainer.course.expect import judge, read_expectation
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


def prove_files(out: str, keys: list[str]) -> int:
    exercises = load_exercises(default_root())
    started = time.monotonic()
    choice = choose("tpu")
    set_platform(choice.platform)
    alt_root = Path(__file__).resolve().parents[1] / "tests" / "alt_submissions"
    rows, problems = [], 0
    for key in keys:
        ex = find_exercise(exercises, key)
        files = [("starter", ex.starter_path), ("solution", ex.solution_path)]
        files += [("wrong", p) for p in ex.wrong_paths] + [("alt", p) for p in sorted((alt_root / ex.id).glob("*.py"))]
        for role, path in files:
            sub = Submission(ex, path.read_bytes(), path.resolve(), seed=0, timing=False, lang="en",
                             review=role in ("solution", "alt")).on_device(choice)
            t0 = time.monotonic()
            verdict = Grading(sub).run()
            first = verdict.first_failure
            if role == "starter":
                statuses = {c.id: c.status for c in verdict.checks}
                problem = "" if all(statuses.get(t) in ("fail", "error") for t in ex.targets) else "starter passed"
            elif role == "solution":
                problem = "" if verdict.passed else "solution did not pass"
            else:
                problem = judge(read_expectation(path), verdict)
            problems += bool(problem)
            row = {"exercise": ex.id, "role": role, "file": path.name, "status": verdict.status,
                   "first_failure": first.id if first is not None else "", "problem": problem,
                   "message": render(verdict.headline, "en")[:400],
                   "device_row": next((render(c.observation, "en") for c in verdict.checks
                                       if ex.device_check and c.id == ex.device_check.check and c.observation), ""),
                   "approach": verdict.review.approach if verdict.review is not None else None,
                   "grade_wall_s": round(time.monotonic() - t0, 3)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    executors = [{"platform": p, **e.facts} for p, e in SESSION.running.items()]
    result = {"choice": {"mode": choice.mode, "platform": choice.platform}, "executors": executors,
              "executor_failures": dict(SESSION.failed), "rows": rows, "problems": problems,
              "wall_s": round(time.monotonic() - started, 3)}
    SESSION.close()
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(result, fh, indent=1)
    print(json.dumps({k: result[k] for k in ("executors", "executor_failures", "problems", "wall_s")}))
    return 1 if problems else 0


if __name__ == "__main__":
    if sys.argv[1] == "--files":
        sys.exit(prove_files(sys.argv[2], sys.argv[3:]))
    sys.exit(main(sys.argv[1], sys.argv[2:]))
