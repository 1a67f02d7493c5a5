"""Which approach each right file in tests/alt_submissions/ takes: tests/review/approaches.json, recorded on the
primary JAX. ``test_exercise_verdicts`` grades every such file once, with the learner's side of the review measured,
and holds its approach here (``JITTRAINER_RECORD_GOLDENS=1`` rewrites the entries it grades, as for the goldens);
``test_review_rules.py`` holds the table to the issue's bar without a worker."""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import re
from pathlib import Path

import goldens

from helpers import warm_pool
from jittrainer.course.approaches import load_approaches, match
from jittrainer.grading.host.run import Submission
from jittrainer.grading.limits import Limits
from jittrainer.grading.verdict import Verdict

TABLE = Path(__file__).resolve().parent / "review" / "approaches.json"


def expects_pass(path: Path) -> bool:
    return re.search(r"^# expect: pass\s*$", path.read_text(encoding="utf-8"), re.M) is not None


def grade_measured(ex, path: Path, seed: int) -> tuple[Verdict, str | None]:
    """The verdict, and after a pass the approach the program's own measures match ('' for none). The reference's
    side of the review is test_review's: here only the learner's program is measured (no reference run)."""
    sub = Submission(ex, path.read_bytes(), path.resolve(), seed=seed, timing=False, lang="en", review=True)
    grading = warm_pool().grade_run(sub, Limits(timeout_s=ex.timeout_s or 10.0))
    grading._reviewed = lambda verdict: verdict  # type: ignore[method-assign]
    verdict = grading.run()
    first = grading.main  # the run that measured: the last process of an exercise graded in several
    if not verdict.passed or first.measures is None:
        return verdict, None
    measures = dataclasses.replace(first.measures, compiles=verdict.compiles, traces=verdict.traces)
    approach = match(load_approaches(ex.dir, ex.id), measures.features())
    return verdict, approach.id if approach is not None else ""


def load_table() -> dict:
    try:
        return json.loads(TABLE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


@contextlib.contextmanager
def _locked():
    TABLE.parent.mkdir(parents=True, exist_ok=True)
    with open(TABLE.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def hold(exercise_id: str, name: str, approach: str | None, version: str) -> None:
    """Record (with JITTRAINER_RECORD_GOLDENS=1) or compare the approach of one right file."""
    assert approach is not None, f"{name}: passed without the review's measures"
    if goldens.RECORD:
        with _locked():
            table = load_table()
            table["jax_version"] = version
            files = table.setdefault("files", {})
            files[exercise_id] = dict(sorted({**files.get(exercise_id, {}), name: approach}.items()))
            table["files"] = dict(sorted(files.items()))
            TABLE.write_text(json.dumps(table, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return
    table = load_table()
    assert table, "record tests/review/approaches.json (JITTRAINER_RECORD_GOLDENS=1)"
    if table.get("jax_version") != version:
        return  # recorded on the primary JAX: on another one, JAX's own helpers may lower differently
    recorded = table["files"].get(exercise_id, {})
    assert name in recorded, f"{exercise_id} {name}: no recorded approach (JITTRAINER_RECORD_GOLDENS=1)"
    assert approach == recorded[name], f"{exercise_id} {name}: takes {approach or 'no known approach'!r}, " \
                                       f"recorded {recorded[name] or 'none'!r}"
