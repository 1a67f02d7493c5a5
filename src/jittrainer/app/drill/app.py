"""A small app that shows one drill round and exits with its summary: what ``jittrainer drill`` opens."""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.app import App

from jittrainer.app.cjk_overlay import install as install_cjk_overlay
from jittrainer.app.cjk_wrap import install as install_cjk_wrap
from jittrainer.app.drill.screen import DrillScreen
from jittrainer.course.drills.model import Card, Deck
from jittrainer.course.drills.round import RoundOptions, Summary
from jittrainer.course.drills.schedule import Scheduler


class DrillApp(App[Summary | None]):
    TITLE = "jittrainer drill"

    def __init__(
        self,
        deck: Deck | None = None,
        *,
        cards: list[Card] | None = None,
        options: RoundOptions | None = None,
        scheduler: Scheduler | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        install_cjk_wrap()
        install_cjk_overlay()
        self._screen_args = dict(deck=deck, cards=cards, options=options, scheduler=scheduler, clock=clock)

    def on_mount(self) -> None:
        self.push_screen(DrillScreen(**self._screen_args), callback=self.exit)
