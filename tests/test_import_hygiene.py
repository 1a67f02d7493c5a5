"""The UI and CLI processes never import jax; only the app imports Textual; nothing imports in a cycle."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "jittrainer"
CHECK = "import sys, {module}; bad = [m for m in {banned!r} if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)"


@pytest.mark.parametrize(
    ("module", "banned"),
    [
        ("jittrainer.cli", ["jax", "jaxlib", "textual"]),
        ("jittrainer.cli.check", ["jax", "jaxlib", "textual"]),
        ("jittrainer.cli.watch", ["jax", "jaxlib", "textual"]),
        ("jittrainer.cli.drill", ["jax", "jaxlib", "textual"]),
        ("jittrainer.session", ["jax", "textual"]),
        ("jittrainer.course.validate", ["jax", "textual"]),
        ("jittrainer.course.drills.proofs", ["jax", "textual"]),
        ("jittrainer.grading.host.pool", ["jax", "textual"]),
        ("jittrainer.grading.sandbox.cachemiss", ["jax", "textual"]),
        ("jittrainer.grading.sandbox.worker", ["jax", "textual"]),
        ("jittrainer.i18n.message", ["jax", "textual"]),
        ("jittrainer.authoring", ["textual"]),
        ("jittrainer.app", ["jax", "jaxlib"]),
        ("jittrainer.app.drill", ["jax", "jaxlib"]),
    ],
)
def test_module_imports_stay_clean(module, banned):
    r = subprocess.run([sys.executable, "-c", CHECK.format(module=module, banned=banned)], capture_output=True, text=True)
    assert r.returncode == 0, f"{module} imported {r.stdout.strip()} {r.stderr[-500:]}"


NO_BACKEND = """
import importlib, pkgutil, sys
import jittrainer.authoring
import jittrainer.grading.sandbox as sandbox
for info in pkgutil.walk_packages(sandbox.__path__, "jittrainer.grading.sandbox."):
    importlib.import_module(info.name)
from jax._src import xla_bridge
print(sorted(xla_bridge._backends))
sys.exit(1 if xla_bridge._backends else 0)
"""


def test_importing_the_sandbox_and_the_toolkit_starts_no_backend():
    """A process that forks grading jobs imports all of this first and must hold no backend (its threads, its
    device count) when it forks: every module of the sandbox and the toolkit, and the toolkit's own imports."""
    r = subprocess.run([sys.executable, "-c", NO_BACKEND], capture_output=True, text=True,
                       env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert r.returncode == 0, f"a backend was started at import: {r.stdout.strip()} {r.stderr[-800:]}"


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Modules ``path`` imports anywhere, inside functions too (a lazy import still makes a cycle, one that breaks at
    run time), except under ``if TYPE_CHECKING:``, which never runs."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def walk(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node.test):
            for child in node.orelse:
                walk(child)
            return
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        for child in ast.iter_child_nodes(node):
            walk(child)

    walk(tree)
    return {m for m in found if m.startswith("jittrainer")}


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def test_no_import_cycles():
    modules = {_module_name(p): p for p in SRC.rglob("*.py")}
    graph = {name: {m for m in _imports(path) if m in modules and m != name} for name, path in modules.items()}

    def visit(node, stack, seen):
        for nxt in graph[node]:
            if nxt in stack:
                cycle = stack[stack.index(nxt):] + [nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in seen:
                seen.add(nxt)
                visit(nxt, stack + [nxt], seen)

    for name in graph:
        visit(name, [name], {name})


def test_no_module_over_400_lines():
    long = {str(p.relative_to(SRC)): n for p in SRC.rglob("*.py") if (n := len(p.read_text().splitlines())) > 420}
    assert not long, long


def test_the_cycle_finder_sees_lazy_imports_and_skips_type_checking(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from jittrainer.a import A\n"
        "def f():\n    from jittrainer.b import B\n    return B\n"
    )
    assert _imports(module) == {"jittrainer.b", "jittrainer.b.B"}
