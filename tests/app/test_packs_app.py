"""A pack in the app: the exercise list groups by pack, and a pack's exercise opens with its own draft."""

from __future__ import annotations

from apphelpers import REPO, make_app, screen, wait_until
from textual.widgets import OptionList

from jittrainer import paths

EXAMPLE = REPO / "packs" / "vmap_under_jit"


def headings(option_list: OptionList) -> list[str]:
    return [option_list.get_option_at_index(i).prompt.plain for i in range(option_list.option_count)
            if option_list.get_option_at_index(i).disabled]


async def test_the_example_pack_loads_grouped_under_its_own_heading():
    app = make_app(packs=[EXAMPLE])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        option_list = s.sidebar.query_one(OptionList)
        heads = headings(option_list)
        assert heads[0] == "━ The course" and "━ vmap under jit" in heads
        assert heads[heads.index("━ vmap under jit") + 1] == "Vectorizing with vmap"
        key = "vmap_under_jit:normalize_rows"
        assert option_list.get_option(key).prompt.plain.startswith("○ 01 One pot for the")
        s.open_exercise(key)
        await wait_until(pilot, lambda: s.current is not None and s.current.id == key, what="the pack's exercise")
        draft = paths.workspace_dir() / "vmap_under_jit" / "normalize_rows.py"
        assert s.editor.text == draft.read_text() == (EXAMPLE / "01_normalize_rows" / "starter.py").read_text()
        assert s.editor.border_title.endswith("workspace/vmap_under_jit/normalize_rows.py")
        assert "vmap" in s.panel.markdown_source("task")


async def test_the_pack_heading_follows_the_language():
    app = make_app(packs=[EXAMPLE], lang="zh")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        heads = headings(screen(app).sidebar.query_one(OptionList))
        assert "━ jit 之下的 vmap" in heads and "用 vmap 向量化" in heads


async def test_a_missing_configured_pack_is_a_notice(learner_home):
    from apphelpers import notifications

    learner_home.mkdir(parents=True, exist_ok=True)
    paths.config_path().write_text('[course]\npacks = ["no_such_pack"]\n')
    app = make_app()
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: any("no_such_pack" in n for n in notifications(app)), what="the notice")
        assert "━" not in "".join(headings(screen(app).sidebar.query_one(OptionList)))
