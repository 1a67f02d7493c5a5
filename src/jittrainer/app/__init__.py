"""The Textual face of jittrainer: ``jittrainer`` with no arguments opens it.

It shows the engine's verdicts and never grades by itself; importing it does not import jax.
"""

from __future__ import annotations

from jittrainer.app.trainer import TrainerApp

__all__ = ["TrainerApp", "run"]


def run(exercises_dir: str | None = None, lang: str | None = None, packs: list | tuple = (),
        device: str | None = None) -> int:
    import os

    app = TrainerApp(exercises_dir=exercises_dir, lang=lang, packs=packs, device=device)
    # Headless: no terminal needed (`jittrainer bench` times start-up this way).
    app.run(headless=os.environ.get("JITTRAINER_HEADLESS") == "1")
    return app.return_code or 0
