"""`jittrainer drill --plain` through a pipe: a full round, the summary, and schedules that persist across runs."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from drillkit import FakeClock, FakeDate

from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.round import RoundOptions
from jittrainer.course.drills.schedule import Scheduler
from jittrainer.session.progress import ProgressStore
from jittrainer.cli.drill import run_plain

_RIGHT = {"choice_one": "2", "count_two": "2", "tf_false": "f", "text_hi": "hi there"}
_WRONG = {"choice_one": "1", "count_two": "7", "tf_false": "t", "text_hi": "bye"}


def _as_shown(card_id: str, answer: str, seed: int) -> str:
    """choice_one's choices are shuffled by the round's seed: the number under which the choice ``answer`` shows."""
    if card_id != "choice_one":
        return answer
    from jittrainer.course.drills.model import Card
    from jittrainer.course.drills.present import choice_order

    card = Card(id="choice_one", path=Path("choice_one.toml"), kind="choice", choices=("1", "2", "3"))
    return str(choice_order(card, seed).index(int(answer)) + 1)


def RIGHT(card_id: str, seed: int) -> str:  # noqa: N802 - reads like the table it was
    return _as_shown(card_id, _RIGHT[card_id], seed)


def WRONG(card_id: str, seed: int) -> str:  # noqa: N802
    return _as_shown(card_id, _WRONG[card_id], seed)
QUESTIONS = {"choice_one": "What does it print?", "count_two": "How many lines?",
             "tf_false": "One plus one is three.", "text_hi": "Type the output."}


def noon_zone() -> str:
    """A time zone in which it is around noon now: "due again today" (a miss returns ten minutes later) must not
    depend on when the suite runs, and near midnight it would."""
    import datetime as dt

    offset = 12 - dt.datetime.now(dt.timezone.utc).hour  # hours to add to UTC for a local noon
    offset = (offset + 12) % 24 - 12  # within what Etc/GMT zones offer
    return f"Etc/GMT{-offset:+d}"  # POSIX sign: Etc/GMT+5 is five hours behind UTC


def drill(deck_dir, home, *args, stdin="", lang="en"):
    cmd = [sys.executable, "-m", "jittrainer", "--lang", lang, "drill"]
    env = {"JITTRAINER_HOME": str(home), "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8", "TZ": noon_zone()}
    return subprocess.run([*cmd, "--drills", str(deck_dir), *args], input=stdin, capture_output=True, text=True,
                          env=env, timeout=60)


def planned(deck_dir, home, seed, count, topic=None):
    """The order a fresh learner gets for this seed (the same code the command runs)."""
    deck = load_drills(deck_dir)
    store = ProgressStore(home / "progress.json")
    return [c.id for c in Scheduler(store).pick(deck.cards, count=count, seed=seed, topic=topic)]


def asked(transcript: str) -> list[str]:
    return [card for line in transcript.splitlines() for card, q in QUESTIONS.items() if line == q]


def test_a_full_plain_round_through_a_pipe(deck_dir, learner_home):
    order = planned(deck_dir, learner_home, seed=5, count=3)
    answers = [RIGHT(order[0], 5), WRONG(order[1], 5), "?"]
    r = drill(deck_dir, learner_home, "--plain", "--count", "3", "--seed", "5", stdin="\n".join(answers) + "\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.startswith("Drill round: 3 cards.")
    assert asked(out) == order
    assert out.count("── Card ") == 3 and "── Card 1/3 · " in out
    assert "✓ Right" in out and out.count("✗ Wrong: the answer is") == 2
    assert "── Round over ──" in out and "Score 1/3" in out and "2 wrong, 0 timed out" in out
    assert "Weak topics:" in out and "Schedule: 2 of these cards due again today, 1 later" in out
    data = json.loads((learner_home / "progress.json").read_text())
    results = {k: v["last_result"] for k, v in data["drills"]["cards"].items()}
    assert results == {order[0]: "right", order[1]: "wrong", order[2]: "wrong"}


def test_schedules_persist_across_runs(deck_dir, learner_home):
    first = planned(deck_dir, learner_home, seed=2, count=4)
    answers = [RIGHT(first[0], 2), RIGHT(first[1], 2), WRONG(first[2], 2), RIGHT(first[3], 2)]
    r = drill(deck_dir, learner_home, "--plain", "--seed", "2", stdin="\n".join(answers) + "\n")
    assert r.returncode == 0 and "Score 3/4" in r.stdout
    # A second run: only the missed card is due today.
    r = drill(deck_dir, learner_home, "--plain", "--due", "--seed", "2", stdin=RIGHT(first[2], 2) + "\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Drill round: 1 card.") and asked(r.stdout) == [first[2]]
    assert "Score 1/1" in r.stdout
    # Nothing is due any more today.
    r = drill(deck_dir, learner_home, "--plain", "--due")
    assert r.returncode == 0 and r.stdout.startswith("Nothing is due today. The next card is due on ")
    data = json.loads((learner_home / "progress.json").read_text())
    state = data["drills"]["cards"][first[2]]
    assert (state["seen"], state["right"], state["wrong"]) == (2, 1, 1) and state["fsrs"]["state"] == 2  # review


def test_not_a_terminal_means_plain_even_without_the_flag(deck_dir, learner_home):
    r = drill(deck_dir, learner_home, "--count", "1", "--topic", "beta", stdin="q\n")
    assert r.returncode == 0 and r.stdout.startswith("Drill round: 1 card.")
    assert "ended early" in r.stdout and "Score 0/0" in r.stdout


def test_end_of_input_ends_the_round_early(deck_dir, learner_home):
    order = planned(deck_dir, learner_home, seed=1, count=3)
    r = drill(deck_dir, learner_home, "--plain", "--count", "3", "--seed", "1", stdin=RIGHT(order[0], 1) + "\n")
    assert r.returncode == 0
    assert "Score 1/1" in r.stdout and "(ended early)" in r.stdout and "2 not reached" in r.stdout


def test_bad_input_is_asked_again(deck_dir, learner_home):
    first = planned(deck_dir, learner_home, seed=3, count=1, topic="alpha")[0]
    r = drill(deck_dir, learner_home, "--plain", "--topic", "alpha", "--count", "1", "--seed", "3",
              stdin=f"banana\nt\n{RIGHT(first, 3)}\n")
    assert r.returncode == 0
    assert "  (answer with" in r.stdout and "  (this card is not true or false" in r.stdout  # a t for a number
    assert "Score 1/1" in r.stdout


def test_usage_errors_exit_2(deck_dir, learner_home):
    r = drill(deck_dir, learner_home, "--plain", "--topic", "gamma")
    assert r.returncode == 2 and "no topic called 'gamma'" in r.stderr and r.stdout == ""
    r = drill(deck_dir, learner_home, "--plain", "--count", "0")
    assert r.returncode == 2 and "--count" in r.stderr
    r = drill(deck_dir.parent / "nowhere", learner_home, "--plain")
    assert r.returncode == 2 and "no drills folder" in r.stderr


def test_topics_and_markdown(deck_dir, learner_home):
    r = drill(deck_dir, learner_home, "--topics")
    assert r.returncode == 0 and r.stdout.splitlines()[0].split() == ["topic", "cards", "new", "due", "later", "title"]
    assert any(line.split()[:2] == ["alpha", "2"] for line in r.stdout.splitlines())
    r = drill(deck_dir, learner_home, "--topics", lang="zh")
    assert r.stdout.splitlines()[0].split() == ["主题", "卡片", "新", "到期", "以后", "标题"]
    r = drill(deck_dir, learner_home, "--markdown")
    assert r.returncode == 0 and "## 面试题 — Interview questions" in r.stdout and "*Answer:* `hi there`" not in r.stdout


def test_unavailable_cards_are_skipped_with_a_note(deck_dir, learner_home):
    (deck_dir / "cards" / "zz_broken.toml").write_text("format_version = 1\nid = 'zz_broken'\n")
    r = drill(deck_dir, learner_home, "--plain", "--count", "1", "--seed", "1", stdin="q\n")
    assert r.returncode == 0
    assert "skipping an unavailable card: drills/cards/zz_broken.toml: topic: missing" in r.stderr


def test_a_round_of_one_topic(deck_dir, learner_home):
    r = drill(deck_dir, learner_home, "--plain", "--count", "1", "--topic", "beta", stdin="q\n")
    assert r.returncode == 0 and r.stdout.startswith("Drill round: 1 card.")


# ---------------------------------------------------------------------------------- in process: time-outs


class SlowInput(io.StringIO):
    """Each answer arrives after ``delay`` seconds of the fake clock."""

    def __init__(self, text: str, clock: FakeClock, delay: float) -> None:
        super().__init__(text)
        self.clock, self.delay = clock, delay

    def readline(self, *args):  # type: ignore[override]
        self.clock.advance(self.delay)
        return super().readline(*args)


def test_a_late_answer_is_a_timeout(deck, store):
    clock, date = FakeClock(), FakeDate()
    scheduler = Scheduler(store, clock=date)
    cards = [deck.find("choice_one"), deck.find("text_hi")]
    out = io.StringIO()
    summary = run_plain(deck, cards, RoundOptions(seed=4), scheduler,
                        SlowInput(RIGHT("choice_one", 4) + "\nhi there\n", clock, 45), out, clock)
    text = out.getvalue()
    assert "✓ Right (45 s)." in text  # 45 s of 60
    assert "⏱ Time's up: the answer is hi there" in text  # 45 s of 30
    assert (summary.right, summary.timeouts) == (1, 1)
    assert scheduler.state("text_hi").last_result == "timeout"


def test_the_round_budget_in_plain_mode(deck, store):
    clock = FakeClock()
    cards = [deck.find(i) for i in ("choice_one", "count_two", "tf_false")]
    out = io.StringIO()
    summary = run_plain(deck, cards, RoundOptions(minutes=1), None, SlowInput("2\n2\nf\n", clock, 40), out, clock)
    assert summary.ended_by == "budget" and summary.asked == 2 and summary.timeouts == 1
    assert "the round's time ran out" in out.getvalue()


def test_add_drill_parser_fits_the_cli(deck_dir, learner_home, monkeypatch, capsys):
    """What cli.py will do: register `drill` on its own subparsers, then dispatch to args.func."""
    from jittrainer import cli
    from jittrainer.cli.drill import add_drill_parser

    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    if "drill" not in sub.choices:
        add_drill_parser(sub)
    args = parser.parse_args(["--exercises", str(deck_dir.parent), "drill", "--plain", "--count", "1",
                              "--topic", "beta", "--seed", "4"])
    monkeypatch.setattr(sys, "stdin", io.StringIO("?\n"))
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("Drill round: 1 card.") and "Score 0/1" in out
    with pytest.raises(SystemExit) as exc:
        parser.parse_args(["drill", "--minutes", "-1"])
    assert exc.value.code == 2
