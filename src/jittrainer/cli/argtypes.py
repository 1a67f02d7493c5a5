"""argparse value types shared by the command-line modules."""

from __future__ import annotations

import argparse

from jittrainer.i18n import _


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a whole number").format(text=text)) from None
    if value < 1:
        raise argparse.ArgumentTypeError(_("must be at least 1"))
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a number").format(text=text)) from None
    if value <= 0:
        raise argparse.ArgumentTypeError(_("must be more than 0"))
    return value
