"""Where the learner's things live: ``$JITTRAINER_HOME``, else platformdirs' user data dir for "jittrainer"."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "jittrainer"


def home() -> Path:
    env = os.environ.get("JITTRAINER_HOME")
    if env:
        return Path(env).expanduser()
    return platformdirs.user_data_path(APP, appauthor=False)


def workspace_dir() -> Path:
    return home() / "workspace"


def backups_dir() -> Path:
    return home() / "backups"


def progress_path() -> Path:
    return home() / "progress.json"


def config_path() -> Path:
    return home() / "config.toml"


def cache_dir() -> Path:
    # Under the home when it is set explicitly, so a throwaway home (tests, CI) leaves nothing behind elsewhere.
    if os.environ.get("JITTRAINER_HOME"):
        return home() / "cache"
    return platformdirs.user_cache_path(APP, appauthor=False)


def packs_dir() -> Path:
    """Packs installed for this learner: every folder here with a pack.toml loads (``jittrainer new`` writes into
    ``packs/mine`` unless told another pack)."""
    return home() / "packs"


def key_file(key: str) -> str:
    """An exercise's key as a relative file stem: ``"pack:id"`` → ``"pack/id"`` (a pack's drafts and backups live
    in a folder of their own, and no file name holds a colon)."""
    return key.replace(":", "/")


def draft_path(exercise_id: str) -> Path:
    return workspace_dir() / f"{key_file(exercise_id)}.py"
