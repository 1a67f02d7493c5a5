"""``check --format exercism``: results.json v3 whose every test_code says what the check is and which rule of the
statement it enforces (issue 22, item 7)."""

from __future__ import annotations

import ast
import dataclasses

import pytest

from helpers import REPO
from jittrainer.cli.exercism import exercism_json, grading_rules, rule_index, rule_text
from jittrainer.course.exercises import load_exercises
from jittrainer.grading.verdict import CheckResult, Verdict
from jittrainer.i18n import set_language
from jittrainer.i18n.message import Msg

EXERCISES = load_exercises(REPO / "exercises")


def declared_checks(ex) -> dict[str, str]:
    tree = ast.parse(ex.checks_path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "CHECKS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"{ex.id}: no CHECKS")


@pytest.mark.parametrize("ex", EXERCISES, ids=[ex.id for ex in EXERCISES])
def test_every_check_of_every_exercise_finds_its_rule_in_the_statement(ex):
    rules = grading_rules(ex.statement())
    assert rules, "the statement has a 'How it is graded' section with bullets"
    for check_id, description in declared_checks(ex).items():
        n = rule_index(check_id, description, rules)
        assert n is not None, f"{check_id}: no rule"
        if check_id == "values":
            assert rules[n].label in ("Results", "Values", "Order and values"), (check_id, rules[n])
        if check_id in ("one_compile", "compiles"):
            assert rules[n].label and rules[n].label.startswith("Compiles"), (check_id, rules[n])
        if check_id == "runs":
            assert rules[n].label in (None, "Runs") and "call" in rules[n].text, (check_id, rules[n])


@pytest.mark.parametrize("ex", EXERCISES, ids=[ex.id for ex in EXERCISES])
def test_the_chinese_statement_has_the_same_rules(ex):
    english, chinese = grading_rules(ex.statement("en")), grading_rules(ex.statement("zh"))
    assert [r.label is None for r in chinese] == [r.label is None for r in english]


def test_the_rules_of_exercise_1_are_the_ones_a_reader_would_pick():
    ex = next(ex for ex in EXERCISES if ex.id == "black_box_print")
    picked = {cid: rule_text(ex, cid, desc, "en") for cid, desc in declared_checks(ex).items()}
    assert picked["prints_each_call"].startswith("Output: what is printed during call i")
    assert picked["values"].startswith("Results must match")
    assert picked["one_compile"].startswith("Compiles: every backend compile")
    assert picked["runs"].startswith("The grader calls `normalize` under `jax.jit`")


def test_a_chinese_learner_reads_the_rule_in_chinese():
    ex = next(ex for ex in EXERCISES if ex.id == "black_box_print")
    assert len(grading_rules(ex.statement("zh"))) == len(grading_rules(ex.statement("en")))
    rule = rule_text(ex, "prints_each_call", declared_checks(ex)["prints_each_call"], "zh")
    assert rule and any("\u4e00" <= ch <= "\u9fff" for ch in rule)


def test_test_code_carries_the_description_and_the_rule():
    ex = next(ex for ex in EXERCISES if ex.id == "black_box_print")
    checks = [CheckResult(cid, Msg(f"check.{cid}", desc, domain=ex.domain), "pass" if cid != "prints_each_call"
                          else "fail", Msg("t", "printed once"))
              for cid, desc in declared_checks(ex).items()]
    verdict = Verdict(exercise=ex.id, status="fail", headline=Msg("t", "printed once"), checks=checks)
    set_language("en")
    data = exercism_json(verdict, ex)
    assert data["version"] == 3 and data["status"] == "fail"
    by_name = {t["name"]: t for t in data["tests"]}
    prints = by_name["every call prints its own mean, at run time"]
    assert prints["status"] == "fail" and prints["message"] == "printed once"
    assert prints["test_code"].startswith("Check prints_each_call: every call prints its own mean, at run time\n")
    assert "Output: what is printed during call i must contain a number within 0.01" in prints["test_code"]
    assert all(t["test_code"] != t["name"] and "Rule it enforces" in t["test_code"] for t in data["tests"])
    # without the exercise (or its statement), the description alone
    alone = exercism_json(dataclasses.replace(verdict), None)
    assert alone["tests"][0]["test_code"].startswith("Check runs: ")
