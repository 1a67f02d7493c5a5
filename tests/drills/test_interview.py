"""The mock interview's plan: the plan file's parts and their minutes, scaled by --minutes, the follow-up pairs and
the debugging tasks taken from data, and the clock that moves from part to part (issue 36)."""

from __future__ import annotations

import pytest
from drillkit import DRILLS, FakeClock
from interviewkit import make_course

from helpers import REPO
from jittrainer.course import load_course
from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.schedule import Scheduler
from jittrainer.course.interview import Timeline, load_spec, plan_interview
from jittrainer.session.progress import ProgressStore

# Exercises the plan file pairs that other work is adding to the course this round (issue 36 names them). A pair
# naming one of them waits, unused, until the exercise is in the course and marked `interview = true`.
BEING_WRITTEN = {"host_sync_metrics", "jit_too_little", "jit_numerics", "optimizer_rebuilt", "cache_growth",
                 "persistent_cache", "grad_under_jit", "remat_budget", "pytree_metadata"}


def _plan(root, minutes=None, seed=1, **kwargs):
    course = load_course(root)
    deck = load_drills(root / "drills")
    return plan_interview(course, deck, Scheduler(ProgressStore(), fuzz=False), minutes=minutes, seed=seed, **kwargs)


def test_the_plan_file_sets_the_parts_their_times_the_pair_and_the_task(tmp_path, learner_home):
    plan = _plan(make_course(tmp_path / "course"))
    assert plan.minutes == 29
    assert [p.id for p in plan.parts] == ["warmup", "coding", "debugging", "rapid", "explain"]
    assert sum(p.budget_s for p in plan.parts) <= 29 * 60  # four plain cards cannot fill the card parts
    coding = plan.part("coding")
    assert [ex.id for ex in coding.exercises] == ["double", "twice"]
    assert coding.follows["twice"].first == "double" and coding.follows["twice"].note("zh") == "现在对 twice 做同样的事。"
    assert coding.sizes == {"double": 10, "twice": 8} and coding.budget_s == 18 * 60  # what the pair takes
    debugging = plan.part("debugging")
    assert debugging.task.id == "fixture" and [c.id for c in debugging.cards] == ["debug_fix_count", "debug_fix_why"]
    assert debugging.budget_s == 270  # the task's countdowns: 120 s and 150 s
    for part_id in ("warmup", "rapid"):
        assert not any(c.id.startswith("debug_") for c in plan.part(part_id).cards)
    rapid = plan.part("rapid")
    assert rapid.card_seconds == 30 and all(rapid.card_s(c) <= 30 for c in rapid.cards)
    assert not {c.id for c in plan.part("warmup").cards} & {c.id for c in rapid.cards}


def test_a_pair_needs_both_of_its_exercises_marked_for_interviews(tmp_path, learner_home):
    plan = _plan(make_course(tmp_path / "course", marked=("double",)))
    coding = plan.part("coding")
    assert [ex.id for ex in coding.exercises] == ["double"] and coding.follows == {}
    unpaired = _plan(make_course(tmp_path / "other", marked=("double", "quad")))
    assert {ex.id for ex in unpaired.part("coding").exercises} == {"double", "quad"}  # two singles fit 18 min
    assert unpaired.part("coding").follows == {}


def test_without_a_plan_file_the_default_plan_holds(tmp_path, learner_home):
    plan = _plan(make_course(tmp_path / "course", plan=None))
    assert plan.minutes == 45 and plan.part("debugging") is None  # no tasks: the part is left out
    assert sorted(ex.id for ex in plan.part("coding").exercises) == ["double", "twice"]  # two singles, no pair
    assert plan.part("coding").follows == {}


def test_the_plan_file_is_checked_field_by_field(tmp_path):
    (tmp_path / "interview.toml").write_text("""
format_version = 1
minutes = -3
[[part]]
id = "lunch"
minutes = 5
[[part]]
id = "warmup"
minutes = 5
levels = { easy = 0 }
[[follow_up]]
first = "a"
then = "a"
[[debugging]]
id = "t"
cards = ["why_it_compiles"]
core = "why_it_compiles"
""")
    spec = load_spec(tmp_path)
    problems = "\n".join(spec.problems)
    assert "minutes: expected a positive number" in problems
    assert "part[0].id: expected one of warmup, coding, debugging, rapid, explain, got 'lunch'" in problems
    assert "part[1].levels: expected a table of levels" in problems
    assert "follow_up[0]: expected two different exercise ids" in problems
    assert "debugging[0].cards: a debugging task's cards are named debug_…" in problems
    assert spec.follow_ups == [] and spec.debugging == []


# ------------------------------------------------------------------------------------- the bundled plan


@pytest.fixture(scope="module")
def bundled():
    return load_course(), load_drills(DRILLS)


def _bundled_plan(bundled, minutes=None, seed=7):
    course, deck = bundled
    return plan_interview(course, deck, Scheduler(ProgressStore(), fuzz=False), minutes=minutes, seed=seed)


def test_the_default_interview_is_45_minutes_of_material(bundled, learner_home):
    for seed in (1, 7, 11):
        plan = _bundled_plan(bundled, seed=seed)
        assert plan.minutes == 45
        assert [p.id for p in plan.parts] == ["warmup", "coding", "debugging", "rapid", "explain"]
        assert 43 * 60 <= plan.expected_s <= 46 * 60, plan.expected_s / 60
        coding = plan.part("coding")
        assert len(coding.exercises) == 2 and coding.exercises[1].id in coding.follows
        assert coding.expected_s >= 20 * 60  # the pair is the heart of it
        assert len(plan.part("debugging").cards) == 3
        assert len(plan.part("warmup").cards) >= 4 and len(plan.part("rapid").cards) >= 6


