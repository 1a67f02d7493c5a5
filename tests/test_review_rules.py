"""The review's rules, its model and its faces without a worker: comments from measures, the matching rule for
approaches, the approaches of every exercise, analysis.json against its schema, the frame's handling on the host."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import jsonschema
import pytest

from helpers import EXERCISES, REPO
from jittrainer.cli.review import analysis_json
from jittrainer.course.approaches import Approach, load_approaches, match
from jittrainer.course.exercises import load_exercises
from jittrainer.grading import protocol
from jittrainer.grading.review import ProgramMeasures, Review, decode_review
from jittrainer.grading.review.rules import review_of
from jittrainer.grading.verdict import Verdict
from jittrainer.i18n import set_language
from jittrainer.i18n.message import msg

SCHEMA = json.loads((REPO / "docs" / "analysis.schema.json").read_text(encoding="utf-8"))
REF = ProgramMeasures(signature="s", program="f", eqns=20, primitives={"while": 1, "add": 19}, flops=1000.0,
                      bytes_accessed=2048.0, temp_bytes=0, donated=0, callbacks=0, callbacks_in_loop=0, float64=0,
                      weak_inputs=0, constants=0, const_bytes=0, dead=0, compiles=1, traces=1)


def ids(review: Review) -> list[str]:
    return [c.id for c in review.comments]


def approach(name: str, requires=(), forbids=(), precedence=100) -> Approach:
    return Approach(name, "demo", Path("."), f"Title {name}", f"Summary {name}.", precedence, tuple(requires),
                    tuple(forbids))


def test_the_reference_against_itself_is_celebratory():
    review = review_of(REF, REF, [])
    assert [c.type for c in review.comments] == ["celebratory"]
    assert ids(review) == ["review.lean"]
    assert "1 compile" in review.comments[0].message.render("en")


@pytest.mark.parametrize(("change", "expected", "kind"), [
    ({"compiles": 3, "traces": 3}, "review.cost.compiles", "actionable"),
    ({"eqns": 400}, "review.cost.size", "essential"),
    ({"bytes_accessed": 4096.0}, "review.cost.work", "actionable"),
    ({"flops": 50_000.0}, "review.cost.work", "essential"),
    ({"temp_bytes": 4096}, "review.cost.temp", "actionable"),
    ({"callbacks": 1, "primitives": {**REF.primitives, "debug_print": 1}}, "review.left.callback", "actionable"),
    ({"float64": 3}, "review.left.float64", "actionable"),
    ({"constants": 1, "const_bytes": 4096}, "review.left.constants", "actionable"),
    ({"weak_inputs": 1}, "review.left.weak", "informative"),
    ({"dead": 3}, "review.left.dead", "informative"),
    ({"primitives": {**REF.primitives, "sort": 1}}, "review.left.primitives", "informative"),
])
def test_a_difference_that_matters_makes_its_comment(change, expected, kind):
    mine = dataclasses.replace(REF, **change)
    review = review_of(mine, REF, [])
    found = [c for c in review.comments if c.id == expected]
    assert found and found[0].type == kind, ids(review)
    text = found[0].message.render("en")
    assert any(ch.isdigit() for ch in text) or expected == "review.left.primitives"  # observation with numbers


@pytest.mark.parametrize("change", [
    {"eqns": 26},  # 1.3×: below the ratio
    {"eqns": 6, "primitives": {"while": 1}},  # leaner
    {"bytes_accessed": 2900.0},  # 1.4×
    {"temp_bytes": 512},  # from 0, but under the 1 KiB floor
    {"dead": 2},  # under the floor of 3
    {"compiles": 1, "traces": 0},  # ahead of time: no trace at all
])
def test_a_small_difference_says_nothing_about_cost(change):
    review = review_of(dataclasses.replace(REF, **change), REF, [])
    assert not [c for c in review.comments if c.type in ("essential", "actionable")], ids(review)


def test_leaner_than_the_reference_is_celebrated():
    mine = dataclasses.replace(REF, eqns=10, bytes_accessed=1024.0)
    assert ids(review_of(mine, REF, [])) == ["review.leaner"]


def test_a_donation_the_reference_makes_is_missed():
    ref = dataclasses.replace(REF, donated=1)
    assert "review.left.donation" in ids(review_of(REF, ref, []))


def test_other_inputs_or_no_reference_review_only_the_approach():
    other = dataclasses.replace(REF, signature="other", eqns=999)
    assert ids(review_of(REF, other, [])) == ["review.no_reference"]
    assert ids(review_of(REF, None, [])) == ["review.no_reference"]


def test_the_one_matching_rule_first_match_by_precedence():
    loops = [approach("scan", ["scan"], precedence=20), approach("loop", ["while"], ["scan"], precedence=10),
             approach("plain", [], ["while", "scan"], precedence=30)]
    loops.sort(key=lambda a: (a.precedence, a.id))
    assert match(loops, {"while", "add"}).id == "loop"
    assert match(loops, {"while", "scan"}).id == "scan"
    assert match(loops, {"add"}).id == "plain"
    review = review_of(REF, REF, loops)
    assert review.approach == "loop"
    assert ids(review)[1:] == ["review.approach", "review.approach.other", "review.approach.other"]
    assert review_of(dataclasses.replace(REF, primitives={"while": 1, "scan": 1}), REF, loops[:1]).approach == ""


def test_facts_are_features():
    mine = dataclasses.replace(REF, donated=1, const_bytes=8, callbacks=1, callbacks_in_loop=1, float64=2,
                               weak_inputs=1)
    assert {"@donation", "@constants", "@callback", "@callback_in_loop", "@float64", "@weak_input",
            "while"} <= mine.features()
    assert "@no_program" in ProgramMeasures().features()


def test_review_survives_the_verdict_round_trip_and_refuses_a_bad_type():
    review = review_of(dataclasses.replace(REF, eqns=400), REF, [])
    verdict = Verdict("x", "pass", msg("all_passed", "ok"), review=review)
    back = Verdict.from_dict(json.loads(json.dumps(verdict.to_dict())))
    assert back.review is not None and ids(back.review) == ids(review)
    data = verdict.to_dict()["review"]
    data["comments"][0]["type"] = "shouting"
    with pytest.raises(ValueError):
        decode_review(data)


def test_measures_from_a_worker_keep_only_well_typed_values():
    raw = {"eqns": "many", "flops": float("nan"), "temp_bytes": -1, "primitives": {"add": 2, "x": True},
           "signature": "s" * 999, "donated": 1, "bogus": 3}
    got = ProgramMeasures.from_dict(raw)
    assert got.eqns is None and got.flops is None and got.temp_bytes is None
    assert got.primitives == {"add": 2} and len(got.signature) == 200 and got.donated == 1


def test_the_review_frame_decodes_and_a_job_carries_the_request():
    frame = protocol.decode_frame(protocol.encode(protocol.ReviewFrame("t", {"eqns": 3}))[4:])
    assert isinstance(frame, protocol.ReviewFrame) and frame.measures == {"eqns": 3}
    with pytest.raises(protocol.ProtocolError):
        protocol.decode_frame(json.dumps({"type": "review", "token": "t", "measures": []}).encode())
    job = protocol.GradeJob("e", "f", "jit", "c", "s", "n", b"x", 1, "t", review=True)
    assert protocol.decode_job(protocol.encode(job)[4:]).review is True


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_analysis_json_validates_against_its_schema(lang):
    set_language(lang)
    try:
        mine = dataclasses.replace(REF, eqns=400, callbacks=1, primitives={**REF.primitives, "debug_print": 1})
        loops = [approach("loop", ["while"])]
        for review in (review_of(mine, REF, loops), review_of(REF, REF, loops), review_of(REF, None, [])):
            verdict = Verdict("x", "pass", msg("all_passed", "ok"), review=review)
            data = analysis_json(verdict)
            jsonschema.validate(data, SCHEMA)
            assert data["summary"] and all(c["comment"].startswith("jittrainer.review.") for c in data["comments"])
        failed = Verdict("x", "fail", msg("check.failed", "a check failed"))
        jsonschema.validate(analysis_json(failed), SCHEMA)
    finally:
        set_language("en")


def test_the_schema_refuses_what_exercism_does_not_allow():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    for bad in ({"summary": "x"}, {"comments": [{"comment": "a", "type": "loud"}]},
                {"comments": [{"params": {}}]}, {"comments": [], "extra": 1}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, SCHEMA)
    jsonschema.validate({"comments": ["python.general.x", {"comment": "y"}]}, SCHEMA)


# ------------------------------------------------------------------------------------------- the course's data


def _course_approaches():
    for ex in load_exercises(EXERCISES):
        problems: list[str] = []
        yield ex, load_approaches(ex.dir, ex.id, problems), problems


def test_every_exercise_lists_approaches_and_enough_list_two():
    counts = {}
    for ex, found, problems in _course_approaches():
        assert not problems, problems
        assert found, f"{ex.id}: no approaches/"
        counts[ex.id] = len(found)
    assert sum(n >= 2 for n in counts.values()) >= 16, counts


def test_every_approach_is_translated_and_written_up():
    for ex, found, _problems in _course_approaches():
        for a in found:
            zh = a.translations.get("zh", {})
            assert zh.get("title") and zh.get("summary"), f"{ex.id}/{a.id}: no Chinese title or summary"
            assert (a.dir / f"{a.id}.md").is_file() and (a.dir / f"{a.id}.zh.md").is_file(), f"{ex.id}/{a.id}"
            assert a.writeup("en") and a.writeup("zh") != a.writeup("en")
            assert a.title_msg.render("zh") == zh["title"]


def test_a_malformed_approach_is_named_not_loaded(tmp_path: Path):
    folder = tmp_path / "01_demo" / "approaches"
    folder.mkdir(parents=True)
    (folder / "good.toml").write_text('title = "G"\nsummary = "S."\nrequires = ["while"]\n', encoding="utf-8")
    (folder / "bad.toml").write_text('title = "B"\nsummary = "S."\nrequires = ["no spaces"]\nextra = 1\n',
                                     encoding="utf-8")
    (folder / "empty.toml").write_text('title = "E"\nsummary = "S."\n', encoding="utf-8")
    problems: list[str] = []
    found = load_approaches(tmp_path / "01_demo", "demo", problems)
    assert [a.id for a in found] == ["good"]
    assert any("bad.toml: extra: unknown field" in p for p in problems)
    assert any("bad.toml: requires" in p for p in problems)
    assert any("empty.toml: requires" in p for p in problems)


def test_the_recorded_approaches_of_right_files_meet_the_bar():
    """tests/review/approaches.json holds which approach each right file in tests/alt_submissions/ takes (recorded
    and re-checked by tests/test_review.py through the worker): every listed approach is taken by at least one of
    them, and at most a quarter of them are unrecognised."""
    table = json.loads((REPO / "tests" / "review" / "approaches.json").read_text(encoding="utf-8"))["files"]
    total = unrecognised = 0
    for ex, found, _problems in _course_approaches():
        recorded = table.get(ex.id, {})
        right = {p.name for p in (REPO / "tests" / "alt_submissions" / ex.id).glob("*.py")
                 if "# expect: pass" in p.read_text(encoding="utf-8")}
        assert set(recorded) == right, f"{ex.id}: the table and the right files differ"
        taken = set(recorded.values())
        assert taken <= {a.id for a in found} | {""}, f"{ex.id}: an approach that is not listed"
        assert not [a.id for a in found if a.id not in taken], f"{ex.id}: listed but never taken by a right file"
        total += len(recorded)
        unrecognised += sum(1 for v in recorded.values() if not v)
    assert total and unrecognised * 4 <= total, (unrecognised, total)


def test_the_measures_read_this_jax():
    """XLA's figures (cost_analysis, memory_analysis), donation and the jaxpr facts, on the installed JAX (CI runs this
    on the oldest and the newest release the course supports)."""
    import jax
    import jax.numpy as jnp
    from jax import lax

    from jittrainer.grading.sandbox.review import compiled_facts, jaxpr_facts

    def f(x, idx, n):
        jax.debug.print("{}", x[0])
        _, _, _ = jnp.sin(x), jnp.cos(x), jnp.tan(x)  # three values nothing uses
        y = lax.fori_loop(0, n, lambda i, v: v + 1.0, x)
        onehot = jax.nn.one_hot(idx, x.shape[0], dtype=x.dtype)
        return jnp.dot(onehot, y, precision=lax.Precision.HIGHEST)

    g = jax.jit(f, donate_argnums=0)
    args = (jnp.ones(256), jnp.arange(16), 3)
    facts = jaxpr_facts(g.trace(*args).jaxpr)
    assert facts["callbacks"] == 1 and facts["dead"] == 3 and facts["weak_inputs"] == 1 and facts["eqns"] > 10
    assert {"while", "dot_general", "debug_print"} <= set(facts["primitives"])
    lowered = g.lower(*args)
    xla = compiled_facts(lowered.compile(), lowered.args_info)
    assert xla["flops"] > 16_000 and xla["bytes_accessed"] > 16_000 and xla["temp_bytes"] >= 16_384
    assert xla["donated"] == 1 and xla["argument_bytes"] > 1000
