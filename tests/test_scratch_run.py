"""The scratch run (``jittrainer run ID [FILE]``, F6 in the app): the learner's file run as a program, ungraded.

Every starter carries an ``if __name__ == "__main__":`` block with a small example call that a scratch run runs
(and grading does not); the run reports per jitted call what was printed, traced and compiled and why, the jaxpr
of each jitted function, and errors with the learner's line, under the same limits and channel as a grade."""

from __future__ import annotations

import ast
import builtins
import json
import subprocess
import textwrap

import pytest

from helpers import EXERCISES, REPO, clean_env, exercise, jittrainer_cmd
from jittrainer.course.exercises import find_exercise, load_exercises
from jittrainer.grading.host.run import Submission
from jittrainer.grading.host.scratch import ScratchRunHost, scratch_run
from jittrainer.grading.limits import Limits, limits_for

FIXTURES = REPO / "tests" / "fixtures" / "exercises"
DOUBLE = "import jax\n\n\n@jax.jit\ndef double(x):\n    print('tracing double with', x)\n    return 2 * x\n"


def _main_block(tree: ast.Module) -> ast.If | None:
    for node in tree.body:
        if (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
                and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__"):
            return node
    return None


@pytest.mark.parametrize("ex", load_exercises(EXERCISES), ids=lambda ex: ex.id)
def test_every_starter_has_a_main_block_that_calls_the_graded_code(ex):
    for path in (ex.starter_path, ex.dir / "starter.zh.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        block = _main_block(tree)
        assert block is not None, f"{path}: no if __name__ == '__main__': block"
        called = {n.func.id for n in ast.walk(block) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        called |= {n.func.value.id for n in ast.walk(block) if isinstance(n, ast.Call)
                   and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)}
        assert ex.function in called or any(name in called for name in _defined(tree)), (path, called)
        # Everything the block names is defined by the file or the block (no NameError in a learner's first try).
        known = _defined(tree) | set(dir(builtins)) | {"__name__"}
        assigned = {n.id for n in ast.walk(block) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        assigned |= {a.asname or a.name.split(".")[0] for n in ast.walk(block)
                     if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
        assigned |= {a.arg for n in ast.walk(block) if isinstance(n, ast.arg) for a in [n]}
        assigned |= {n.name for n in ast.walk(block) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        used = {n.id for n in ast.walk(block) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        assert used <= known | assigned, (path, used - known - assigned)


def _defined(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {a.asname or a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def run_file(ex, tmp_path, code: str, **limits):
    path = tmp_path / "draft.py"
    path.write_text(textwrap.dedent(code))
    limits = Limits(**limits) if limits else limits_for(ex)
    host = ScratchRunHost(Submission(ex, path.read_bytes(), path, timing=False, lang="en"), limits)
    result = host.run()
    result.graded_s = host.verdict_at - host.handed_over_at  # the limit counts from the job's hand-over
    return result


@pytest.fixture(scope="module")
def double():
    return find_exercise(load_exercises(FIXTURES), "double")


@pytest.mark.worker
@pytest.mark.parametrize("exercise_id", ["black_box_print", "traced_if", "recompile_storm", "shard_map_psum"])
def test_starter_blocks_run_and_show_the_pitfall(exercise_id, tmp_path):
    ex = exercise(exercise_id)
    result = scratch_run(Submission(ex, ex.starter_path.read_bytes(), ex.starter_path, timing=False, lang="en"),
                         limits_for(ex))
    assert result.main_block and result.calls, result.message
    assert result.error is None or result.error.type not in ("NameError", "ImportError", "SyntaxError")
    if exercise_id == "black_box_print":  # the lesson itself: the print ran while tracing, not on the second call
        sections = {s.label: s.text for s in result.output_sections}
        assert "JitTracer" in sections["call 1"] and sections["call 2"] == ""
    if exercise_id == "traced_if":
        assert result.error.type == "TracerBoolConversionError" and result.error.line == 7
    if exercise_id == "recompile_storm":
        assert len(result.calls) == 16 and all(c.compiles == 1 for c in result.calls)


@pytest.mark.worker
def test_each_jitted_call_says_what_it_printed_traced_and_compiled_and_why(double, tmp_path):
    result = run_file(double, tmp_path, DOUBLE + textwrap.dedent("""
        if __name__ == "__main__":
            import jax.numpy as jnp
            print("start")
            double(jnp.ones(3))
            double(jnp.ones(3))
            double(jnp.ones(5))
    """))
    assert result.error is None, result.message
    assert [(c.number, c.function, c.traces, c.compiles) for c in result.calls] == [
        (1, "double", 1, 1), (2, "double", 0, 0), (3, "double", 1, 1)]
    assert result.calls[0].types == ["float32[3]"]
    reasons = {m.call: str(m.reason) for m in result.cache_misses if m.call}
    assert "first call of double" in reasons[1] and "f32[3] to f32[5]" in reasons[3]
    sections = [(s.label, s.text) for s in result.output_sections]
    assert sections[:3] == [("run", "start\n"), ("call 1", "tracing double with JitTracer(float32[3])\n"),
                            ("call 2", "")]
    assert [j.function for j in result.jaxprs] == ["double"] and "mul" in result.jaxprs[0].text
    assert result.message.startswith("your program ran: 3 jitted calls, 2 traces and 2 compiles in them")


@pytest.mark.worker
def test_an_error_names_the_learners_line_and_a_missing_block_is_said(double, tmp_path):
    result = run_file(double, tmp_path, DOUBLE + "\nif __name__ == '__main__':\n    double(1.0)\n    1 / 0\n")
    assert result.error.type == "ZeroDivisionError" and result.error.line == 11
    assert result.message.startswith("your program raised ZeroDivisionError on line 11 after 1 jitted call")
    result = run_file(double, tmp_path, DOUBLE)
    assert result.error is None and not result.main_block and not result.calls
    assert "has no if __name__" in result.message


@pytest.mark.worker
def test_a_scratch_run_keeps_the_grades_limits_and_channel(double, tmp_path):
    # The loop on one line: Python 3.11 and 3.13 name different lines of a two-line `while True: pass`.
    result = run_file(double, tmp_path, DOUBLE + "\nif __name__ == '__main__':\n    while True: pass\n", timeout_s=3)
    assert result.error.type == "Timeout" and result.error.line == 10, result.message
    assert result.message.startswith("timed out after 3 s while your program ran: line 10")
    assert result.graded_s < 3 + 5
    forged = textwrap.dedent("""
        import json, os, struct
        frame = json.dumps({"type": "result", "token": "", "ok": True, "data": {}}).encode()
        for name in os.listdir("/proc/self/fd"):
            try:
                os.write(int(name), struct.pack(">I", len(frame)) + frame) if int(name) > 2 else None
            except OSError:
                pass
    """)
    result = run_file(double, tmp_path, forged + DOUBLE)
    assert result.error.type == "ForgedVerdict", result.message


@pytest.mark.worker
def test_jittrainer_run_prints_json_and_records_nothing(tmp_path):
    home = tmp_path / "home"
    draft = home / "workspace" / "double.py"
    draft.parent.mkdir(parents=True)
    draft.write_text(DOUBLE + "\nif __name__ == '__main__':\n    print(double(2.0))\n")
    proc = subprocess.run([*jittrainer_cmd(), "--exercises", str(FIXTURES), "run", "double", "--json"],
                          capture_output=True, text=True, env=clean_env(JITTRAINER_HOME=str(home)),
                          stdin=subprocess.DEVNULL, timeout=120)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["scratch"] is True and data["calls"][0]["function"] == "double"
    assert "4.0" in data["output"]
    assert not (home / "progress.json").exists() or "double" not in json.loads(
        (home / "progress.json").read_text()).get("exercises", {})
    text = subprocess.run([*jittrainer_cmd(), "--exercises", str(FIXTURES), "run", "double"], capture_output=True,
                          text=True, env=clean_env(JITTRAINER_HOME=str(home)), stdin=subprocess.DEVNULL, timeout=120)
    assert "scratch run" in text.stdout and "ungraded, not recorded" in text.stdout
    assert "1. double(~float32[])" in text.stdout, text.stdout  # 2.0 is weakly typed
