"""``jittrainer new ID [--topic T] [--pack DIR]``: start an exercise in a pack, every file in place with TODOs.

Without ``--pack`` it goes into the learner's own pack, ``<home>/packs/mine`` (created on first use), which loads
by itself; ``--pack DIR`` names another pack (a new folder becomes a new pack). Never into the built-in course:
see ``course.scaffold``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from jittrainer import paths
from jittrainer.cli.style import EXIT_PASS, Style, UsageError
from jittrainer.course.exercises import default_root
from jittrainer.course.layout import TODO_MARK
from jittrainer.course.packs import FILE as PACK_FILE
from jittrainer.course.packs import load_pack
from jittrainer.course.scaffold import DEFAULT_PACK, ScaffoldError, new_pack, scaffold
from jittrainer.i18n import _
from jittrainer.session import Session, pack_dirs

MINE_TITLES = {"zh": "我的练习"}


def add_new_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID", help=_("the new exercise's id: lower case letters, digits and _"))
    p.add_argument("--topic", metavar="T", help=_("its topic id (default: the first topic; the manifest lists the "
                                                  "others)"))


def target_pack(args: argparse.Namespace) -> Path:
    """The pack folder to write into, with a pack.toml (written here for a new pack)."""
    if len(args.packs) > 1:
        raise UsageError(_("new writes into one pack: give --pack DIR once"))
    folder = Path(args.packs[0]).expanduser() if args.packs else paths.packs_dir() / DEFAULT_PACK
    course_root = Path(args.exercises).expanduser() if args.exercises else default_root()
    if folder.resolve() == course_root.resolve():
        raise UsageError(_("{path} is the course itself: start the exercise in a pack, and move it into the course "
                           "once it validates (docs/authoring.md)").format(path=folder))
    if not (folder / PACK_FILE).is_file():
        if folder.exists() and not folder.is_dir():
            raise UsageError(_("{path}: not a folder").format(path=folder))
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if args.packs:
                new_pack(folder)
            else:
                new_pack(folder, DEFAULT_PACK, "My exercises", titles=MINE_TITLES)
        except OSError as exc:
            raise UsageError(_("{path}: cannot create the pack ({reason})").format(
                path=folder, reason=exc.strerror or exc)) from None
        print(_("New pack: {path}").format(path=folder / PACK_FILE))
    return folder


def cmd_new(args: argparse.Namespace) -> int:
    folder = target_pack(args)
    pack = load_pack(folder)
    if pack.problems:
        raise UsageError(pack.problems[0])
    session = Session(args.exercises, lang=args.lang, packs=[folder])
    topics = list(session.course.topics) + [t for t in pack.topics if t not in session.course.topics]
    if args.topic and topics and args.topic not in topics:
        raise UsageError(_("{topic!r} is not a topic (known: {known})").format(topic=args.topic,
                                                                               known=", ".join(topics)))
    topic = args.topic or (topics[0] if topics else "general")
    todo = "" if args.topic else f"{TODO_MARK}: the topic, one of: {', '.join(topics) or topic}"
    try:
        made = scaffold(folder, args.id, topic, topic_todo=todo, editions=pack.editions)
    except (ScaffoldError, OSError) as exc:
        raise UsageError(str(exc)) from None
    session = Session(args.exercises, lang=args.lang, packs=[folder])
    ex = next(ex for ex in session.exercises if ex.dir == made.folder.resolve())
    style = Style(sys.stdout)
    print(_("Created {key} in {path}: {n} TODOs to fill in.").format(key=ex.id, path=style.path(made.folder),
                                                                      n=len(ex.todos)))
    loads = folder.resolve() in pack_dirs(session.settings)
    pack_flag = "" if loads else f" --pack {folder}"
    print(_("Next: write the contract in statement.md, then the checks, the starter and the fixes; run `jittrainer "
            "validate {id}{pack}` until it is clean. The guide: docs/authoring.md").format(
        id=session.course.typed_id(ex), pack=pack_flag))
    return EXIT_PASS
