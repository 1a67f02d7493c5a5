"""The Checks pane: the overall verdict in words and icons, where the code failed, then each check (failures first)."""

from __future__ import annotations

import re

from textual.content import Content

from jittrainer.app.widgets.panes.common import NOT_RUN, caption, lines, plural
from jittrainer.core.verdict import CheckResult, Verdict

HEADLINES = {
    "pass": ("✔ PASSED", "bold $text-success"),
    "fail": ("✘ FAILED", "bold $text-error"),
    "error": ("⚠ ERROR", "bold $text-error"),
}
ICONS = {
    "pass": ("✔", "$text-success"),
    "fail": ("✘", "$text-error"),
    "error": ("⚠", "$text-error"),
    "skip": ("·", "$text-muted"),
}
TRACEBACK_LINES = 14
JAX_FOOTER = re.compile(r"^-{10,}$")  # JAX's "internal frames were removed" note follows a line of dashes


def trim_traceback(traceback: str, aliases: dict[str, str]) -> list[str]:
    for path, alias in aliases.items():
        traceback = traceback.replace(path, alias)
    lines = traceback.rstrip().splitlines()
    for n, line in enumerate(lines):
        if JAX_FOOTER.match(line.strip()):
            lines = lines[:n]
            break
    if len(lines) > TRACEBACK_LINES:
        lines = ["…", *lines[-TRACEBACK_LINES:]]
    return lines
ORDER = {"fail": 0, "error": 0, "pass": 1, "skip": 2}


def ordered_checks(checks: list[CheckResult]) -> list[CheckResult]:
    """Failures first (in their own order), then passes, then skipped checks."""
    return sorted(checks, key=lambda check: ORDER.get(check.status, 3))


def headline(verdict: Verdict) -> Content:
    word, style = HEADLINES[verdict.status]
    return Content.styled(word, style)


def render_checks(verdict: Verdict | None, running: bool = False, aliases: dict[str, str] | None = None) -> Content:
    """``aliases`` shortens paths in tracebacks (the draft's full path to ``workspace/<id>.py``)."""
    parts: list[Content | str] = []
    if running:
        parts += [Content.styled("⟳ Grading your draft in a worker process…", "bold $text-accent"),
                  caption("ctrl+r again restarts the grade; the one in flight is stopped."), ""]
    if verdict is None:
        if not running:
            parts += [Content.styled(NOT_RUN, "bold"),
                      caption("Your draft runs in a separate process under jax.jit. Each check's result appears "
                              "here, the first failure on top.")]
        return lines(*parts)
    if running:
        parts.append(caption("Previous result:"))
    parts += [headline(verdict), Content(verdict.message)]
    if verdict.internal_error is not None:
        internal = verdict.internal_error
        parts += ["", Content.styled("This is not your code's fault:", "bold $text-warning"),
                  Content(f"the {internal.where} is broken ({internal.file}): {internal.message}")]
    if verdict.error is not None:
        error = verdict.error
        where = f"line {error.line}" + (f", column {error.col}" if error.col else "") if error.line else ""
        phase = f" (during {error.phase})" if error.phase and error.phase != "compile" else ""
        title = f"{error.type} at {where}{phase}" if where else f"{error.type}{phase}"
        parts += ["", Content.styled(title, "bold $text-error")]
        if error.line:
            parts.append(caption("The editor marks that line."))
        if error.traceback:
            parts.append(Content.styled("\n".join(trim_traceback(error.traceback, aliases or {})), "$text-muted"))
    if verdict.checks:
        parts.append("")
        passed = sum(check.status == "pass" for check in verdict.checks)
        parts.append(Content.styled(f"{passed} of {plural(len(verdict.checks), 'check')} passed", "bold"))
        said = {verdict.message}  # a reason already on screen is not repeated under every check it affects
        for check in ordered_checks(verdict.checks):
            icon, style = ICONS.get(check.status, ICONS["skip"])
            parts.append(Content.assemble((icon, style), " ", (check.name, "bold" if check.status != "pass" else "")))
            if check.message and (check.status == "pass" or check.message not in said):
                parts.append(Content.styled(f"  {check.message}", "" if check.status in ("fail", "error") else
                                            "$text-muted"))
                if check.status != "pass":
                    said.add(check.message)
    facts = []
    if verdict.traces is not None:
        facts.append(plural(verdict.traces, "trace"))
    if verdict.compiles is not None:
        facts.append(plural(verdict.compiles, "compile"))
    if verdict.seed is not None:
        facts.append(f"seed {verdict.seed}")
    if facts:
        parts += ["", caption(" · ".join(facts))]
    return lines(*parts)
