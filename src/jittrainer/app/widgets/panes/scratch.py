"""A scratch run in the Output, Jaxpr and Recompiles panes: the same panes as a verdict's, each opening with a banner
that says this is the draft run as a program, ungraded, so nobody reads it as a verdict. The Checks tab keeps the
last verdict: a scratch run judges nothing."""

from __future__ import annotations

from textual.content import Content

from jittrainer.app.widgets.panes.common import PaneContext, caption, lines
from jittrainer.app.widgets.panes.jaxpr import highlight
from jittrainer.app.widgets.panes.output import SHOWN_CHARS, SHOWN_LINES
from jittrainer.grading.host.untrusted import visible
from jittrainer.grading.scratch import ScratchRun
from jittrainer.i18n import _, ngettext
from jittrainer.i18n.message import render
from jittrainer.units import seconds

MARK = "▷"  # beside a tab's title while it shows a scratch run


def jitted_compiles(run: ScratchRun) -> int:
    """Compiles the program's jitted calls caused (the headline also counts JAX's own eager ones; the tab does not)."""
    return sum(c.compiles for c in run.calls)


def banner(run: ScratchRun, ctx: PaneContext) -> list[Content | str]:
    """Three lines: what this is, what happened, how to get a verdict."""
    word = Content.styled(_("RAISED"), "bold $text-error") if run.error is not None else \
        Content.styled(_("RAN"), "bold $text-success")
    head = Content.assemble((f"{MARK} " + _("Scratch run"), "bold $text-accent"), " · ", word, " · ",
                            (_("{duration} · ungraded, not recorded").format(duration=seconds(run.duration_s)),
                             "$text-muted"))
    return [head, Content(visible(run.message)),
            caption(_("Your draft ran as a program (its if __name__ == \"__main__\": block). {key} grades it.")
                    .format(key=ctx.run_key)), ""]


def render_scratch_output(run: ScratchRun, ctx: PaneContext) -> Content:
    parts = banner(run, ctx)
    if run.error is not None:
        where = _("Where your code failed (line {line})").format(line=run.error.line) if run.error.line else \
            _("Where your code failed")
        parts.append(Content.styled(where, "bold $text-error"))
        shown = run.error.shown_traceback() or f"{run.error.type}: {run.error.message}"
        parts += [Content(visible(line)) for line in shown.splitlines()[-12:]]
        parts.append("")
    sections = [s for s in run.output_sections if s.text.strip() or s.label.startswith("call ")]
    if not any(s.text.strip() for s in sections):
        parts.append(Content.styled(_("Your program printed nothing."), "bold"))
        return lines(*parts)
    budget = SHOWN_CHARS
    for section in sections:
        parts.append(Content.styled(f"── {run.section_title(section.label)} ──", "bold $text-accent"))
        text = section.text.rstrip("\n")
        if not text:
            parts.append(caption(_("(printed nothing)")))
            continue
        kept = text[:budget].splitlines()[:SHOWN_LINES]
        shown = "\n".join(kept)
        if len(shown) < len(text) or section.dropped:  # what the pane leaves out, and what the worker never kept
            shown += "\n" + _("[… {n} more characters not shown here]").format(
                n=f"{len(text) - len(shown) + section.dropped:,}")
        budget = max(budget - len(shown), 0)
        parts.append(Content(visible(shown)))
    if run.output_truncated:
        parts += ["", caption(_("The output was cut: your code printed more than the grader keeps."))]
    return lines(*parts)


def render_scratch_jaxpr(run: ScratchRun, ctx: PaneContext) -> Content:
    parts = banner(run, ctx)
    if not run.jaxprs:
        parts.append(Content.styled(_("No jaxpr: the program called no jitted function."), "bold"))
        return lines(*parts)
    parts.append(caption(ngettext("The program of the jitted function it called, as jit recorded it:",
                                  "The programs of the {n} jitted functions it called, as jit recorded them:",
                                  len(run.jaxprs)).format(n=len(run.jaxprs))))
    return lines(*parts)


def render_scratch_jaxpr_code(run: ScratchRun) -> Content:
    blocks: list[Content | str] = []
    for jaxpr in run.jaxprs:
        blocks += [Content.styled(f"── {render(jaxpr.function)} ──", "bold $text-accent"), highlight(jaxpr.text), ""]
    return lines(*blocks)


def render_scratch_recompiles(run: ScratchRun, ctx: PaneContext) -> Content:
    parts = banner(run, ctx)
    if not run.calls:
        parts.append(Content.styled(_("The program called no jitted function: nothing was traced or compiled."),
                                    "bold"))
        return lines(*parts)
    n_traces, n_compiles = sum(c.traces for c in run.calls), jitted_compiles(run)
    traces = ngettext("{n} trace", "{n} traces", n_traces).format(n=n_traces)
    compiles = ngettext("{n} compile", "{n} compiles", n_compiles).format(n=n_compiles)
    parts.append(Content.styled(_("{traces}, {compiles} over the program's jitted calls").format(
        traces=traces, compiles=compiles), "bold"))
    misses: dict[int | None, list] = {}
    for miss in run.cache_misses:
        misses.setdefault(miss.call, []).append(miss)
    for call in run.calls:
        done = call.outcome()
        parts.append(Content.assemble((f"{call.number:>3}. ", "bold $text-accent"),
                                      f"{call.function}({', '.join(call.types)})", (f"  {done}", "$text-muted")))
        for miss in misses.get(call.number, []):
            parts.append(Content(f"     {render(miss.reason)}"))
    return lines(*parts)
