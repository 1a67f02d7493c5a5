"""The author's guide says what the course's own checks do (issue 37, items 8 and 9): checks.py may import jax and
numpy beside the toolkit, grading a transformation of the learner's function (jax.grad, vmap) is written down with
the pattern exercise 26 uses, and a pack may ship English only."""

from __future__ import annotations

import re

from helpers import EXERCISES

REPO = EXERCISES.parent
DOCS = [REPO / "README.md", REPO / "docs" / "authoring.md", REPO / "docs" / "toolkit.md"]


def test_no_guide_says_checks_import_only_the_toolkit():
    importing_jax = [p.parent.name for p in sorted(EXERCISES.glob("*/checks.py"))
                     if re.search(r"^(import jax|from jax)", p.read_text(encoding="utf-8"), re.MULTILINE)]
    assert len(importing_jax) >= 10
    for doc in DOCS:
        text = " ".join(doc.read_text(encoding="utf-8").split())
        assert not re.search(r"(imports?|importing) only `?jittrainer\.authoring|on `?jittrainer\.authoring`? only",
                             text), doc.name


def test_the_guide_shows_how_to_grade_a_transformation_of_the_learners_function():
    guide = (REPO / "docs" / "authoring.md").read_text(encoding="utf-8")
    example = (EXERCISES / "26_where_nan_gradient" / "checks.py").read_text(encoding="utf-8")
    for pattern in ("g.jit_spy.real(jax.grad(gradient_of_lengths))", 'name="jax.grad"'):
        assert pattern in guide and pattern in example, pattern  # the guide quotes what the course really does
    for topic in ("Which jit", "Which window", "Static arguments", "gcalls.compiles", "static_argnames"):
        assert topic in guide, topic


def test_the_guide_says_a_pack_may_ship_in_english_only():
    guide = " ".join((REPO / "docs" / "authoring.md").read_text(encoding="utf-8").split())
    assert 'languages = ["en"]' in guide