def test_the_coding_part_asks_sharding_and_training_step_pairs_first(bundled, learner_home):
    spec = load_spec(bundled[0].root)
    for seed in range(1, 6):
        first = _bundled_plan(bundled, seed=seed).part("coding").exercises[0]
        assert first.topic in spec.prefer_topics


@pytest.mark.parametrize("minutes", [20, 30, 45, 60, 90])
def test_minutes_scale_every_part(bundled, learner_home, minutes):
    plan = _bundled_plan(bundled, minutes)
    assert sum(p.budget_s for p in plan.parts) == pytest.approx(minutes * 60)
    assert abs(plan.expected_s - minutes * 60) <= 0.1 * minutes * 60
    coding = plan.part("coding")
    if minutes <= 30:
        assert len(coding.exercises) == 1 and coding.follows == {}  # no time for the follow-up
    if minutes >= 45:
        assert len(coding.follows) >= (2 if minutes >= 90 else 1)
    assert plan.part("explain") is not None


def test_a_topic_short_of_material_makes_a_shorter_interview_and_says_so(bundled, learner_home):
    import io

    from jittrainer.cli.interview import plan_lines
    from jittrainer.cli.style import Style

    course, deck = bundled
    plan = plan_interview(course, deck, Scheduler(ProgressStore(), fuzz=False), topic="trace_time", seed=2)  # no interview-sized exercise: cards only
    for part in plan.parts:
        if part.kind == "cards":
            assert part.budget_s <= part.expected_s + 30  # no part waits for cards the topic does not have
    assert sum(p.budget_s for p in plan.parts) < 0.9 * 45 * 60
    lines = plan_lines(plan, Style(io.StringIO()))
    assert lines[-1] == "The course holds less material than that for this topic: the interview ends sooner."


def test_more_minutes_ask_more(bundled, learner_home):
    sizes = [(len(p.cards), len(p.exercises)) for p in (_bundled_plan(bundled, m) for m in (20, 45, 90))]
    assert sizes[0] < sizes[1] < sizes[2]


def test_pairs_and_sizes_name_course_exercises_or_ones_being_written(bundled):
    course, _deck = bundled
    spec = load_spec(course.root)
    assert spec.problems == []
    known = {ex.id for ex in course.exercises}
    named = {fu.first for fu in spec.follow_ups} | {fu.then for fu in spec.follow_ups} | set(spec.sizes)
    assert named <= known | BEING_WRITTEN, named - known - BEING_WRITTEN
    for fu in spec.follow_ups:
        if {fu.first, fu.then} <= known:
            assert course.get(fu.first).interview and course.get(fu.then).interview, (fu.first, fu.then)
        assert fu.note("en") and fu.note("zh") and fu.note("zh") != fu.note("en")
    for ex_id in ("sharding_in_types", "placement_cache_key", "sharding_constraint"):
        assert course.get(ex_id).interview


def test_every_debugging_task_asks_about_one_program(bundled):
    course, deck = bundled
    spec = load_spec(course.root)
    assert len(spec.debugging) >= 4
    seen = set()
    for task in spec.debugging:
        cards = [deck.find(c) for c in task.cards]
        assert all(c.available and c.applies() and c.id.startswith("debug_") for c in cards)
        assert len({c.code for c in cards}) == 1, task.id  # one program, every question about it
        assert deck.find(task.core).kind == "choice"  # the why, graded like a card
        assert task.title("zh") != task.title("en")
        assert not seen & set(task.cards)
        seen |= set(task.cards)


@pytest.mark.worker
def test_every_debugging_task_is_proved_by_running_it(bundled):
    from jittrainer.course.drills.proofs import prove_cards

    course, deck = bundled
    cards = [deck.find(c) for task in load_spec(course.root).debugging for c in task.cards]
    results = prove_cards(cards, jobs=2)
    assert [r.card for r in results if not r.ok] == []
    assert len(results) == len(cards)


# --------------------------------------------------------------------------------------------- the clock


def test_a_part_that_ends_early_leaves_its_time_to_the_next(tmp_path, learner_home):
    plan = _plan(make_course(tmp_path / "course"))
    clock = FakeClock()
    timeline = Timeline(plan, clock)
    budgets = [p.budget_s for p in plan.parts]
    timeline.begin(0)
    clock.advance(10)
    timeline.begin(1)  # the warm-up is over after 10 s
    assert timeline.times[0].used_s == 10 and timeline.times[0].reached
    assert timeline.left() == pytest.approx(budgets[0] + budgets[1] - 10)
    assert timeline.exercise_left(0) == pytest.approx(budgets[0] - 10 + 600)  # double's 10 minutes, and the bank
    clock.advance(budgets[0] + budgets[1])
    assert timeline.left() == 0 and timeline.exercise_left(1) == 0
    timeline.end(ran_out=True)
    assert timeline.times[1].ran_out and not timeline.times[2].reached
    assert timeline.interview_left() == pytest.approx(plan.budget_s - 10 - budgets[0] - budgets[1])
