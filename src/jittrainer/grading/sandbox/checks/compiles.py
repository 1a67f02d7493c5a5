"""The "one compile" check: a surprise count explained the same way in every exercise.

``one_compile`` passes when the graded calls compiled exactly once. Otherwise it names the first cause that holds,
in the order the exercise lists them (a static argument, a new function per call, JAX's own operations run
eagerly, inside a host callback or not), and falls back to JAX's own reasons. Each cause has a default observation
here, in the package's catalog, and takes the exercise's own wording and advice instead. A message names the facts
it uses: ``{head}`` (the exercise's headline, itself given ``{calls}`` and ``{compiles}``), ``{why}`` (JAX's
reasons, call by call) and ``{names}`` (the eagerly compiled operations).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jittrainer.grading.sandbox.checks.calls import GradedCalls
from jittrainer.grading.sandbox.checks.jaxprs import CALLBACK_PRIMITIVES, primitive_names
from jittrainer.grading.sandbox.checks.wording import filled
from jittrainer.grading.verdict import CacheMiss
from jittrainer.i18n.message import Msg, count, msg

if TYPE_CHECKING:
    from jittrainer.grading.sandbox.checks.context import CheckContext


@dataclass(frozen=True)
class Cause:
    """One explanation of a surprise compile count: when it ``holds``, the check fails with ``observation`` and
    ``advice``, shown from hint ``tier``. The ``when_…`` functions make the usual ones; an exercise may write its
    own ``holds(g, calls)``."""

    holds: Callable[[CheckContext, GradedCalls], bool]
    observation: Msg
    advice: Msg | None = None
    tier: int | None = None


def _static(g: CheckContext, calls: GradedCalls) -> bool:
    return "static" in calls.miss_kinds


def _new_function(g: CheckContext, calls: GradedCalls) -> bool:
    return "new_function" in calls.miss_kinds


def _eager(g: CheckContext, calls: GradedCalls) -> bool:
    return bool(calls.eager_compiles)


def _eager_in_callback(g: CheckContext, calls: GradedCalls) -> bool:
    # A debug_print formats its values itself; any other callback hands the learner's Python jax.Arrays.
    return bool(calls.eager_compiles) and bool(primitive_names(g.graded_jaxpr()) & set(CALLBACK_PRIMITIVES)
                                                - {"debug_print"})


def _nothing(g: CheckContext, calls: GradedCalls) -> bool:
    return calls.compiles == 0


def when_static(observation: Msg | None = None, advice: Msg | None = None, *, tier: int | None = None) -> Cause:
    """A static argument took a new value: each value is part of the cache key."""
    return Cause(_static, observation or msg("compiles.static", "{head}: an argument is static, so each new value is "
                                             "baked into its own program and compiled again"), advice, tier)


def when_new_function(observation: Msg | None = None, advice: Msg | None = None, *, tier: int | None = None) -> Cause:
    """A new function (or a new jax.jit of one) on every call: a new function starts with an empty cache."""
    return Cause(_new_function, observation or msg("compiles.new_function", "{head}: a new function (or a new jax.jit) "
                                                   "was made on every call, so nothing compiled before could be "
                                                   "reused ({why})"), advice, tier)


def when_eager(observation: Msg | None = None, advice: Msg | None = None, *, tier: int | None = None) -> Cause:
    """jax.numpy run outside the compiled program compiles JAX's own operations, once per new shape."""
    return Cause(_eager, observation or msg("compiles.eager", "{head}: the extra compiles are {names}, JAX operations "
                                            "run eagerly outside the compiled program"), advice, tier)


def when_eager_in_callback(observation: Msg | None = None, advice: Msg | None = None, *,
                           tier: int | None = None) -> Cause:
    """Eager compiles while the program holds a host callback: NumPy or jax.numpy on the jax.Arrays it receives."""
    return Cause(_eager_in_callback, observation or msg(
        "compiles.callback_eager", "{head}: the extra compiles are {names}, JAX's own operations, run inside your "
        "callback: it receives jax.Arrays, and a NumPy or jax.numpy function applied to one runs eagerly, which "
        "compiles"), advice, tier)


def when_nothing(observation: Msg | None = None, advice: Msg | None = None, *, tier: int | None = None) -> Cause:
    """Nothing compiled during the graded calls (checked first, whether listed or not)."""
    return Cause(_nothing, observation or msg("compiles.none", "{head}: nothing was compiled during the graded calls"),
                 advice, tier)


def one_compile(g: CheckContext, calls: GradedCalls, head: Msg, ok: Msg | None = None, causes: Sequence[Cause] = (),
                *, check: str = "one_compile", advice: Msg | None = None, tier: int | None = None,
                at_most: int | None = None) -> bool:
    """Pass ``check`` when ``calls`` compiled once, or ``at_most`` times or fewer when given (``ok`` says so); else
    fail it with the first of ``causes`` that holds, or with JAX's reasons and ``advice``. ``head`` starts every
    observation."""
    n = calls.compiles
    if n == 1 or (at_most is not None and n <= at_most):
        return g.passed(check, ok or msg("compiles.ok", "compiled once, then reused"))
    head = filled(head, {"calls": lambda: count("call", calls.planned), "compiles": lambda: count("compile", n)})
    facts: dict[str, Any] = {"head": head, "why": calls.why_compiled, "names": lambda: calls.eager_compiles}
    if not any(c.holds is _nothing for c in causes):
        causes = [when_nothing(), *causes]
    cause = next((c for c in causes if c.holds(g, calls)), None)
    if cause is None:
        return g.failed(check, filled(msg("compiles.why", "{head} ({why})"), facts), advice, tier=tier)
    return g.failed(check, filled(cause.observation, facts), cause.advice, tier=cause.tier)


