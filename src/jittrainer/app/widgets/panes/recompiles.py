"""The Recompiles pane: every backend compile during the graded calls, and why it happened, in plain words."""

from __future__ import annotations

from collections import Counter

from textual.content import Content

from jittrainer.app.widgets.panes.common import PaneContext, caption, lines, not_run
from jittrainer.grading.verdict import CacheMiss, Verdict
from jittrainer.i18n import N_, _, ngettext, pgettext
from jittrainer.i18n.message import render

KIND_WORDS = {
    "first": N_("the first call of a function: nothing was compiled for it yet"),
    "new_function": N_("a new function object (jax.jit made inside a loop or per call)"),
    "static": N_("a static argument took a new value"),
    "types": N_("a new input shape or dtype"),
    "weak_type": N_("a Python scalar and a typed array count as different types"),
    "structure": N_("the structure of an argument (a pytree) changed"),
    "context": N_("JAX's configuration or a context manager changed"),
    "aot": N_("compiled ahead of time (lower().compile()) before the calls"),
    "derived": N_("a second program from one trace of your function (its backward pass under jax.grad)"),
    "jax_internal": N_("JAX's own operations, run eagerly outside jit"),
}


def why(miss: CacheMiss) -> str:
    """The general reason for a compile, for the storm summary."""
    general = KIND_WORDS.get(miss.kind)
    return _(general) if general else render(miss.reason)


def render_recompiles(verdict: Verdict | None, ctx: PaneContext) -> Content:
    head = caption(_("jit compiles once per new input shape, dtype, static value or function. Each compile below "
                     "says what was new. Many compiles usually mean something changes on every call."))
    if verdict is None:
        return lines(head, "", not_run(ctx))
    parts: list[Content | str] = [head, ""]
    if verdict.compiles is None:
        parts.append(Content.styled(_("No graded call ran, so nothing was compiled."), "bold"))
        return lines(*parts)
    traces = ngettext("{n} trace", "{n} traces", verdict.traces or 0).format(n=verdict.traces or 0)
    compiles = ngettext("{n} compile", "{n} compiles", verdict.compiles).format(n=verdict.compiles)
    parts.append(Content.styled(_("{traces}, {compiles} over the graded calls").format(traces=traces,
                                                                                        compiles=compiles), "bold"))
    if not verdict.cache_misses:
        if verdict.compiles == 0:
            parts.append(caption(_("Nothing new was compiled: every call reused a compiled program.")))
        return lines(*parts)
    if len(verdict.cache_misses) > 3:
        # A storm: say what keeps happening before the long list.
        groups = Counter(why(miss) for miss in verdict.cache_misses)
        parts.append("")
        parts.append(Content.styled(_("Why, in short:"), "bold"))
        for reason, n in groups.most_common(4):
            # zh: "61 次：" (a multiplier sign reads as a stray symbol there), en: "61×"
            count = pgettext("recompiles.times", "{n}×").format(n=n)
            gap = " " if count[-1:].isascii() else ""
            parts.append(Content.assemble((f"  {count}", "bold $text-accent"), f"{gap}{reason}"))
    width = len(str(len(verdict.cache_misses)))
    for n, miss in enumerate(verdict.cache_misses, 1):
        where = _("call {n}").format(n=miss.call) if miss.call is not None else _("outside the graded calls")
        if miss.window:  # a later window the checks count on their own (exercise 26's gradients)
            where = _("{window}, {call}").format(window=miss.window, call=where)
        parts.append("")
        parts.append(Content.assemble((f"#{n:<{width}} ", "bold $text-accent"), (miss.function, "bold"),
                                      (f"  {where}", "$text-muted")))
        parts.append(Content(f"{' ' * (width + 2)}{render(miss.reason)}"))
    return lines(*parts)
