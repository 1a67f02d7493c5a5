"""The grader's own record of each jitted function's cache keys, for the cache misses JAX no longer explains.

JAX 0.12 answers "cache miss explanation unavailable" when only a static argument changed (0.10 named it). The jit
spy sees every call of a learner's jitted function with the options it was made with, so it can say what changed
against the closest earlier call: a static value, the argument structure, or an argument's type. The words are the
same messages JAX's own explanation becomes (``cachemiss.py``), so a learner reads the same on every version.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import jax

from jittrainer.grading.sandbox import jax_compat
from jittrainer.grading.sandbox.cachemiss import KeyChange

VALUE_LIMIT = 60  # characters of a static value's repr kept in a message
_OBJECT_REPR = re.compile(r"^<[\w.]+ object at 0x[0-9a-fA-F]+>$")


@dataclass(frozen=True)
class StaticSpec:
    """Which arguments of one jitted function are static, as JAX resolves ``static_argnums``/``static_argnames``
    against the function's signature (either one implies the other for a positional-or-keyword parameter)."""

    argnums: tuple[int, ...] = ()
    argnames: tuple[str, ...] = ()
    params: tuple[str, ...] = ()  # positional parameter names, for labels

    @classmethod
    def of(cls, fun: Callable[..., Any], options: dict[str, Any]) -> StaticSpec:
        nums = _as_tuple(options.get("static_argnums"))
        names = _as_tuple(options.get("static_argnames"))
        try:
            signature = inspect.signature(fun)
        except (TypeError, ValueError):
            return cls(tuple(int(n) for n in nums), tuple(str(n) for n in names))
        positional = [p.name for p in signature.parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        either = [p.name for p in signature.parameters.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
        if nums and not names:
            names = tuple(positional[n] for n in nums if -len(positional) <= n < len(positional)
                          and positional[n] in either)
        elif names and not nums:
            nums = tuple(i for i, name in enumerate(positional) if name in names and name in either)
        return cls(tuple(int(n) for n in nums), tuple(str(n) for n in names), tuple(positional))

    def split(self, args: tuple, kwargs: dict) -> tuple[list[tuple[str, str, Any]], list[tuple[str, str, Any]]]:
        """(static, dynamic) arguments of one call, each as (JAX's input path, label, value)."""
        # A negative number counts from the end of the call's positional arguments; one past them (the argument
        # was passed by keyword) is static through its name.
        static_pos = {n + len(args) if n < 0 else n for n in self.argnums}
        static, dynamic = [], []
        for i, value in enumerate(args):
            label = self.params[i] if i < len(self.params) else f"#{i + 1}"
            (static if i in static_pos else dynamic).append((f"[0][{i}]", label, value))
        for name, value in kwargs.items():
            (static if name in self.argnames else dynamic).append((f"[1][{name!r}]", name, value))
        return static, dynamic


def _as_tuple(value: Any) -> tuple:
    if value is None:
        return ()
    if isinstance(value, (int, str)):
        return (value,)
    return tuple(value)


@dataclass(frozen=True)
class CallKey:
    """What one call contributes to the tracing cache key, in comparable form."""

    statics: tuple[tuple[str, Any], ...]  # (path, value): compared with ==, as JAX's cache does
    structures: tuple[tuple[str, str], ...]  # (path, tree structure) of each dynamic argument
    types: tuple[tuple[str, str, bool], ...]  # (label, short type, weakly typed) of each dynamic leaf

    @classmethod
    def of(cls, spec: StaticSpec, args: tuple, kwargs: dict) -> CallKey:
        static, dynamic = spec.split(args, kwargs)
        structures, types = [], []
        for path, label, value in dynamic:
            leaves, tree = jax.tree_util.tree_flatten_with_path(value)
            structures.append((path, str(tree)))
            for key_path, leaf in leaves:
                text, weak = jax_compat.short_type(leaf)
                types.append((label + jax.tree_util.keystr(key_path), text, weak))
        return cls(tuple((path, value) for path, _, value in static), tuple(structures), tuple(types))

    def changes_since(self, before: CallKey) -> list[KeyChange]:
        """What differs from an earlier key, the way JAX's explanation orders it: statics, structure, types."""
        out = [KeyChange("static", path, value_text(old), value_text(new))
               for (path, new), (_, old) in zip(self.statics, before.statics) if not _same(new, old)]
        if out or len(self.statics) != len(before.statics):
            return out
        out = [KeyChange("structure", path, old, new)
               for (path, new), (_, old) in zip(self.structures, before.structures) if new != old]
        if out or len(self.structures) != len(before.structures):
            return out
        for (label, new, new_weak), (_, old, old_weak) in zip(self.types, before.types):
            if new != old:
                out.append(KeyChange("type", label, old, new))
            elif new_weak != old_weak:
                out.append(KeyChange("type", label, f"{old}{{weak_type={old_weak}}}", f"{new}{{weak_type={new_weak}}}"))
        return out


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(type(a) is type(b) and (a is b or a == b))
    except Exception:
        return a is b


def value_text(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:
        text = ""
    if not text or _OBJECT_REPR.match(text):
        return f"<{type(value).__name__}>"
    return text if len(text) <= VALUE_LIMIT else text[: VALUE_LIMIT - 1] + "…"


@dataclass
class _Seen:
    owner: object  # held, so that its id is not reused by a later jitted function while this log lives
    name: str
    spec: StaticSpec
    calls: list[tuple[tuple, dict]] = field(default_factory=list)  # every call's arguments, oldest first


class KeyLog:
    """Every spied jitted function's calls, and the calls in flight (a miss is logged during one). Keys are built
    only when a miss needs explaining: the graded calls' hot path just keeps references (the spy keeps the
    arguments anyway), and an argument's abstract type survives its buffer being donated."""

    def __init__(self) -> None:
        self._seen: dict[int, _Seen] = {}
        self._active: list[tuple[int, tuple, dict]] = []

    def enter(self, owner: object, name: str, spec: StaticSpec, args: tuple, kwargs: dict) -> None:
        self._active.append((id(owner), args, kwargs))
        self._seen.setdefault(id(owner), _Seen(owner, name, spec))

    def leave(self, owner: object) -> None:
        for i in range(len(self._active) - 1, -1, -1):
            owner_id, args, kwargs = self._active[i]
            if owner_id == id(owner):
                del self._active[i]
                self._seen[owner_id].calls.append((args, kwargs))
                return

    def names(self) -> set[str]:
        """The names of the spied jitted functions called so far (the learner's own: "step", "<lambda>")."""
        return {seen.name for seen in self._seen.values()}
    def holds_function(self, function_id: int) -> bool:
        """Whether a spied jitted function this log holds wraps the Python function with this id (JAX's "id=" in a
        cache miss): held, so the id is no collected function's."""
        return any(id(getattr(getattr(seen.owner, "_real", None), "_fun", None)) == function_id
                   for seen in self._seen.values())

    def changes_for(self, function: str | None) -> list[KeyChange]:
        """For the innermost call in flight of a function named ``function``: what changed against the closest
        earlier key of the same jitted function (fewest changes), or [] when nothing the spy sees differs."""
        for owner_id, args, kwargs in reversed(self._active):
            seen = self._seen.get(owner_id)
            if seen is None or (function and seen.name != function):
                continue
            try:
                key = CallKey.of(seen.spec, args, kwargs)
                earlier: list[CallKey] = []
                for old_args, old_kwargs in seen.calls:
                    old = CallKey.of(seen.spec, old_args, old_kwargs)
                    if not any(_equal_keys(old, k) for k in earlier):
                        earlier.append(old)
                if any(_equal_keys(key, old) for old in earlier):
                    # Nothing the spy sees differs from an earlier call, so the reason lies elsewhere (a config or
                    # context JAX keys on), unless a static object was changed in place.
                    return _mutated(key, earlier)
                candidates = [changes for old in earlier if (changes := key.changes_since(old))]
            except Exception:  # an argument JAX refuses anyway: nothing to compare
                return []
            # The closest key has the fewest changes; among equals JAX's own explainer picks the smallest text,
            # which for one changed value is the smallest earlier value's repr: the same words on every version.
            return min(candidates, key=lambda c: (len(c), [(x.where, x.before) for x in c])) if candidates else []
        return []


def _mutated(key: CallKey, earlier: list[CallKey]) -> list[KeyChange]:
    """JAX missed, yet every static argument is the very object an earlier call passed and nothing else changed:
    the object's hash or == changed since (its fields were reassigned), so JAX's cache saw a new value."""
    for old in earlier:
        if old.structures != key.structures or old.types != key.types:
            continue
        same = [(path, new) for (path, new), (_, was) in zip(key.statics, old.statics) if new is was]
        custom = [(path, v) for path, v in same if type(v).__hash__ is not object.__hash__] or same
        if custom:
            path, value = custom[0]
            return [KeyChange("static_mutated", path, value_text(value), value_text(value))]
    return []


def _equal_keys(a: CallKey, b: CallKey) -> bool:
    return (a.structures == b.structures and a.types == b.types and len(a.statics) == len(b.statics)
            and all(_same(x, y) for (_, x), (_, y) in zip(a.statics, b.statics)))
