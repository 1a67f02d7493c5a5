"""The Timing pane: compile vs steady state and eager vs jit, as bars with the numbers beside them.

Bars in one group share a linear scale, so a steady call next to a compile is a sliver: that is the point.
"""

from __future__ import annotations

from textual.content import Content

from rich.cells import cell_len

from jittrainer.app.widgets.panes.common import PaneContext, caption, lines, not_run, seconds
from jittrainer.grading.verdict import Timing, Verdict
from jittrainer.i18n import _, ngettext
from jittrainer.i18n.message import render

EIGHTHS = " ▏▎▍▌▋▊▉"
VALUE_WIDTH = 9



def _caption() -> Content:
    return caption(_("Measured after the verdict, never part of it. A compile is paid once per new shape; the steady "
                     "state is what every later call costs."))


def pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal cells (Chinese characters take two)."""
    return text + " " * max(width - cell_len(text), 0)


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
    largest = max(value for _label, value in known)
    label_width = max(cell_len(label) for label, _v in known)
    bar_width = max(6, min(32, width - label_width - VALUE_WIDTH - 4))
    out: list[Content | str] = [Content.styled(title, "bold")]
    for label, value in known:
        out.append(Content.assemble(
            f"  {pad(label, label_width)} ",
            (f"{bar(value, largest, bar_width):<{bar_width}}", "$text-accent"),
            (f" {seconds(value):>{VALUE_WIDTH}}", "bold"),
        ))
    out += [caption(f"  {note}") for note in notes if note]
    return out


def ratio(slow: float | None, fast: float | None) -> str:
    if not slow or not fast:
        return ""
    times = f"{slow / fast:,.0f}" if slow / fast >= 10 else f"{slow / fast:.1f}"
    return _("{n}×").format(n=times)  # zh: 倍, an English-style multiplier reads as a stray symbol


def times(n: int | None) -> str:
    return _("an unknown number of times") if n is None else ngettext("{n} time", "{n} times", n).format(n=n)


def render_timing(verdict: Verdict | None, ctx: PaneContext, pending: bool = False, width: int = 60) -> Content:
    if verdict is None:
        return lines(_caption(), "", not_run(ctx))
    timing: Timing = verdict.timing
    parts: list[Content | str] = [_caption(), ""]
    if pending or timing.status == "pending":
        parts.append(Content.styled(_("⟳ Measuring… (the verdict is already final)"), "bold $text-accent"))
        return lines(*parts)
    if timing.status != "measured":
        parts.append(Content.styled(_("No timing: {why}").format(why=render(timing.note) or timing.status), "bold"))
        return lines(*parts)
    steady = timing.steady_s
    if timing.device_note:  # --device: where the steady state was measured, or why it stayed on the CPU
        parts += [Content.styled(render(timing.device_note), "italic"), ""]
    # Compile and eager are measured on the CPU: compared with the CPU's call, whatever device timed the steady state
    cpu_steady = timing.cpu_steady_s if timing.platform != "cpu" else steady
    costs = ""
    if timing.compile_s and cpu_steady:
        costs = _("One compile costs as much as {n} calls.").format(n=f"{timing.compile_s / cpu_steady:,.0f}")
    parts += group(_("Compile vs steady state"), [
        (_("trace"), timing.trace_s),
        (_("compile"), timing.compile_s),
        (_("one call"), steady),
    ], width,
        _("trace: Python runs your function once, with tracers"),
        _("compile: XLA builds the program, once per new shape"),
        _("one call: the compiled program runs (median)") if timing.platform == "cpu" else
        _("one call: the compiled program runs on {device} (median; CPU: {cpu})").format(
            device=timing.device_kind or timing.platform.upper(), cpu=seconds(timing.cpu_steady_s)),
        costs)
    if timing.eager_s is not None:
        note = ""
        if cpu_steady and timing.eager_s:
            note = (_("jit is {ratio} faster per call, once compiled.").format(ratio=ratio(timing.eager_s, cpu_steady))
                    if timing.eager_s >= cpu_steady
                    else _("eager is {ratio} faster here: too little work to gain from jit.").format(
                        ratio=ratio(cpu_steady, timing.eager_s)))
        parts.append("")
        parts += group(_("Eager vs jit (one call)"), [(_("eager"), timing.eager_s), ("jit", cpu_steady)], width, note)
    if timing.starter_calls_s is not None:
        parts.append("")
        parts += group(_("All graded calls, compiles included"),
                       [(_("starter"), timing.starter_calls_s), (_("yours"), timing.calls_s)], width,
                       _("The starter compiled {theirs}; yours {yours}.").format(
                           theirs=times(timing.starter_compiles), yours=times(verdict.compiles)))
    elif timing.calls_s is not None:
        parts.append("")
        parts += group(_("All graded calls, compiles included"), [(_("yours"), timing.calls_s)], width)
    if timing.steady_samples:
        parts += ["", Content.styled(_("Steady-state calls ({n} samples, fastest {fast}, slowest {slow})").format(
            n=len(timing.steady_samples), fast=seconds(min(timing.steady_samples)),
            slow=seconds(max(timing.steady_samples))), "bold")]
    return lines(*parts)
