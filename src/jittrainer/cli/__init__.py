"""The headless face of jittrainer: ``jittrainer list / show / check / hint / reset / validate / doctor / drill / bench``.

No jax here and no learner code: grading happens in a worker process (``jittrainer.grading.host``). ``jittrainer``
with no command opens the app. ``--lang`` (or ``JITTRAINER_LANG``, the app's setting, the locale) picks the
language; argparse's own words follow it too.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from typing import Any

import jittrainer
from jittrainer.cli.argtypes import positive_int
from jittrainer.cli.style import (EXIT_PASS, EXIT_USAGE, UsageError, crash_line, json_printed, print_json,
                                  reset_json_printed, show_notices)
from jittrainer.i18n import LANGUAGES, N_, _, detect, ngettext, set_language
from jittrainer.session.settings import load_settings


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 too; keep its usage line
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"jittrainer: {message}\n")

    def format_help(self) -> str:
        # argparse appends an ASCII ":" to each section heading itself, outside its catalog: after a Chinese heading
        # (选项, 位置参数, 命令) that reads as mixed punctuation beside the translated "用法：".
        return _CJK_HEADING.sub("\\1：", super().format_help())


_CJK_HEADING = re.compile(r"^(\s*\S.*[\u4e00-\u9fff]):$", re.MULTILINE)

# argparse's own words a learner meets, so the extractor puts them in our catalog (argparse asks through ``_``).
ARGPARSE_WORDS = (
    N_("usage: "), N_("options"), N_("positional arguments"), N_("show this help message and exit"),
    N_("show program's version number and exit"), N_("the following arguments are required: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"), N_("unrecognized arguments: %s"),
    N_("argument %(argument_name)s: %(message)s"), N_("expected one argument"),
    N_("invalid %(type)s value: %(value)r"), N_("ambiguous option: %(option)s could match %(matches)s"),
)


def _localize_argparse() -> None:
    """argparse looks its words up through module-level ``_``/``ngettext`` names; pointing them at our catalog
    translates "usage:", "options", "show this help message and exit" and its error messages."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


def cmd_app(args: argparse.Namespace) -> int:
    from jittrainer.app import run

    from jittrainer.cli.exercises import check_packs

    return run(exercises_dir=args.exercises, lang=args.lang, packs=check_packs(args.packs),
               device=getattr(args, "device", None))


def _top_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="jittrainer", description=_("Learn how jax.jit really behaves, one graded pitfall at a time."))
    parser.add_argument("--version", action="version", version=f"jittrainer {jittrainer.__version__}",
                        help=_("show program's version number and exit"))
    parser.add_argument("--exercises", metavar="DIR", help=_("read exercises from DIR instead of the bundled ones"))
    parser.add_argument("--pack", metavar="DIR", action="append", dest="packs", default=[],
                        help=_("also load the pack in DIR (a folder with pack.toml); repeatable"))
    parser.add_argument("--lang", choices=LANGUAGES, help=_("the language: en or zh (default: JITTRAINER_LANG, the "
                                                            "app's setting, then the locale)"))
    from jittrainer.cli.device import add_device_option

    add_device_option(parser)
    parser.set_defaults(func=cmd_app)
    return parser


def _opens_the_app(argv: list[str]) -> bool:
    """Plain ``jittrainer`` (with --lang/--exercises/--pack/--device at most): the app starts without importing every
    command."""
    rest = list(argv)
    while rest:
        arg = rest.pop(0)
        if arg in ("--lang", "--exercises", "--pack", "--device"):
            if not rest:
                return False
            rest.pop(0)
        elif not arg.startswith(("--lang=", "--exercises=", "--pack=", "--device=")):
            return False
    return True


