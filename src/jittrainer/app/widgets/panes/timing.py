"""The Timing pane: compile vs steady state and eager vs jit, as bars with the numbers beside them.

Bars in one group share a linear scale, so a steady call next to a compile is a sliver: that is the point.
"""

from __future__ import annotations

from textual.content import Content

from jittrainer.app.widgets.panes.common import NOT_RUN, caption, lines, plural, seconds
from jittrainer.core.verdict import Timing, Verdict

EIGHTHS = " ▏▎▍▌▋▊▉"
VALUE_WIDTH = 9

CAPTION = ("Measured after the verdict, never part of it. A compile is paid once per new shape; the steady "
           "state is what every later call costs.")


def bar(value: float, largest: float, width: int) -> str:
    if largest <= 0:
        return ""
    eighths = round(max(value, 0) / largest * width * 8)
    full, rest = divmod(eighths, 8)
    text = "█" * full + (EIGHTHS[rest] if rest else "")
    return text or "▏"  # never invisible: a tiny bar still says "there is a cost"


def group(title: str, rows: list[tuple[str, float | None]], width: int, *notes: str) -> list[Content | str]:
    known = [(label, value) for label, value in rows if value is not None]
    if not known:
        return []
    largest = max(value for _, value in known)
    label_width = max(len(label) for label, _ in known)
    bar_width = max(6, min(32, width - label_width - VALUE_WIDTH - 4))
    out: list[Content | str] = [Content.styled(title, "bold")]
    for label, value in known:
        out.append(Content.assemble(
            f"  {label:<{label_width}} ",
            (f"{bar(value, largest, bar_width):<{bar_width}}", "$text-accent"),
            (f" {seconds(value):>{VALUE_WIDTH}}", "bold"),
        ))
    out += [caption(f"  {note}") for note in notes if note]
    return out


def ratio(slow: float | None, fast: float | None) -> str:
    if not slow or not fast:
        return ""
    return f"{slow / fast:,.0f}×" if slow / fast >= 10 else f"{slow / fast:.1f}×"


def render_timing(verdict: Verdict | None, pending: bool = False, width: int = 60) -> Content:
    if verdict is None:
        return lines(caption(CAPTION), "", NOT_RUN)
    timing: Timing = verdict.timing
    parts: list[Content | str] = [caption(CAPTION), ""]
    if pending or timing.status == "pending":
        parts.append(Content.styled("⟳ Measuring… (the verdict is already final)", "bold $text-accent"))
        return lines(*parts)
    if timing.status != "measured":
        parts.append(Content.styled(f"No timing: {timing.note or timing.status}", "bold"))
        return lines(*parts)
    steady = timing.steady_s
    costs = ""
    if timing.compile_s and steady:
        costs = f"One compile costs as much as {timing.compile_s / steady:,.0f} calls."
    parts += group("Compile vs steady state", [
        ("trace", timing.trace_s),
        ("compile", timing.compile_s),
        ("one call", steady),
    ], width,
        "trace: Python runs your function once, with tracers",
        "compile: XLA builds the program, once per new shape",
        "one call: the compiled program runs (median)",
        costs)
    if timing.eager_s is not None:
        note = ""
        if steady and timing.eager_s:
            note = (f"jit is {ratio(timing.eager_s, steady)} faster per call, once compiled."
                    if timing.eager_s >= steady
                    else f"eager is {ratio(steady, timing.eager_s)} faster here: too little work to gain from jit.")
        parts.append("")
        parts += group("Eager vs jit (one call)", [("eager", timing.eager_s), ("jit", steady)], width, note)
    if timing.starter_calls_s is not None:
        yours = plural(verdict.compiles, "time") if verdict.compiles is not None else "an unknown number of times"
        theirs = plural(timing.starter_compiles, "time") if timing.starter_compiles is not None else "? times"
        parts.append("")
        parts += group("All graded calls, compiles included",
                       [("starter", timing.starter_calls_s), ("yours", timing.calls_s)], width,
                       f"The starter compiled {theirs}; yours {yours}.")
    elif timing.calls_s is not None:
        parts.append("")
        parts += group("All graded calls, compiles included", [("yours", timing.calls_s)], width)
    if timing.steady_samples:
        parts += ["", Content.styled(f"Steady-state calls ({len(timing.steady_samples)} samples, "
                                     f"fastest {seconds(min(timing.steady_samples))}, "
                                     f"slowest {seconds(max(timing.steady_samples))})", "bold")]
    return lines(*parts)
