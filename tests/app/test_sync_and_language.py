"""The app and the other faces share one progress file; the app speaks the learner's language, and switches live."""

from __future__ import annotations

import subprocess
import sys
import tomllib

from apphelpers import make_app, screen, wait_until
from textual.widgets import Label, Markdown, Tab

from jittrainer import paths

RECORD_PASS = "import sys; from jittrainer.session.progress import ProgressStore; " \
              "ProgressStore().record_attempt(sys.argv[1], 'pass')"


async def test_a_pass_recorded_by_another_process_shows_in_the_app():
    # The real poll interval (1 s), not the tests' quick one: what a learner with `jittrainer watch` beside sees.
    app = make_app(disk_poll_interval=1.0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        ex = s.current
        assert s.statuses[ex.id] == "new"
        label = s.sidebar.query_one("#progress-label", Label)
        assert str(label.render()).startswith("0 of ")
        subprocess.run([sys.executable, "-c", RECORD_PASS, ex.id], check=True)
        await wait_until(pilot, lambda: s.statuses[ex.id] == "passed", 10, "the pass from the other process")
        await pilot.pause()
        assert str(label.render()).startswith("1 of ")
        assert "✔" in str(s.sidebar.query_one("OptionList").get_option(ex.id).prompt)


async def test_switching_to_chinese_changes_the_screen_and_is_remembered():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        ex = s.current
        assert ex.translated("statement", "zh"), "the first exercise ships a Chinese edition"
        app.switch_language("zh")
        await pilot.pause()
        run = next(b.binding for b in s.active_bindings.values() if b.binding.id == "run")
        assert run.description == "运行"
        tabs = [str(tab.label) for tab in s.panel.query(Tab)]
        assert tabs[0].startswith("题目") and any(t.startswith("提示") for t in tabs)
        statement = s.panel.markdown_source("task")
        assert statement == ex.statement("zh") and statement != ex.statement("en")
        assert "练习" in s.sidebar.border_title
        config = tomllib.loads(paths.config_path().read_text())
        assert config["app"]["language"] == "zh"
        app.switch_language("en")
        await pilot.pause()
        run = next(b.binding for b in s.active_bindings.values() if b.binding.id == "run")
        assert run.description == "Run"
