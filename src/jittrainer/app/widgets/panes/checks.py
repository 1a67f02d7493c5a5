"""The Checks pane: the verdict in words and icons, the advice when it is unlocked, where the code failed, then
each check (failures first), and after a pass the next step."""

from __future__ import annotations

import re

from textual.content import Content

from jittrainer.app.widgets.panes.common import PaneContext, caption, lines, not_run
from jittrainer.grading.labels import phase_label
from jittrainer.grading.verdict import CheckResult, Verdict
from jittrainer.i18n import _, ngettext
from jittrainer.i18n.message import render
from jittrainer.units import duration

ICONS = {
    "pass": ("✔", "$text-success"),
    "fail": ("✘", "$text-error"),
    "error": ("⚠", "$text-error"),
    "skip": ("·", "$text-muted"),
}
TRACEBACK_LINES = 14
JAX_FOOTER = re.compile(r"^-{10,}$")  # JAX's "internal frames were removed" note follows a line of dashes
ORDER = {"fail": 0, "error": 0, "pass": 1, "skip": 2}


def status_word(status: str) -> str:
    return {"pass": _("✔ PASSED"), "fail": _("✘ FAILED"), "error": _("⚠ ERROR")}[status]


def trim_traceback(traceback: str, aliases: dict[str, str]) -> list[str]:
    for path, alias in aliases.items():
        traceback = traceback.replace(path, alias)
    out = traceback.rstrip().splitlines()
    for n, line in enumerate(out):
        if JAX_FOOTER.match(line.strip()):
            out = out[:n]
            break
    if len(out) > TRACEBACK_LINES:
        out = ["…", *out[-TRACEBACK_LINES:]]
    return out


def ordered_checks(checks: list[CheckResult]) -> list[CheckResult]:
    """Failures first (in their own order), then passes, then skipped checks."""
    return sorted(checks, key=lambda check: ORDER.get(check.status, 3))


def headline(verdict: Verdict) -> Content:
    style = "bold $text-success" if verdict.passed else "bold $text-error"
    return Content.styled(status_word(verdict.status), style)


def _advice(verdict: Verdict, ctx: PaneContext) -> list[Content | str]:
    first = verdict.first_failure
    if first is None or first.advice is None:
        return []
    if first.advice_shown:
        return ["", Content.assemble((_("Advice: "), "bold $text-accent"), render(first.advice))]
    text = ngettext("Advice for this check is kept back so you can work it out first. It shows after hint {tier} "
                    "({hint}), after {runs} more failing run, or now with {advice}.",
                    "Advice for this check is kept back so you can work it out first. It shows after hint {tier} "
                    "({hint}), after {runs} more failing runs, or now with {advice}.", ctx.locked_runs).format(
        tier=first.advice_tier, hint=ctx.hint_key, runs=ctx.locked_runs, advice=ctx.advice_key)
    return ["", caption(text)]


def render_checks(verdict: Verdict | None, ctx: PaneContext, running: bool = False) -> Content:
    parts: list[Content | str] = []
    if running:
        parts += [Content.styled(_("⟳ Grading your draft in a worker process…"), "bold $text-accent")]
        if ctx.limit_s is not None:
            limit = _("The time limit is {limit}, set by this exercise.") if ctx.limit_from_manifest else \
                _("The time limit is {limit} (the default; this exercise sets none).")
            parts.append(caption(limit.format(limit=duration(ctx.limit_s)) + " " + _(
                "It counts from when a worker process takes the job (its jax has started), not from {key}.").format(
                key=ctx.run_key)))
        parts += [caption(_("{key} again restarts the grade; the one in flight is stopped.").format(key=ctx.run_key)),
                  ""]
    if verdict is None:
        if not running:
            parts += [not_run(ctx), caption(_("Your draft runs in a separate process under jax.jit. Each check's "
                                              "result appears here, the first failure on top."))]
        return lines(*parts)
    if running:
        parts.append(caption(_("Previous result:")))
    elif ctx.restored:
        parts.append(caption(ctx.restored))
    parts += [headline(verdict), Content(verdict.message)]
    parts += _advice(verdict, ctx)
    if verdict.passed and ctx.next_exercise:
        parts += ["", Content.assemble((_("Next exercise: "), "bold $text-success"), ctx.next_exercise,
                                       ("  " + _("({key})").format(key=ctx.next_key), "$text-muted"))]
        parts.append(caption(_("The Why tab explains the fix and puts your code beside the reference solution.")))
    if verdict.internal_error is not None:
        internal = verdict.internal_error
        parts += ["", Content.styled(_("This is not your code's fault:"), "bold $text-warning"),
                  Content(_("the {where} is broken ({file}): {message}").format(
                      where=internal.where, file=internal.file, message=internal.message))]
    if verdict.error is not None:
        error = verdict.error
        if error.line:
            where = (_("{type} at line {line}, column {col}") if error.col else _("{type} at line {line}")).format(
                type=error.type, line=error.line, col=error.col)
        else:
            where = error.type
        if error.phase and error.phase != "compile":
            where = _("{where} (during {phase})").format(where=where, phase=phase_label(error.phase))
        parts += ["", Content.styled(where, "bold $text-error")]
        if error.line:
            parts.append(caption(_("The editor marks that line.")))
        if error.traceback:
            shown = trim_traceback(error.shown_traceback(), ctx.aliases)
            if shown and shown[0].strip() == verdict.message.strip():
                shown = shown[1:]  # a SyntaxError's traceback opens with the message already shown above
            if shown:
                parts.append(Content.styled("\n".join(shown), "$text-muted"))
    if verdict.checks:
        parts.append("")
        passed = sum(check.status == "pass" for check in verdict.checks)
        total = len(verdict.checks)
        parts.append(Content.styled(ngettext("{passed} of {total} check passed", "{passed} of {total} checks passed",
                                             total).format(passed=passed, total=total), "bold"))
        said = {verdict.message}  # a reason already on screen is not repeated under every check it affects
        for check in ordered_checks(verdict.checks):
            icon, style = ICONS.get(check.status, ICONS["skip"])
            parts.append(Content.assemble((icon, style), " ",
                                          (render(check.name), "bold" if check.status != "pass" else "")))
            message = check.message
            if message and (check.status == "pass" or message not in said):
                parts.append(Content.styled(f"  {message}", "" if check.failed else "$text-muted"))
                if check.status != "pass":
                    said.add(message)
    facts = []
    if verdict.traces is not None:
        facts.append(ngettext("{n} trace", "{n} traces", verdict.traces).format(n=verdict.traces))
    if verdict.compiles is not None:
        facts.append(ngettext("{n} compile", "{n} compiles", verdict.compiles).format(n=verdict.compiles))
    if len(verdict.devices) > 1:
        facts.append(_("graded with {counts} devices").format(counts=" & ".join(str(d.get("count")) for d in
                                                                                  verdict.devices)))
    if verdict.seed is not None:
        facts.append(_("seed {seed}").format(seed=verdict.seed))
    if facts:
        parts += ["", caption(" · ".join(facts))]
    return lines(*parts)
