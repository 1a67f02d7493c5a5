"""The Timing pane: compile vs steady state and eager vs jit, as bars with the numbers beside them.

Bars in one group share a linear scale, so a steady call next to a compile is a sliver: that is the point.
"""

from __future__ import annotations

from textual.content import Content

from jittrainer.app.widgets.panes.common import NOT_RUN, caption, lines, plural, seconds
from jittrainer.core.verdict import Timing, Verdict

BAR_WIDTH = 24
EIGHTHS = " ▏▎▍▌▋▊▉"

CAPTION = ("Measured after the verdict, never part of it. A compile is paid once per new shape; the steady "
           "state is what every later call costs.")


def bar(value: float, largest: float, width: int = BAR_WIDTH) -> str:
    if largest <= 0:
        return ""
    eighths = round(max(value, 0) / largest * width * 8)
    full, rest = divmod(eighths, 8)
    text = "█" * full + (EIGHTHS[rest] if rest else "")
    return text or "▏"  # never invisible: a tiny bar still says "there is a cost"


def group(title: str, rows: list[tuple[str, float | None, str]]) -> list[Content | str]:
    known = [(label, value, note) for label, value, note in rows if value is not None]
    if not known:
        return []
    largest = max(value for _, value, _ in known)
    label_width = max(len(label) for label, _, _ in known)
    out: list[Content | str] = [Content.styled(title, "bold")]
    for label, value, note in known:
        out.append(Content.assemble(
            (f"  {label:<{label_width}} ", ""),
            (f"{bar(value, largest):<{BAR_WIDTH}}", "$text-accent"),
            (f" {seconds(value):>9}", "bold"),
            (f"  {note}" if note else "", "$text-muted"),
        ))
    return out


def ratio(slow: float | None, fast: float | None) -> str:
    if not slow or not fast:
        return ""
    return f"{slow / fast:,.0f}×" if slow / fast >= 10 else f"{slow / fast:.1f}×"


def render_timing(verdict: Verdict | None, pending: bool = False) -> Content:
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
    parts += group("Compile vs steady state", [
        ("trace", timing.trace_s, "Python runs once with tracers"),
        ("compile", timing.compile_s, "XLA builds the program"),
        ("one call", steady, "steady state, median"),
    ])
    if timing.compile_s and steady:
        parts.append(caption(f"  One compile costs as much as {ratio(timing.compile_s, steady)} steady calls."))
    if timing.eager_s is not None:
        parts.append("")
        parts += group("Eager vs jit (one call)", [
            ("eager", timing.eager_s, "op by op, no jit"),
            ("jit", steady, "compiled, steady state"),
        ])
        if steady and timing.eager_s:
            faster = timing.eager_s >= steady
            words = (f"jit is {ratio(timing.eager_s, steady)} faster per call" if faster
                     else f"eager is {ratio(steady, timing.eager_s)} faster here: too little work to gain from jit")
            parts.append(caption(f"  {words}, once compiled."))
    if timing.starter_calls_s is not None:
        parts.append("")
        yours = f"{plural(verdict.compiles, 'compile')}" if verdict.compiles is not None else ""
        theirs = plural(timing.starter_compiles, "compile") if timing.starter_compiles is not None else ""
        parts += group("All graded calls, compiles included", [
            ("starter", timing.starter_calls_s, theirs),
            ("yours", timing.calls_s, yours),
        ])
    elif timing.calls_s is not None:
        parts.append("")
        parts += group("All graded calls, compiles included", [("yours", timing.calls_s, "")])
    if timing.steady_samples:
        parts += ["", Content.styled(f"Steady-state calls ({len(timing.steady_samples)} samples, "
                                     f"fastest {seconds(min(timing.steady_samples))}, "
                                     f"slowest {seconds(max(timing.steady_samples))})", "bold")]
    return lines(*parts)