def repeat_that_compiled(calls: GradedCalls, keys: Sequence[Any]) -> tuple[int, int, Msg] | None:
    """The first graded call whose key (``keys[i]`` for call i + 1: a static value, a step count) an earlier call
    had already had, yet compiled again: (call, that earlier call, JAX's reason)."""
    seen: dict[Any, int] = {}
    for call, key in enumerate(keys, 1):
        if key in seen and calls.compiles_in_call(call):
            why = [m for m in calls.reasons() if m.call == call]
            return call, seen[key], why[0].reason if why else calls.why_compiled()
        seen.setdefault(key, call)
    return None


def later_misses(misses: Sequence[CacheMiss]) -> list[CacheMiss]:
    """The compiles after the first call (or, when all came in call 1, after the first one): the surprising ones."""
    return [m for m in misses if (m.call or 0) > 1] or list(misses[1:])


def reason_items(misses: Sequence[CacheMiss], limit: int = 3) -> list[Msg]:
    """"call 3: static argument lr changed from …", one item per compile, at most ``limit``."""
    return [msg("compiles.item", "call {call}: {reason}", call=m.call or 0, reason=m.reason) for m in misses[:limit]]


def bare_name(function: str) -> str:
    """"mean" for JAX's "jit(mean)"."""
    return function[4:-1] if function.startswith("jit(") and function.endswith(")") else function


def eager_failed(g: CheckContext, check: str, head: Msg, calls: GradedCalls, *, tier: int | None = 1) -> bool:
    """Fail ``check`` (and return True) when compiles of JAX's own operations run eagerly, outside the learner's
    jitted code, are what takes the count past one: the course counts every backend compile in the graded window,
    these too. When the learner's own code compiled more than once, that is the headline, not these: False. (A
    backward pass compiled from a trace already counted, under an eager jax.grad, is part of the eager work.)"""
    own = [m for m in calls.learner_reasons(g.jit_spy.jitted_names) if m.kind != "derived"]
    if not calls.eager_compiles or len(own) > 1:
        return False
    g.failed(check, filled(when_eager().observation, {"head": head, "names": calls.eager_compiles}),
             msg("advice.numpy", "build and convert arrays with NumPy on the host (np.stack, np.float32), or inside "
                 "the jitted function: a jax.numpy call outside jit compiles a program of its own"), tier=tier)
    return True


# What a compile of one of JAX's own functions most likely came from: an eager jax.numpy call outside jit.
EAGER_SOURCES = {
    "stage": "jnp.asarray / jnp.array",
    "_pad": "jnp.pad",
    "pad": "jnp.pad",
    "broadcast_in_dim": "jnp.zeros / jnp.ones / jnp.full",
    "iota": "jnp.arange",
    "stack": "jnp.stack",
    "concatenate": "jnp.concatenate",
    "scatter": "x.at[...].set",
    "dynamic_update_slice": "x.at[...].set",
    "convert_element_type": ".astype",
    "_where": "jnp.where",
    "_mean": "jnp.mean",
    "nanmean": "jnp.nanmean",
    "_reduce_sum": "jnp.sum",
    "_squeeze": "indexing a jax array",
    "squeeze": "indexing a jax array",
    "dynamic_slice": "indexing a jax array",
    "unstack": "a loop over a jax array",
}


def eager_source(function: str) -> str:
    """The jax.numpy call an eager compile of ``function`` ("jit(_pad)") most likely came from ("jnp.pad"), else
    its bare name."""
    return EAGER_SOURCES.get(bare_name(function), bare_name(function))


@dataclass
class CompileSplit:
    """The graded calls' compiles by function: ``own`` (the learner's jitted functions) and ``eager`` (JAX's own
    operations run outside jit), each function -> how many times it compiled."""

    own: dict[str, int]
    eager: dict[str, int]

    @property
    def eager_first(self) -> bool:
        """The eager compiles explain the count: there are some, and no own function compiled more often."""
        top = max(self.own.values(), default=0)
        return bool(self.eager) and (top <= 1 or sum(self.eager.values()) >= top)

    @property
    def top(self) -> str | None:
        """The own function that compiled most often (the first of a tie)."""
        return max(self.own.items(), key=lambda kv: kv[1])[0] if self.own else None

    def eager_names(self, name: Callable[[str], str] = bare_name, limit: int = 3) -> list[str]:
        """The eagerly compiled operations, the most compiled first, each named once by ``name``."""
        order = sorted(self.eager, key=lambda f: self.eager[f], reverse=True)
        return list(dict.fromkeys(name(f) for f in order))[:limit]


def split_compiles(misses: Sequence[CacheMiss], own: Callable[[str], bool]) -> CompileSplit:
    """The compiles of ``misses`` split by whether ``own(function)`` says the function is the learner's::

        split = split_compiles(calls.reasons(), lambda f: f in g.jit_spy.jitted_names)
        if split.eager_first: … names=split.eager_names(eager_source)"""
    counts: dict[str, int] = {}
    for miss in misses:
        counts[miss.function] = counts.get(miss.function, 0) + 1
    mine = {f: n for f, n in counts.items() if own(f)}
    return CompileSplit(mine, {f: n for f, n in counts.items() if f not in mine})
