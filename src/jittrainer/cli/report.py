"""A verdict on the command line: as text for a learner, or as JSON (the verdict, keys and ids in English, words in
the learner's language). Exercism's results.json v3 is ``cli/exercism.py``."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from pathlib import Path
from typing import Any

from jittrainer.cli.style import Style
from jittrainer.course.exercises import Exercise
from jittrainer.grading.labels import section_label
from jittrainer.grading.verdict import CheckResult, Verdict
from jittrainer.i18n import _, language, ngettext
from jittrainer.i18n.message import Msg, join, render
from jittrainer.units import seconds

_SECTION = re.compile(r"^── (.+) ──$")

ICONS = {"pass": "✓", "fail": "✗", "error": "!", "skip": "·"}


def plain(value: Any) -> Any:
    """A verdict (or any of its parts) as JSON data: messages rendered in the current language."""
    return _plain(value)


def _plain(value: Any) -> Any:
    if isinstance(value, Msg):
        return value.render()
    if isinstance(value, CheckResult):
        return {"id": value.id, "name": render(value.name), "status": value.status, "message": value.message,
                "advice": value.shown_advice(), "advice_tier": value.advice_tier}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    """The verdict as ``check --json`` prints it: ``message`` is the observation, ``advice`` is null until the
    learner has unlocked it."""
    data = _plain(verdict)
    data.pop("headline", None)
    return {"exercise": verdict.exercise, "status": verdict.status, "message": verdict.message,
            "advice": verdict.advice, "lang": language(), **{k: v for k, v in data.items()
                                                             if k not in ("exercise", "status")}}


def print_verdict(v: Verdict, ex: Exercise, path: Path, style: Style, *, locked_runs: int = 0,
                  title: str = "", watching: bool = False) -> None:
    """``watching``: printed by ``watch``, whose keys (a, h) are what the learner has at hand, not commands."""
    word = {"pass": style.ok(_("PASSED")), "fail": style.bad(_("FAILED")), "error": style.bad(_("ERROR"))}[v.status]
    meta = _("{path} · seed {seed} · {duration}").format(path=style.path(path), seed=v.seed,
                                                          duration=seconds(v.duration_s))
    print(f"{style.bold(ex.id)} · {word}   {style.dim(meta)}")
    print("  " + v.message.replace("\n", "\n  "))
    advice = v.advice
    if advice:
        label = _("Advice: ")  # zh ends in a full-width colon, which takes no space after it
        print(style.bold("  " + label.rstrip()) + label[len(label.rstrip()):] + advice)
    if v.checks:
        print()
        for check in v.checks:
            colour = {"pass": style.ok, "fail": style.bad, "error": style.bad, "skip": style.dim}[check.status]
            print(f"  {colour(ICONS[check.status])} {render(check.name)}")
            if check.status != "pass" and check.message and check.message != v.message:
                print(style.dim("      " + check.message.replace("\n", "\n      ")))
    if v.error is not None and v.error.traceback:
        print()
        where = _("Where your code failed (line {line})").format(line=v.error.line) if v.error.line else \
            _("Where your code failed")
        print(style.bold(where))
        shown = v.error.shown_traceback().splitlines()
        if shown and shown[0].strip() == v.message.strip():
            shown = shown[1:]  # a SyntaxError's traceback opens with the message already printed above
        for line in shown[-12:]:
            print(f"  {line}")
    if v.compiles is not None:
        print()
        summary = _("compiles {compiles} · traces {traces}").format(compiles=v.compiles, traces=v.traces)
        apart = Counter(m.window for m in v.cache_misses if m.window)
        if apart:  # the checks count a later window on its own: say how the total splits
            split = [_("{n} in the graded calls").format(n=v.compiles - sum(apart.values()))]
            split += [_("{n} in the calls of {window}").format(n=n, window=w) for w, n in apart.items()]
            summary += _(" ({parts})").format(parts=join(split))
        print("  " + summary)
        for miss in v.cache_misses[:6]:
            call = _("call {n}").format(n=miss.call) if miss.call else _("before the calls")
            if miss.window:
                call = _("{window}, {call}").format(window=miss.window, call=call)
            print(style.dim("    " + _("{call}: {function}: {reason}").format(
                call=call, function=miss.function, reason=render(miss.reason))))
        if len(v.cache_misses) > 6:
            print(style.dim("    " + _("… {n} more compiles").format(n=len(v.cache_misses) - 6)))
    if v.output.strip():
        print()
        print(style.bold(_("Output")))
        # the worker heads each call's output in English (── call 1 ──): name them in the learner's language
        lines = [_SECTION.sub(lambda m: f"── {section_label(m.group(1))} ──", line)
                 for line in v.output.rstrip().splitlines()]
        for line in lines[:30]:
            print(f"  {line}")
        if len(lines) > 30:
            print(style.dim("  " + _("… {n} more lines (see --json)").format(n=len(lines) - 30)))
    t = v.timing
    if t.status == "measured":
        parts = [_("compile {t}").format(t=seconds(t.compile_s)), _("steady {t}/call").format(t=seconds(t.steady_s))]
        if t.platform != "cpu":  # the steady state came from the accelerator: say so, with the CPU's beside it
            parts[1] = _("steady {t}/call on {device} (CPU: {cpu})").format(
                t=seconds(t.steady_s), device=t.device_kind or t.platform.upper(), cpu=seconds(t.cpu_steady_s))
        if t.eager_s is not None:
            parts.append(_("eager {t}/call").format(t=seconds(t.eager_s)))
        if t.starter_calls_s is not None:
            parts.append(_("all graded calls {t} (starter: {s}, {n} compiles)").format(
                t=seconds(t.calls_s), s=seconds(t.starter_calls_s), n=t.starter_compiles))
        print()
        print(style.dim("  " + _("timing: {parts}").format(parts=" · ".join(parts))))
        if t.device_note:
            print(style.dim("  " + render(t.device_note)))
    if v.passed or v.internal_error is not None:
        return
    first = v.first_failure
    print()
    if watching:
        if first is not None and first.advice is not None and not first.advice_shown:
            print(style.dim("  " + ngettext(
                "Advice for “{check}” is kept back so you can work it out: it shows after you take hint {tier}, after "
                "{runs} more failing run, or now with the a key.",
                "Advice for “{check}” is kept back so you can work it out: it shows after you take hint {tier}, after "
                "{runs} more failing runs, or now with the a key.", locked_runs).format(
                check=render(first.name), tier=first.advice_tier, runs=locked_runs)))
        print(style.dim("  " + _("stuck? h shows a hint")))
        return
    if first is not None and first.advice is not None and not first.advice_shown:
        print(style.dim("  " + ngettext(
            "Advice for “{check}” is kept back so you can work it out: it shows after you take hint {tier}, after "
            "{runs} more failing run, or now with --advice.",
            "Advice for “{check}” is kept back so you can work it out: it shows after you take hint {tier}, after "
            "{runs} more failing runs, or now with --advice.", locked_runs).format(
            check=render(first.name), tier=first.advice_tier, runs=locked_runs)))
    print(style.dim("  " + _("stuck? jittrainer hint {id}").format(id=ex.id)))
