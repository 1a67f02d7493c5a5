"""Drill mode in the app: ``DrillScreen`` (a round of interview drill cards) and ``DrillApp`` (just that round).

Main-app hook, one line: ``self.push_screen(DrillScreen())`` — it loads the bundled deck, plans a round of 10 cards
from the learner's schedule, and dismisses itself with the round's ``Summary``.
"""

from jittrainer.app.drill.app import DrillApp
from jittrainer.app.drill.screen import DrillScreen

__all__ = ["DrillApp", "DrillScreen"]
