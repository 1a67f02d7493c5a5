"""A starter's example block: the ``if __name__ == "__main__":`` statement at the end of every starter, which the
scratch run (F6, ``jittrainer run``) runs and grading never does. ``validate`` asks for it; the Why tab leaves it
out of the diff against the reference."""

from __future__ import annotations

import ast


def _is_main_block(node: ast.stmt) -> bool:
    test = getattr(node, "test", None)
    return (isinstance(node, ast.If) and isinstance(test, ast.Compare) and isinstance(test.left, ast.Name)
            and test.left.id == "__name__" and len(test.comparators) == 1
            and getattr(test.comparators[0], "value", None) == "__main__")


def example_block_lines(source: str) -> range | None:
    """The 0-based line numbers of the file's top-level ``if __name__ == "__main__":`` statement, or None (none, or
    the file does not parse)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in tree.body:
        if _is_main_block(node):
            return range(node.lineno - 1, node.end_lineno or node.lineno)
    return None
