"""Levels, --difficulty, JAX version ranges, the interview's spread, the Anki export, and the drill's words in zh."""

from __future__ import annotations

import io
import json
import re
import sqlite3
import subprocess
import sys
import textwrap
import zipfile

import pytest
from drillkit import CARDS, DRILLS, write_deck

from jittrainer.cli.drill import run_plain
from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.model import KINDS, LEVELS
from jittrainer.course.drills.proofs import prove_cards
from jittrainer.course.drills.round import RoundOptions, not_applying, plan_round
from jittrainer.course.versions import in_range, installed_jax


def _leveled(tmp_path, levels: dict[str, str], jax: dict[str, str] | None = None):
    cards = {}
    for name, text in CARDS.items():
        text = textwrap.dedent(text)
        text = text.replace('kind = "', f'level = "{levels.get(name, "medium")}"\nkind = "', 1)
        if jax and name in jax:
            text = text.replace('kind = "', f'jax = "{jax[name]}"\nkind = "', 1)
        cards[name] = text
    return write_deck(tmp_path / "drills", cards)


def drill(deck_dir, home, *args, stdin="", lang="en"):
    cmd = [sys.executable, "-m", "jittrainer", "--lang", lang, "drill", "--drills", str(deck_dir), *args]
    env = {"JITTRAINER_HOME": str(home), "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env, timeout=60)


# ------------------------------------------------------------------------------------------------- levels


def test_difficulty_picks_only_that_level(tmp_path, scheduler):
    deck = load_drills(_leveled(tmp_path, {"choice_one": "hard", "tf_false": "hard", "count_two": "easy"}))
    assert {c.level for c in deck.cards} == {"hard", "easy", "medium"}
    picked = plan_round(deck, RoundOptions(difficulty="hard"), scheduler)
    assert {c.id for c in picked} == {"choice_one", "tf_false"}
    with pytest.raises(KeyError, match="no difficulty called 'expert'"):
        plan_round(deck, RoundOptions(difficulty="expert"), scheduler)


def test_the_plain_round_shows_the_level_and_takes_difficulty(tmp_path, learner_home):
    deck_dir = _leveled(tmp_path, {"count_two": "hard"})
    r = drill(deck_dir, learner_home, "--plain", "--difficulty", "hard", "--seed", "1", stdin="q\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Drill round: 1 card.") and "── Card 1/1 · alpha topic · count the printed lines · hard · " \
        in r.stdout
    r = drill(deck_dir, learner_home, "--plain", "--difficulty", "expert")
    assert r.returncode == 2 and "--difficulty" in r.stderr
    r = drill(deck_dir, learner_home, "--plain", "--difficulty", "hard", "--seed", "1", stdin="q\n", lang="zh")
    assert "· 困难 ·" in r.stdout
    r = drill(deck_dir, learner_home, "--topics")
    assert "Difficulty: medium 3 · hard 1 (--difficulty picks one)" in r.stdout


def test_the_bundled_levels_have_words_in_both_languages():
    from jittrainer.i18n import has_translation

    for word in LEVELS.values():
        assert has_translation(word, "zh")


# ---------------------------------------------------------------------------------------------- versions


def test_a_card_applies_to_the_releases_its_range_names(deck):
    card = deck.find("choice_one")
    assert card.applies("0.10.2")  # no range: every release
    card.jax = ">=0.9.1,<0.13"
    assert card.applies("0.10.2") and card.applies("0.12.0.1") and not card.applies("0.9.0")
    assert not card.applies("0.13.0") and card.applies("")  # an unknown JAX: not hidden


def test_a_card_outside_its_range_is_not_drawn_nor_proved(tmp_path, scheduler):
    deck = load_drills(_leveled(tmp_path, {}, jax={"choice_one": ">=99", "count_two": f"<={installed_jax()}"}))
    assert [c.id for c in not_applying(deck)] == ["choice_one"]
    assert "choice_one" not in {c.id for c in plan_round(deck, RoundOptions(), scheduler)}
    assert "count_two" in {c.id for c in plan_round(deck, RoundOptions(), scheduler)}

    def must_not_run(card):
        raise AssertionError(f"{card.id} does not apply here, so it must not be run")

    lines = []
    results = prove_cards([deck.find("choice_one")], run_task=must_not_run, on_result=lambda line, ok: lines.append(ok))
    assert results[0].ok and results[0].skipped and lines == [True]


def test_the_learner_is_told_when_a_card_does_not_apply(tmp_path, learner_home):
    deck_dir = _leveled(tmp_path, {}, jax={"choice_one": ">=99"})
    r = drill(deck_dir, learner_home, "--plain", "--count", "1", stdin="q\n")
    assert r.returncode == 0
    assert f"1 card does not apply to your JAX {installed_jax()} and is left out: choice_one (jax >=99)" in r.stderr


def test_the_bundled_version_ranges_hold_here():
    deck = load_drills(DRILLS)
    pinned = {c.id: c.jax for c in deck.available if c.jax}
    assert pinned["shard_map_unsharded_input"] == ">=0.9.1"
    assert "axis_types=(AxisType.Explicit,)" in deck.find("shard_map_unsharded_input").code
    # JAX 0.12.1 hoists a large captured constant out of the program: the card about it is split by version.
    split = {"closed_over_array_embedded": "<0.12.1", "closed_over_array_hoisted": ">=0.12.1"}
    assert {card: pinned[card] for card in split} == split
    here = "closed_over_array_hoisted" if in_range(installed_jax(), ">=0.12.1") else "closed_over_array_embedded"
    assert [c.id for c in deck.available if not c.applies()] == [card for card in split if card != here], \
        "on the installed JAX, every card applies but the split card's other half"


# --------------------------------------------------------------------------------------------- interview


def test_the_interview_draws_a_spread_easy_first(tmp_path):
    from jittrainer.course.interview import spread

    deck = load_drills(DRILLS)
    ranked = list(deck.available)
    chosen = spread(ranked, 10)
    levels = [c.level for c in chosen]
    assert len(chosen) == 10 and set(levels) == set(LEVELS)
    order = list(LEVELS)
    assert levels == sorted(levels, key=order.index), "harder cards come later"
    assert levels.count("hard") >= 3
    only_easy = [c for c in ranked if c.level == "easy"][:4] + [c for c in ranked if c.level == "hard"][:1]
    assert len(spread(only_easy, 5)) == 5  # a level with too few cards: the others fill in


# ------------------------------------------------------------------------------------------------- anki


def _anki(path):
    with zipfile.ZipFile(path) as z:
        assert "collection.anki2" in z.namelist()
        data = z.read("collection.anki2")
    db = path.with_suffix(".anki2")
    db.write_bytes(data)
    con = sqlite3.connect(db)
    try:
        notes = con.execute("select guid, mid, flds, tags from notes").fetchall()
        models = json.loads(con.execute("select models from col").fetchone()[0])
        decks = json.loads(con.execute("select decks from col").fetchone()[0])
        reviews = con.execute("select count(*) from revlog").fetchone()[0]
    finally:
        con.close()
    return notes, models, decks, reviews


def test_anki_export_reads_back(tmp_path, learner_home):
    first, again = tmp_path / "a.apkg", tmp_path / "b.apkg"
    r = drill(DRILLS, learner_home, "--anki", str(first))
    assert r.returncode == 0, r.stderr
    assert "FSRS state" in r.stdout and "is not exported" in r.stdout
    assert drill(DRILLS, learner_home, "--anki", str(again)).returncode == 0
    notes, models, decks, reviews = _anki(first)
    deck = load_drills(DRILLS)
    assert len(notes) == len(deck.available) and reviews == 0  # the cards, not the learner's schedule
    by_id = {n[2].split("\x1f")[0]: n for n in notes}
    assert set(by_id) == {c.id for c in deck.available}
    assert {m["name"] for m in models.values()} == {f"jittrainer {kind} (en)" for kind in KINDS}
    kinds = {mid: m["name"].split()[1] for mid, m in models.items()}
    for card in deck.available:
        guid, mid, fields, tags = by_id[card.id]
        assert kinds[str(mid)] == card.kind and card.level in tags.split()
    card = deck.find("grad_needs_scalar_output")
    fields = by_id[card.id][2].split("\x1f")
    assert fields[1] == card.question and "It raises TypeError" in fields[3] and fields[4].startswith("3) ")
    # A second export: the same ids, so importing it updates these notes instead of adding new ones.
    notes2, models2, decks2, _ = _anki(again)
    assert sorted(n[0] for n in notes2) == sorted(n[0] for n in notes)
    assert set(models2) == set(models) and set(decks2) == set(decks)
    zh = tmp_path / "zh.apkg"
    assert drill(DRILLS, learner_home, "--anki", str(zh), "--difficulty", "hard", lang="zh").returncode == 0
    notes_zh, models_zh, _, _ = _anki(zh)
    assert len(notes_zh) == sum(c.level == "hard" for c in deck.available)
    hard_kinds = {c.kind for c in deck.available if c.level == "hard"}  # genanki writes the note types it uses
    assert {m["name"] for m in models_zh.values()} == {f"jittrainer {kind} (zh)" for kind in hard_kinds}
    assert not {n[0] for n in notes_zh} & {n[0] for n in notes}
    assert all(re.search("[\u4e00-\u9fff]", n[2].split("\x1f")[1]) for n in notes_zh)  # questions in Chinese


# -------------------------------------------------------------------------------------------------- words


def test_durations_and_the_round_header_in_chinese(deck, monkeypatch):
    from jittrainer.i18n import set_language
    from jittrainer.units import duration

    set_language("zh")
    try:
        assert duration(75) == "1 分 15 秒" and duration(4) == "4 秒" and duration(120) == "2 分"
        out = io.StringIO()
        run_plain(deck, [deck.find("count_two")], RoundOptions(minutes=1, seed=1), None, io.StringIO("q\n"), out)
        head = out.getvalue().splitlines()[0]
        assert "共 1 分" in head and ". " not in head and "。" in head
    finally:
        set_language("en")
    assert duration(75) == "1 min 15 s"
