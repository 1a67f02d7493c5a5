"""The graded calls of one counting window: what each returned, printed or raised, and what JAX compiled."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from jittrainer.grading.sandbox import learner_errors
from jittrainer.grading.sandbox.compile_watch import CountingWindow
from jittrainer.grading.verdict import CacheMiss, ErrorInfo
from jittrainer.i18n.message import Msg, msg


@dataclass
class CallRecord:
    index: int  # 1-based
    args: tuple
    result: Any = None
    output: str = ""
    error: ErrorInfo | None = None
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)  # "UserWarning: Some donated buffers were not usable: …"
    # The arguments as host copies, taken before the call (the first call's only): a program that donates its
    # inputs deletes them, and the timing phase re-runs the first call with fresh copies.
    host_args: tuple | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class GradedCalls:
    """The graded calls of one counting window, in order. Stops at the first call that raised."""

    name: str
    planned: int
    fn: Callable | None = None
    records: list[CallRecord] = field(default_factory=list)
    window: CountingWindow = field(default_factory=CountingWindow)
    params: Sequence[str] = ()
    seconds: float = 0.0
    _explained: tuple[tuple[int, int, int], list[CacheMiss]] | None = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        return len(self.records) == self.planned and all(r.ok for r in self.records)

    @property
    def failed(self) -> CallRecord | None:
        return next((r for r in self.records if not r.ok), None)

    @property
    def results(self) -> list[Any]:
        return [r.result for r in self.records if r.ok]

    @property
    def outputs(self) -> list[str]:
        return [r.output for r in self.records]

    @property
    def warnings(self) -> list[str]:
        """Every warning the calls raised, in order ("Category: first line of the message")."""
        return [w for r in self.records for w in r.warnings]

    @property
    def compiles(self) -> int:
        """Backend compiles during the calls, plus ahead-of-time compiles made earlier and used by them."""
        return self.window.compiles

    @property
    def traces(self) -> int:
        return self.window.traces

    def compiles_in_call(self, call: int) -> int:
        return self.window.compiles_in_call(call)

    def reasons(self) -> list[CacheMiss]:
        """One entry per compile, explained. Worked out once: checks ask for it many times."""
        window = self.window
        seen = (len(window.events), len(window.misses), len(window.aot))
        if self._explained is None or self._explained[0] != seen:
            function = getattr(inspect.unwrap(self.fn), "__name__", "") if self.fn is not None else ""
            self._explained = (seen, window.explained(self.params, function))
        return list(self._explained[1])

    @property
    def miss_kinds(self) -> set[str]:
        """Why the calls compiled: "first", "static", "new_function", "jax_internal", … (see cachemiss.kind)."""
        return {m.kind for m in self.reasons()}

    @property
    def eager_compiles(self) -> list[str]:
        """JAX's own operations compiled during the calls because jax.numpy ran eagerly (each name once)."""
        return list(dict.fromkeys(m.function for m in self.reasons() if m.kind == "jax_internal"))

    def learner_reasons(self, jitted_names: set[str]) -> list[CacheMiss]:
        """The compiles of functions the learner's code jitted (``jit_spy.jitted_names``): JAX's own eager
        operations left out."""
        return [m for m in self.reasons() if m.kind != "jax_internal" or m.function in jitted_names]

    def why_compiled(self, limit: int = 3) -> Msg:
        """'call 2: static argument rows changed from 3 to 4, call 3: …' for failure messages."""
        reasons = self.reasons()
        misses = [m for m in reasons if m.call and m.call > 1] or reasons
        items: list[Any] = [msg("calls.why_item", "call {call}: {reason}", call=m.call or 0, reason=m.reason)
                            for m in misses[:limit]]
        if len(misses) > limit:
            items.append(msg("calls.more", "{n} more", n=len(misses) - limit))
        return msg("calls.why", "{items}", items=items)

    def error_message(self) -> Msg | None:
        """'normalize raised IndexError on call 1 (line 7): Slice entries must be static integers…'"""
        record = self.failed
        if record is None:
            return None
        err = record.error
        assert err is not None
        text = learner_errors.headline(err, join_dangling=True)
        common = {"function": self.name, "call": record.index, "type": err.type, "text": text}
        if learner_errors.out_of_memory(err):
            if err.line:
                return msg("calls.memory_line", "memory limit exceeded during call {call} of {function}, line {line} "
                           "({type}: {text})", line=err.line, **common)
            return msg("calls.memory", "memory limit exceeded during call {call} of {function} ({type}: {text})",
                       **common)
        if err.type == "EOFError":
            if err.line:
                return msg("calls.input_line", "{function} raised EOFError on call {call}, line {line}: {text} — "
                           "input() cannot read anything while grading: stdin is closed", line=err.line, **common)
            return msg("calls.input", "{function} raised EOFError on call {call}: {text} — input() cannot read "
                       "anything while grading: stdin is closed", **common)
        if err.line:
            return msg("calls.raised_line", "{function} raised {type} on call {call}, line {line}: {text}",
                       line=err.line, **common)
        return msg("calls.raised", "{function} raised {type} on call {call}: {text}", **common)
