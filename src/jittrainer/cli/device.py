"""``--device cpu|auto|tpu`` on ``check``, ``watch``, ``bench`` and the app: the option, and what it comes to."""

from __future__ import annotations

import argparse
import dataclasses

from jittrainer.grading.host.device import MODES, Choice, choose
from jittrainer.grading.host.run import Submission
from jittrainer.i18n import _


def add_device_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--device", choices=MODES, default=None, help=_(
        "where the steady-state timing runs: cpu (default: grading as always), auto (a TPU when this machine has "
        "one) or tpu; the verdict is always reached on the CPU (default: [grading] device in the config)"))


def device_choice(args: argparse.Namespace, settings: object) -> Choice:
    """The --device option, else the config's ``[grading] device``, on this machine."""
    mode = getattr(args, "device", None) or getattr(settings, "device", "cpu") or "cpu"
    return choose(mode)


def on_device(submission: Submission, choice: Choice) -> Submission:
    return dataclasses.replace(submission, device=choice.platform, device_mode=choice.mode,
                               device_reason=choice.reason)
