"""The grader's snapshot of itself (grading.sandbox.integrity), without a worker: every kind of change it must name."""

from __future__ import annotations

import builtins
import types

import numpy

from jittrainer.grading.sandbox.integrity import Snapshot


def _module() -> types.ModuleType:
    mod = types.ModuleType("jittrainer_fake_checks")
    exec("class Grader:\n    def ok(self):\n        return True\n\ndef helper():\n    return 1\nLIMIT = 3\n",
         mod.__dict__)
    return mod


def test_an_untouched_grader_is_unchanged():
    assert Snapshot([_module()]).changed() == []


def test_each_kind_of_change_is_named():
    mod = _module()
    snap = Snapshot([mod])
    mod.LIMIT = 4  # a name rebound
    mod.helper.__code__ = (lambda: 2).__code__  # a function's code swapped in place
    mod.Grader.ok = lambda self: False  # a method replaced
    mod.Grader.extra = 1  # a class given a new attribute
    del mod.__dict__["__name__"]
    saved = builtins.len, numpy.allclose
    try:
        builtins.len = lambda x: 0
        numpy.allclose = lambda *a, **k: True
        changed = set(snap.changed())
    finally:
        builtins.len, numpy.allclose = saved
    assert {"jittrainer_fake_checks.LIMIT", "jittrainer_fake_checks.helper.__code__",
            "jittrainer_fake_checks.Grader.ok", "jittrainer_fake_checks.Grader.extra",
            "jittrainer_fake_checks.__name__", "builtins.len", "numpy.allclose"} <= changed