def build_parser() -> argparse.ArgumentParser:
    from jittrainer.cli.check import add_check_options, cmd_check
    from jittrainer.cli.drill import add_drill_parser
    from jittrainer.cli.exercises import cmd_hint, cmd_list, cmd_reset, cmd_show
    from jittrainer.cli.interview import add_interview_options, cmd_interview
    from jittrainer.cli.scratch import add_run_options, cmd_run
    from jittrainer.cli.new import add_new_options, cmd_new
    from jittrainer.cli.device import add_device_option
    from jittrainer.cli.tools import cmd_bench, cmd_doctor, cmd_validate
    from jittrainer.cli.watch import add_watch_options, cmd_watch

    parser = _top_parser()
    sub = parser.add_subparsers(title=_("commands"), metavar="COMMAND", parser_class=_Parser)

    def command(name: str, func: Any, help_text: str, pack_help: str = "") -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("--exercises", metavar="DIR", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        p.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        # Its own dest: a subcommand's namespace would otherwise replace the packs given before the command.
        p.add_argument("--pack", metavar="DIR", action="append", dest="command_packs", default=[],
                       help=pack_help or _("also load the pack in DIR (a folder with pack.toml); repeatable"))
        p.set_defaults(func=func)
        return p

    p = command("list", cmd_list, _("exercises in course order with your status"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))

    p = command("show", cmd_show, _("print an exercise's statement and the path of your draft"))
    p.add_argument("id")

    p = command("check", cmd_check, _("grade your draft (or PATH) in an isolated worker process"))
    add_check_options(p)

    p = command("run", cmd_run, _("run your draft as a program (its if __name__ == \"__main__\": block), ungraded: "
                                  "what each jitted call printed, traced and compiled, and its jaxpr"))
    add_run_options(p)

    p = command("watch", cmd_watch, _("grade your draft every time you save it (in any editor)"))
    add_watch_options(p)

    p = command("hint", cmd_hint, _("show the next hint tier (recorded in your progress)"))
    p.add_argument("id")
    p.add_argument("--level", type=int, metavar="N", help=_("show tier N instead of the next one"))

    p = command("reset", cmd_reset, _("put your draft back to the starter (the old draft is kept as a backup)"))
    p.add_argument("id")

    p = command("new", cmd_new, _("start a new exercise: a folder of every file it needs, with TODOs to fill in"),
                pack_help=_("the pack to write it into: DIR, made into a new pack (with a pack.toml) if it is none "
                            "yet; default: your own pack, <home>/packs/mine"))
    add_new_options(p)

    p = command("validate", cmd_validate, _("authoring QA: starters fail, solutions pass, wrong fixes fail as declared"))
    p.add_argument("ids", nargs="*", metavar="ID", help=_("only these exercises (default: the course's, or with "
                                                          "--pack the packs')"))
    p.add_argument("--seed", type=int, help=_("seed for every grade (default: random)"))
    p.add_argument("--jobs", type=int, default=None, help=_("parallel grades (default: number of CPUs)"))
    p.add_argument("--json", action="store_true", help=_("print a JSON report"))
    p.add_argument("--languages", action=argparse.BooleanOptionalAction, default=None,
                   help=_("require every edition's text (default: for the bundled course)"))
    p.add_argument("--cards", nargs="*", metavar="CARD", default=None,
                   help=_("only drill cards: prove these (or, with no id, all of them), no exercises"))
    add_device_option(p)

    add_device_option(command("doctor", cmd_doctor, _("versions, devices and data paths")))

    add_drill_parser(sub, command)

    p = command("interview", cmd_interview, _("a mock interview: drill cards and a short exercise on one clock, then a "
                                              "report of strengths and weak topics"))
    add_interview_options(p)

    p = command("bench", cmd_bench, _("measure grading speed (cold vs warm), app start-up and memory on this machine"))
    p.add_argument("--json", action="store_true", help=_("print the measurements as JSON"))
    p.add_argument("--runs", type=positive_int, default=7, metavar="N", help=_("runs per measurement (default 7)"))
    add_device_option(p)
    return parser


def _pre_language(argv: list[str]) -> str | None:
    """``--lang X`` or ``--lang=X`` anywhere in argv: the parser's own help must already be in that language."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    set_language(detect(cli=_pre_language(argv), settings=load_settings().language))
    _localize_argparse()
    parser = _top_parser() if _opens_the_app(argv) else build_parser()
    args = parser.parse_args(argv)
    for name in ("exercises", "lang"):
        if not hasattr(args, name):
            setattr(args, name, None)
    args.packs = [*getattr(args, "packs", []), *getattr(args, "command_packs", [])]
    reset_json_printed()  # one command, one JSON object: a second main() in this process starts afresh
    try:
        return args.func(args)
    except UsageError as exc:
        if getattr(args, "json", False) and not json_printed():
            print_json({"error": str(exc)}, indent=None)
        print(f"jittrainer: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("jittrainer: " + _("interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_PASS
    except Exception as exc:  # noqa: BLE001  (the last resort: a bug in jittrainer ends in a message, not a traceback)
        return _internal_error(args, exc)
    finally:
        with contextlib.suppress(Exception):
            show_notices()


def _internal_error(args: argparse.Namespace, exc: Exception) -> int:
    """Report a bug in jittrainer itself: one line on stderr, the traceback in a file, exit 2; under ``--json``
    stdout still holds exactly one JSON object."""
    line = crash_line(exc)
    if getattr(args, "json", False) and not json_printed():
        with contextlib.suppress(Exception):
            print_json({"error": line, "internal": True}, indent=None)
    print(f"jittrainer: {line}", file=sys.stderr)
    return EXIT_USAGE


if __name__ == "__main__":
    raise SystemExit(main())
