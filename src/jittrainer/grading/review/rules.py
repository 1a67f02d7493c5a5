"""The review's comments, from the learner's measures and the reference's: the rules, in one place.

- **Observation first, with the numbers**: every comment says what was measured, in both programs, before what it
  means.
- **No comment without a difference that matters**: a cost comment needs the learner's figure at least ``RATIO``
  times the reference's and above it by at least the figure's ``FLOORS`` (so 4 against 6 equations says nothing);
  ``ESSENTIAL_RATIO`` times or more makes it essential. What is left in the program is named only when the reference
  has less of it (a callback, float64, a captured constant, a weak argument, dead code, a notable primitive it
  lacks), or when the reference donates a buffer the learner's program does not.
- **Celebratory when as lean as the reference or leaner**: every figure measured on both at most ``LEAN`` times the
  reference's, and no essential or actionable comment.
- The approach: which of the exercise's approaches the program matches (``course.approaches``), and one line on
  each of the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jittrainer.course.approaches import Approach, match
from jittrainer.grading.review import Comment, ProgramMeasures, Review
from jittrainer.i18n.message import Msg, count, msg, msgn

RATIO = 1.5
ESSENTIAL_RATIO = 10.0
LEAN = 1.1
# The least excess that counts, per figure: a compile, a trace, 8 equations, 256 flops, 1 KiB moved or held.
FLOORS = {"compiles": 1, "traces": 1, "eqns": 8, "flops": 256, "bytes_accessed": 1024, "temp_bytes": 1024}
DEAD_FLOOR = 3  # equations whose values nothing uses, beyond the reference's
COST = ("compiles", "traces", "eqns", "flops", "bytes_accessed", "temp_bytes")
# Primitives worth naming when the reference's program has none of them: loops, branches, matrix products, sorts,
# scatters, random bits and collectives change what a program does, not just how it is spelled.
NOTABLE = ("while", "scan", "cond", "dot_general", "conv_general_dilated", "sort", "cumsum", "scatter",
           "scatter-add", "dynamic_update_slice", "random_bits", "psum", "all_gather", "all_to_all", "ppermute")
ORDER = {"celebratory": 0, "essential": 1, "actionable": 2, "informative": 3}


def _over(name: str, mine: float | None, ref: float | None) -> float | None:
    """The ratio mine/ref when it matters (see the module's rules), else None."""
    if mine is None or ref is None or mine - ref < FLOORS[name]:
        return None
    ratio = mine / ref if ref else float("inf")
    return ratio if ratio >= RATIO else None


def _severity(*ratios: float | None) -> str:
    """Essential at ESSENTIAL_RATIO times the reference's or more; against a reference of zero (no temporaries at
    all), a ratio says little, so that stays actionable."""
    finite = [r for r in ratios if r is not None and r != float("inf")]
    return "essential" if max(finite, default=0) >= ESSENTIAL_RATIO else "actionable"


def _versus(ratio: float, ref: float) -> Msg:
    if ratio == float("inf"):
        return msg("review.versus.none", "where the reference has none")
    return msg("review.versus", "{ratio:.1f}× the reference's {ref:,.0f}", ratio=ratio, ref=ref)


def _times(ratio: float) -> Msg:
    if ratio == float("inf"):
        return msg("review.times.none", "where the reference has none")
    return msg("review.times", "{ratio:.1f}× the reference's", ratio=ratio)


def cost_comments(mine: ProgramMeasures, ref: ProgramMeasures) -> list[Comment]:
    out: list[Comment] = []
    compiles, traces = _over("compiles", mine.compiles, ref.compiles), _over("traces", mine.traces, ref.traces)
    if compiles or traces:
        out.append(Comment("review.cost.compiles", _severity(compiles, traces), msg(
            "review.cost.compiles",
            "Your graded calls compiled {compiles} and traced {traces}; the reference needs {ref_compiles} and "
            "{ref_traces} for the same calls. Every extra compile is another trip through XLA, and each one's "
            "reason says what changed.",
            compiles=count("time", mine.compiles or 0), traces=count("time", mine.traces or 0),
            ref_compiles=count("compile", ref.compiles or 0), ref_traces=count("trace", ref.traces or 0))))
    eqns = _over("eqns", mine.eqns, ref.eqns)
    if eqns:
        out.append(Comment("review.cost.size", _severity(eqns), msg(
            "review.cost.size",
            "Your program has {eqns} (nested ones included), {versus}. Every one of them is traced, lowered and "
            "compiled; a loop primitive keeps a repeated body to one copy.",
            eqns=count("equation", mine.eqns or 0), versus=_versus(eqns, ref.eqns or 0))))
    flops = _over("flops", mine.flops, ref.flops)
    moved = _over("bytes_accessed", mine.bytes_accessed, ref.bytes_accessed)
    if flops or moved:
        out.append(Comment("review.cost.work", _severity(flops, moved), msg(
            "review.cost.work",
            "XLA estimates your compiled program at {flops:,.0f} floating-point operations and {bytes:,.0f} bytes "
            "read and written per call; the reference's: {ref_flops:,.0f} and {ref_bytes:,.0f} ({times}). The "
            "same answer is being computed the long way round.",
            flops=mine.flops or 0.0, bytes=mine.bytes_accessed or 0.0, ref_flops=ref.flops or 0.0,
            ref_bytes=ref.bytes_accessed or 0.0, times=_times(max(r for r in (flops, moved) if r)))))
    temp = _over("temp_bytes", mine.temp_bytes, ref.temp_bytes)
    if temp:
        out.append(Comment("review.cost.temp", _severity(temp), msg(
            "review.cost.temp",
            "Your compiled program needs {temp:,} bytes of temporary buffers per call, {versus}. An intermediate "
            "array the reference never builds is being materialised.",
            temp=mine.temp_bytes or 0, versus=_versus(temp, ref.temp_bytes or 0))))
    return out


def left_comments(mine: ProgramMeasures, ref: ProgramMeasures) -> list[Comment]:
    """What is left in the learner's program that the reference does without."""
    out: list[Comment] = []
    extra = (mine.callbacks or 0) - (ref.callbacks or 0)
    if extra > 0:
        names = sorted(n for n in ("debug_print", "debug_callback", "io_callback", "pure_callback")
                       if mine.primitives.get(n, 0) > ref.primitives.get(n, 0))
        looped = (mine.callbacks_in_loop or 0) - (ref.callbacks_in_loop or 0)
        if looped > 0:
            text = msg("review.left.callback_loop",
                       "Host callbacks the reference does not have: {callbacks} ({names}) in your program, {looped} "
                       "inside a loop body. Each stops the program to run Python on the host, on every iteration of "
                       "every call: keep only the ones the exercise asks for.",
                       callbacks=count("callback", extra), names=names, looped=looped)
        else:
            text = msg("review.left.callback",
                       "Host callbacks the reference does not have: {callbacks} ({names}) in your program. Each stops "
                       "the program to run Python on the host, on every call: keep only the ones the exercise asks "
                       "for.", callbacks=count("callback", extra), names=names)
        out.append(Comment("review.left.callback", "actionable", text))
    if (mine.float64 or 0) > 0 and not ref.float64:
        out.append(Comment("review.left.float64", "actionable", msg(
            "review.left.float64",
            "float64 in your program: {eqns} with float64 (or complex128) results, none in the reference. On "
            "accelerators float64 runs far slower or is emulated, and it doubles the bytes moved.",
            eqns=count("equation", mine.float64 or 0))))
    if (mine.constants or 0) > (ref.constants or 0) and (mine.const_bytes or 0) > (ref.const_bytes or 0):
        out.append(Comment("review.left.constants", "actionable", msg(
            "review.left.constants",
            "Constants captured into your program: {constants} ({bytes:,} bytes), against {ref} in the reference. "
            "They are baked into the compiled program, so new values mean a new compile, and large ones bloat it: "
            "pass arrays as arguments.",
            constants=count("constant", mine.constants or 0), bytes=mine.const_bytes or 0, ref=ref.constants or 0)))
    if (ref.donated or 0) > 0 and (mine.donated or 0) < (ref.donated or 0):
        out.append(Comment("review.left.donation", "actionable", msg(
            "review.left.donation",
            "Donated argument buffers: {mine} in your program, {ref} in the reference. Without donation XLA keeps "
            "the old buffer alive beside the new one, and this exercise is about memory.",
            mine=mine.donated or 0, ref=ref.donated or 0)))
    if (mine.weak_inputs or 0) > (ref.weak_inputs or 0):
        out.append(Comment("review.left.weak", "informative", msg(
            "review.left.weak",
            "Weakly typed arguments (a Python number passed in): {n} in your program, {ref} in the reference. A weak "
            "and a strong float32 of the same value compile separately.",
            n=mine.weak_inputs or 0, ref=ref.weak_inputs or 0)))
    if (mine.dead or 0) - (ref.dead or 0) >= DEAD_FLOOR:
        out.append(Comment("review.left.dead", "informative", msg(
            "review.left.dead",
            "Values nothing uses: {eqns} in your program (the reference has {ref}). XLA drops them, but they are "
            "traced and lowered on every compile, and they make the program harder to read.",
            eqns=count("equation", mine.dead or 0), ref=ref.dead or 0)))
    notable = [p for p in NOTABLE if mine.primitives.get(p) and not ref.primitives.get(p)]
    if notable:
        out.append(Comment("review.left.primitives", "informative", msg(
            "review.left.primitives",
            "Primitives the reference's program does not use: {names} in yours. A different way through the exercise, "
            "with its own cost.", names=notable)))
    return out


def _figures(m: ProgramMeasures) -> Msg:
    """The figures measured, and only those: a program that was not measured has no 0 equations."""
    compiles = count("compile", m.compiles or 0)
    if m.eqns is None:
        return msg("review.figures.no_program", "{compiles} (no program of its own to measure)", compiles=compiles)
    if m.bytes_accessed is None:
        return msg("review.figures.no_bytes", "{compiles} and {eqns}", compiles=compiles,
                   eqns=count("equation", m.eqns))
    return msg("review.figures", "{compiles}, {eqns} and {bytes:,.0f} bytes read and written per call",
               compiles=compiles, eqns=count("equation", m.eqns), bytes=m.bytes_accessed)


def lean_comment(mine: ProgramMeasures, ref: ProgramMeasures) -> Comment | None:
    """Celebratory when every figure measured on both is at most LEAN times the reference's (or above it by less
    than half its floor)."""
    pairs = [(name, getattr(mine, name), getattr(ref, name)) for name in COST]
    pairs = [(n, a, b) for n, a, b in pairs if a is not None and b is not None]
    if not pairs or any(a > b * LEAN and a - b >= FLOORS[n] / 2 for n, a, b in pairs):  # below half a floor: noise
        return None
    leaner = [n for n, a, b in pairs if b - a >= FLOORS[n] and (not a or b / a >= RATIO)]
    figures = _figures(mine)
    if leaner:
        return Comment("review.leaner", "celebratory", msg(
            "review.leaner", "Leaner than the reference: {figures}, where the reference needs {ref_figures}.",
            figures=figures, ref_figures=_figures(ref)))
    return Comment("review.lean", "celebratory", msg(
        "review.lean", "As lean as the reference: {figures}.",
        figures=figures))


def approach_comments(approaches: Sequence[Approach], found: Approach | None) -> list[Comment]:
    """The approach the program takes (or that it takes none of them), then one line on each other approach."""
    if not approaches:
        return []
    if found is not None:
        head = msg("review.approach", "Your program takes the approach “{title}”: {summary}", title=found.title_msg,
                   summary=found.summary_msg)
    else:
        head = msg("review.approach.none", "Your program matches none of the approaches this exercise lists: a way "
                   "of your own.")
    out = [Comment("review.approach" if found is not None else "review.approach.none", "informative", head)]
    for other in approaches:
        if other is not found:
            out.append(Comment("review.approach.other", "informative", msg(
                "review.approach.other", "Another way: “{title}”: {summary}", title=other.title_msg,
                summary=other.summary_msg)))
    return out


def summary(comments: list[Comment]) -> Msg:
    kinds = [c.type for c in comments]
    if "essential" in kinds:
        return msg("review.summary.essential", "It passes, but it costs far more than it needs to: start with the "
                   "first point below.")
    points = kinds.count("actionable")
    if points:
        return msgn("review.summary.actionable", "It passes; {n} point to look at.", "It passes; {n} points to "
                    "look at.", n=points)
    if any(c.id == "review.leaner" for c in comments):
        return msg("review.summary.leaner", "It passes, and it is leaner than the reference.")
    if "celebratory" in kinds:
        return msg("review.summary.lean", "It passes, and it is as lean as the reference.")
    return msg("review.summary.fine", "It passes; nothing in it costs much more than the reference.")


def compose(mine: ProgramMeasures, ref: ProgramMeasures | None, approaches: Sequence[Approach],
            found: Approach | None, *, same_inputs: bool = True) -> tuple[list[Comment], Msg]:
    """The comments, in the order they are shown, and the summary."""
    comments: list[Comment] = []
    if ref is not None and same_inputs:
        comments += cost_comments(mine, ref) + left_comments(mine, ref)
        if not any(c.type in ("essential", "actionable") for c in comments):
            lean = lean_comment(mine, ref)
            comments += [lean] if lean is not None else []
    comments += approach_comments(approaches, found)
    if ref is None or not same_inputs:
        comments.append(Comment("review.no_reference", "informative", msg(
            "review.no_reference", "The reference's figures for these inputs were not available, so only your "
            "approach is reviewed, not your program's cost.")))
    comments.sort(key=lambda c: (ORDER[c.type], c.id.startswith("review.approach")))  # the approach last
    return comments, summary(comments)


def review_of(mine: ProgramMeasures, ref: ProgramMeasures | None, approaches: Sequence[Approach],
              **extra: Any) -> Review:
    found = match(list(approaches), mine.features())
    same = ref is not None and ref.signature == mine.signature
    comments, head = compose(mine, ref, approaches, found, same_inputs=same)
    return Review(status="reviewed", summary=head, comments=comments, approach=found.id if found else "",
                  approaches=[a.id for a in approaches], measures=mine, reference_measures=ref, **extra)
