"""An exercise's declared check ids, read from its ``checks.py`` without running it (the host imports no jax).

``CHECKS`` is a dict display whose keys are string literals (``CHECKS = {"runs": "...", ...}``), assigned once, so
the ``ast`` module reads the ids (``validate`` says so when it cannot). The host uses them to refuse a "pass" that does not report exactly these checks.
"""

from __future__ import annotations

import ast
import functools
import os
import threading
from pathlib import Path

# ast.parse is not thread-safe on every Python we support: CPython 3.11 keeps the AST constructor's recursion depth
# per interpreter, and two parses at once fail with "SystemError: AST constructor recursion depth mismatch". The runs
# of a two-device-count grading read the same checks.py at the same moment.
_PARSE_LOCK = threading.Lock()


def declared_checks(checks_path: str | Path) -> tuple[str, ...]:
    """The ids of ``CHECKS`` in declaration order; () when the file cannot be read that way."""
    try:
        stat = os.stat(checks_path)
    except OSError:
        return ()
    return _read(str(checks_path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=128)
def _read(path: str, _mtime: int, _size: int) -> tuple[str, ...]:
    try:
        source = Path(path).read_bytes()
        with _PARSE_LOCK:
            tree = ast.parse(source, path)
    except (OSError, SyntaxError, ValueError):
        return ()
    found: list[ast.expr | None] = []
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "CHECKS" for t in targets):
                found.append(node.value)
    # One assignment only: a second one (CHECKS = dict(CHECKS), CHECKS |= ...) could change the ids unseen.
    if len(found) != 1 or not isinstance(found[0], ast.Dict):
        return ()
    keys = found[0].keys
    if all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in keys):
        return tuple(k.value for k in keys)  # type: ignore[union-attr]
    return ()
