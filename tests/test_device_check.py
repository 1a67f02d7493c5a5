"""Device checks (``[grading.device]``): read from the manifest, unavailable where the device mode gives none of
their platforms, and decided on the host from what the executor measured. The fixture exercise names the CPU, so
the whole path (the worker's export, the executor's own inputs and the exercise's float64 reference, the host's
decision) runs here for real; the accelerator differs only in the platform the executor opens."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from jittrainer.course import device_check
from jittrainer.course.device_check import DeviceCheck
from jittrainer.course.exercises import load_exercises
from jittrainer.grading.executor import precisions
from jittrainer.grading.host import device
from jittrainer.grading.host.device_check import decide
from jittrainer.grading.host.run import Submission, grade_once

FIXTURE = Path(__file__).parent / "fixtures" / "device_exercises"
SPEC = DeviceCheck(("tpu",), "on_chip", ((4, 4), (4, 4)), 1e-4)


def read(table: object) -> tuple[DeviceCheck | None, list[str]]:
    problems: list[str] = []
    return device_check.read(table, lambda label, why: problems.append(f"{label}: {why}")), problems


def test_a_device_table_is_read_and_every_bad_value_is_named():
    spec, problems = read({"platforms": ["tpu"], "check": "on_chip", "inputs": [[512, 512], [512, 512]],
                           "max_error": 1e-4})
    assert problems == [] and spec == DeviceCheck(("tpu",), "on_chip", ((512, 512), (512, 512)), 1e-4)
    spec, problems = read({"platforms": ["tpu"], "check": "c", "inputs": [[4]], "max_error": 1e-2,
                           "max_output_factor": 1.25, "any_shape": True})
    assert problems == [] and spec.max_output_factor == 1.25 and spec.any_shape
    for bad, label in [({"platforms": ["tpu"], "check": "on_chip", "inputs": [[4]], "max_error": 1e-4, "x": 1},
                        "grading.device.x"),
                       ({"platforms": ["xpu"], "check": "c", "inputs": [[4]], "max_error": 1e-4}, "platforms"),
                       ({"platforms": ["tpu"], "check": "not id", "inputs": [[4]], "max_error": 1e-4}, "check"),
                       ({"platforms": ["tpu"], "check": "c", "inputs": [[0]], "max_error": 1e-4}, "inputs"),
                       ({"platforms": ["tpu"], "check": "c", "inputs": [[4096, 4096]], "max_error": 1e-4}, "inputs"),
                       ({"platforms": ["tpu"], "check": "c", "inputs": [[4]], "max_error": 2}, "max_error"),
                       ({"platforms": ["tpu"], "check": "c", "inputs": [[4]], "max_error": 0.1,
                         "max_output_factor": 0.5}, "max_output_factor"),
                       ({"platforms": ["tpu"], "check": "c", "inputs": [[4]], "max_error": 0.1, "any_shape": 1},
                        "any_shape"),
                       ("tpu", "grading.device")]:
        _, problems = read(bad)
        assert problems and problems[0].split(":")[0].endswith(label), (bad, problems)


def test_an_accelerator_exercise_is_unavailable_in_the_cpu_mode_and_says_how_to_grade_it(tmp_path):
    folder = tmp_path / "01_product"
    shutil.copytree(FIXTURE / "01_product", folder)
    manifest = folder / "manifest.toml"
    manifest.write_text(manifest.read_text().replace('platforms = ["cpu"]', 'platforms = ["tpu"]'))
    (ex,) = load_exercises(tmp_path)
    assert not ex.problems
    assert not ex.available and "--device auto" in ex.unavailable_reason() and "TPU" in ex.unavailable_reason()
    device_check.set_platform("tpu")
    assert ex.available and ex.unavailable_reason() == ""
    # A grade in a mode without the device is an error that says so, never a pass.
    device_check.set_platform("")
    source = (folder / "solution.py").read_bytes()
    verdict = grade_once(Submission(ex, source, folder / "solution.py", seed=1))
    assert verdict.status == "error"
    row = next(c for c in verdict.checks if c.id == "close")
    assert row.status == "error" and "not graded" in row.message


@pytest.fixture()
def product():
    ex = load_exercises(FIXTURE)[0]
    assert not ex.problems and ex.available
    yield ex
    device.SESSION.close()  # the CPU executor this test started


@pytest.mark.parametrize("file, status", [("solution.py", "pass"), ("starter.py", "fail"),
                                          ("wrong/transposed.py", "fail")])
def test_the_device_decides_its_check_from_the_executors_inputs_and_reference(product, file, status):
    path = product.dir / file
    verdict = grade_once(Submission(product, path.read_bytes(), path, seed=3))
    assert verdict.status == status, verdict.headline.render()
    row = next(c for c in verdict.checks if c.id == "close")
    assert row.status == status
    text = row.message
    if status == "pass":
        assert "off by" in text and "DEFAULT" in text
    else:
        assert verdict.headline.render() == text
        assert "float64 reference" in text and "precision DEFAULT" in text
        assert float(text.split("off by ")[1].split()[0]) > 1e-4  # bfloat16 products: ~3e-3; 1 % off: 1e-2


def test_the_executor_refuses_a_program_whose_inputs_are_not_the_manifests(product):
    from test_device import exported

    executor = device.DeviceExecutor("cpu")
    try:
        executor.ready()
        reply = executor.check_program(exported("cpu"), [[2048, 1100], [1100, 16]], 0,
                                       str(product.dir / device_check.REFERENCE_FILE))
    finally:
        executor.close()
    assert reply["ok"] and "float32[8, 4]" in reply["inputs_differ"]
    ok, seen = decide(SPEC, reply, "cpu")
    assert not ok and "float32 arrays of shapes [4, 4], [4, 4]" in seen.render()


@pytest.mark.parametrize("reply, passes, words", [
    ({"outputs": 2}, False, "returns 2 arrays"),
    ({"shape": [4], "reference_shape": [4, 4]}, False, "has shape [4]"),
    ({"shape": [4, 4], "reference_shape": [4, 4], "error": None}, False, "not finite"),
    ({"shape": [4, 4], "reference_shape": [4, 4], "error": 2.4e-3, "precisions": ["DEFAULT"]}, False,
     "off by 2.4e-03 of its largest value against the float64 reference (at most 1e-04 allowed)"),
    ({"shape": [4, 4], "reference_shape": [4, 4], "error": 1.4e-5, "precisions": ["HIGH"]}, True, "precision HIGH"),
    ({"shape": [4, 4], "reference_shape": [4, 4], "error": 1e-4, "precisions": []}, True, "at most 1e-04"),
])
def test_the_host_decides_from_the_measures_alone(reply, passes, words):
    ok, seen = decide(SPEC, {"ok": True, **reply}, "TPU v5 lite")
    assert ok is passes and words in seen.render()


def test_the_precision_a_program_asks_for_is_read_from_its_stablehlo():
    text = "\n".join([
        "%0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x8xf32>) -> tensor<8x8xf32>",
        "%1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : ...",
        "%2 = stablehlo.dot_general %1, %arg1, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = bf16, "
        "rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, "
        "num_primitive_operations = 3, allow_imprecise_accumulation = false> : ...",
        "%3 = stablehlo.add %2, %2 : tensor<8x8xf32>",
    ])
    assert precisions(text) == ["DEFAULT", "HIGHEST", "3 passes (dot algorithm)"]
    assert precisions("%3 = stablehlo.add %2, %2") == []


def test_a_device_check_needs_its_reference_and_is_refused_in_a_pack(tmp_path):
    folder = tmp_path / "01_product"
    shutil.copytree(FIXTURE / "01_product", folder)
    (folder / device_check.REFERENCE_FILE).unlink()
    (ex,) = load_exercises(tmp_path)
    assert any("device_reference.py: file is missing" in p for p in ex.problems), ex.problems
    ex = load_exercises(FIXTURE, pack="p")[0]
    assert any("a pack's exercise cannot have a device check" in p for p in ex.problems), ex.problems


@pytest.mark.parametrize("body", ["    raise ValueError('a typo in the reference')\n", None])
def test_a_fault_in_the_exercises_reference_is_an_error_that_blames_the_exercise(tmp_path, body):
    """The reference is course data run in the executor: when it raises (or defines no reference()), the solution
    is not graded and the learner is told the exercise is at fault, never that their program did not run."""
    folder = tmp_path / "01_product"
    shutil.copytree(FIXTURE / "01_product", folder)
    reference = folder / device_check.REFERENCE_FILE
    if body is None:
        reference.write_text("def not_the_reference(x, w):\n    return x @ w\n")
    else:
        reference.write_text("def reference(x, w):\n" + body)
    (ex,) = load_exercises(tmp_path)
    try:
        path = folder / "solution.py"
        verdict = grade_once(Submission(ex, path.read_bytes(), path, seed=3))
    finally:
        device.SESSION.close()
    row = next(c for c in verdict.checks if c.id == "close")
    assert verdict.status == "error" and row.status == "error", verdict.headline.render()
    assert "fault in the exercise, not in your program" in row.message and "device_reference.py" in row.message
    assert ("ValueError: a typo in the reference" if body else "defines no reference()") in row.message
    assert "did not run" not in row.message


@pytest.mark.parametrize("file, status", [("solution.py", "pass"), ("starter.py", "fail")])
def test_any_shape_compares_in_row_major_order_and_the_memory_is_the_devices(file, status):
    ex = load_exercises(FIXTURE)[1]
    assert ex.id == "folded" and ex.device_check.any_shape and ex.device_check.max_output_factor == 1.25
    path = ex.dir / file
    try:
        verdict = grade_once(Submission(ex, path.read_bytes(), path, seed=3))
    finally:
        device.SESSION.close()
    row = next(c for c in verdict.checks if c.id == "stored")
    assert verdict.status == status and row.status == status, verdict.headline.render()
    if status == "pass":  # (4, 8, 16) for the reference's (4, 8, 4, 4); the CPU stores the logical size
        assert "takes 2,048 bytes for 2,048 bytes of values (1.00×, at most 1.25×)" in row.message
    else:  # heads before positions: the same values in another order
        assert "against the float64 reference" in row.message


FOLDED = DeviceCheck(("tpu",), "on_chip", ((4, 4),), 1e-2, max_output_factor=1.25, any_shape=True)


@pytest.mark.parametrize("reply, passes, words", [
    ({"shape": [16], "reference_shape": [4, 4], "error": 1e-3, "output_bytes": 64, "output_logical_bytes": 64},
     True, "(1.00×, at most 1.25×)"),
    ({"shape": [4, 4], "reference_shape": [4, 4], "error": 1e-3, "output_bytes": 4096,
      "output_logical_bytes": 64}, False, "takes 4,096 bytes for 64 bytes of values: 64.00× its size"),
    ({"shape": [4, 4], "reference_shape": [4, 4], "error": 1e-3}, False, "did not say how much memory"),
    ({"shape": [17], "reference_shape": [4, 4], "error": None}, False, "has shape [17]"),
    ({"shape": [16], "reference_shape": [4, 4], "error": 0.5, "output_bytes": 64, "output_logical_bytes": 64},
     False, "off by 5.0e-01"),
])
def test_the_memory_factor_is_decided_from_the_devices_figure(reply, passes, words):
    ok, seen = decide(FOLDED, {"ok": True, **reply}, "TPU v5 lite")
    assert ok is passes and words in seen.render(), seen.render()


def test_without_its_device_an_accelerator_exercise_is_read_but_not_graded(capsys):
    from jittrainer.cli import main

    assert main(["show", "matmul_precision"]) == 0
    assert "## Contract" in capsys.readouterr().out
    assert main(["check", "matmul_precision"]) == 2
    err = capsys.readouterr().err
    assert "45_matmul_precision is unavailable: graded on a TPU by the device executor" in err


def test_validate_grades_an_exercise_with_a_device_check_as_declared():
    from jittrainer.course.validate import validate
    from jittrainer.grading.host.device import choose

    exercises = load_exercises(FIXTURE)
    try:
        report = validate(exercises, seed=5, jobs=2, device=choose("cpu"))
    finally:
        device.SESSION.close()
    # The fixtures are not held to the course's static rules; every grade is as declared.
    assert len(report.results) == 10 and all(r.ok for r in report.results), report.results
    assert sorted((r.exercise, r.role, r.status) for r in report.results if r.role != "wrong") == [
        ("folded", "solution", "pass"), ("folded", "starter", "fail"),
        ("product", "solution", "pass"), ("product", "starter", "fail")]


def test_validate_skips_an_accelerator_exercise_without_its_device_and_says_why(tmp_path):
    from jittrainer.course.validate import validate

    folder = tmp_path / "01_product"
    shutil.copytree(FIXTURE / "01_product", folder)
    manifest = folder / "manifest.toml"
    manifest.write_text(manifest.read_text().replace('platforms = ["cpu"]', 'platforms = ["tpu"]'))
    report = validate(load_exercises(tmp_path), seed=5, jobs=1)
    assert report.results == [] and len(report.skipped) == 1
    assert report.skipped[0].startswith("01_product: graded on a TPU by the device executor")
