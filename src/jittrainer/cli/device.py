"""``--device cpu|auto|tpu`` on ``check``, ``watch``, ``bench`` and the app: the option, and what it comes to."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from jittrainer.grading.host.device import MODES, Choice, choose, tpu_runtime
from jittrainer.i18n import _

if TYPE_CHECKING:
    from jittrainer.grading.host.run import Submission


def add_device_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--device", choices=MODES, default=None, help=_(
        "where the steady-state timing and the accelerator exercises' device checks run: cpu (default: grading "
        "as always), auto (a TPU when this machine has one) or tpu; every other check runs on the CPU (default: "
        "[grading] device in the config)"))


def device_choice(args: argparse.Namespace, settings: object) -> Choice:
    """The --device option, else the config's ``[grading] device``, on this machine."""
    mode = getattr(args, "device", None) or getattr(settings, "device", "cpu") or "cpu"
    return choose(mode)


def device_rows(choice: Choice) -> list[tuple[str, str]]:
    """What ``doctor`` says about the device: what this machine has (found without opening it) and the mode in
    force. Opening a TPU takes seconds and only one process may hold it, so doctor does not."""
    import glob

    found = [_("TPU runtime (libtpu)")] if tpu_runtime() else []
    found += sorted(glob.glob("/dev/accel*"))[:4] + sorted(glob.glob("/dev/vfio/[0-9]*"))[:4]
    if choice.platform:
        mode = _("{mode}: steady-state timing on {platform}, opened once per session (the verdict on the CPU)").format(
            mode=choice.mode, platform=choice.platform.upper())
    elif choice.reason:
        mode = _("{mode}: the CPU ({why})").format(mode=choice.mode, why=choice.reason)
    else:
        mode = _("{mode}: the CPU, as always").format(mode=choice.mode)
    return [(_("accelerator"), ", ".join(found) or _("none found")), (_("device mode"), mode)]


def on_device(submission: Submission, choice: Choice) -> Submission:
    return submission.on_device(choice)
