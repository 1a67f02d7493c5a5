"""The learner's words for the engine's labels of output sections and error phases ("call 3", "import", ...).

The worker writes these labels in English, as data (a verdict is language-neutral); whatever shows a verdict, the
app or the CLI, names them through here, so a Chinese screen says 第 3 次调用, not call 3.
"""

from __future__ import annotations

from jittrainer.i18n import _


def _call(label: str) -> str | None:
    if label.startswith("call ") and label[5:].isdigit():
        return _("call {n}").format(n=label[5:])
    return None


def section_label(label: str) -> str:
    """An output section's heading: ``call 1``, ``import``, ``grader`` or ``process``."""
    return _call(label) or {"import": _("while importing your file"), "grader": _("grader"),
                            "process": _("process output (written straight to file descriptors 1 and 2)")}.get(
        label, label)


def phase_label(phase: str) -> str:
    """Where an error happened: ``call 1``, ``import``, ``read``, ``checks``."""
    return _call(phase) or {"import": _("while importing your file"), "read": _("while reading your file"),
                            "checks": _("while checking the results")}.get(phase, phase)
