"""A mock interview with the shape of a real one: warm-up cards, a coding exercise and its follow-up, a debugging
task (a program that recompiles or runs slowly: why?), rapid questions, and one answer explained in the candidate's
own words, on one clock; then a report.

``spec`` reads the plan file (``exercises/interview.toml``), ``plan`` scales it and fills it from the course and
the deck, ``timeline`` keeps its clock, ``record`` and ``report`` say what happened. Pure planning and bookkeeping
(no jax, no Textual): the faces ask the questions and grade the exercises. The learner's interview code is kept
apart from their course drafts (``$JITTRAINER_HOME/interview/``), and a finished interview is recorded in the
progress file's ``interviews`` list.
"""

from jittrainer.course.interview.explain import explain_outcome, self_grade
from jittrainer.course.interview.plan import InterviewPlan, Part, interview_exercises, plan_interview, spread
from jittrainer.course.interview.record import (
    ExerciseAttempt,
    ExplainAnswer,
    InterviewRecord,
    PartTime,
    card_weight,
    draft_store,
    record,
    save,
)
from jittrainer.course.interview.report import card_title, report_lines
from jittrainer.course.interview.spec import DEFAULT_MINUTES, InterviewSpec, load_spec, next_words, part_title
from jittrainer.course.interview.timeline import Timeline

__all__ = [
    "DEFAULT_MINUTES", "ExerciseAttempt", "ExplainAnswer", "InterviewPlan", "InterviewRecord", "InterviewSpec", "Part",
    "PartTime", "Timeline", "card_title", "card_weight", "draft_store", "explain_outcome", "interview_exercises",
    "load_spec", "next_words", "part_title", "plan_interview", "record", "report_lines", "save", "self_grade", "spread",
]
