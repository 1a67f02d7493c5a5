"""Every JAX behaviour the grader relies on that JAX does not document as stable, behind one seam (this package:
this module, and ``runtime`` for the hooks on a running job, whose names are re-exported here).

Each name here is either public API chosen on purpose or an internal detail we could not avoid, with the JAX
versions it was checked on (the tested span is ``jittrainer.course.versions.TESTED_JAX``). When a release moves
one of them, this module changes and nothing else: ``tests/test_jax_compat.py`` runs on every tested version and
fails here first. The cache-miss log text is the one other version-dependent input; its patterns live in
``cachemiss.py`` (pure Python, no jax) and the same test checks them against the installed JAX.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jax
import jax.extend.core as _core
import jax.extend.source_info_util as _source_info

# jax.extend.core is JAX's public home for the jaxpr types (jax.core lost them in 0.4.36; checked on 0.10, 0.12).
ClosedJaxpr = _core.ClosedJaxpr
Jaxpr = _core.Jaxpr
Literal = _core.Literal
Var = _core.Var

# jax.monitoring's event names for one trace to a jaxpr and one backend compile. The names are not documented;
# they have been stable since 0.4.x (checked on 0.10, 0.12).
BACKEND_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"
TRACE_EVENT = "/jax/core/compile/jaxpr_trace_duration"

# What jax.jit returns, and what lower().compile() returns. jax.stages.Wrapped is a runtime-checkable Protocol,
# so any object with .lower and .trace attributes would pass for jitted; the concrete types cannot be faked.
JITTED_TYPE = type(jax.jit(lambda: None))
COMPILED_TYPE = jax.stages.Compiled

# jax's own concrete array type, read without touching a backend: ``type(jnp.zeros(()))`` would start the CPU
# client (17 threads, two Eigen pools) in whatever imports the toolkit, and a process that forks jobs must have
# none. ``jax._src.array.ArrayImpl`` is internal (checked on 0.10, 0.12); tests/test_jax_compat.py pins it against
# the type of a real array.
try:
    from jax._src.array import ArrayImpl as ARRAY_TYPE
except ImportError:  # pragma: no cover - a release that moves it: the public base class, a looser test
    ARRAY_TYPE = jax.Array  # type: ignore[misc]

try:  # public in 0.10 and 0.12
    from jax.core import Tracer
except ImportError:  # pragma: no cover - a release that moves it still imports
    Tracer = None  # type: ignore[assignment,misc]


def hide_grader_frames() -> None:
    """Tell JAX that jittrainer's own files are not the learner's code (public in jax.extend; 0.10, 0.12): cache-miss
    explanations then name the learner's call site, not the jit spy's line (JAX's "re-defined repeatedly" guess
    keys on the call site, so every jitted function called through the spy looked re-defined), and the source
    lines JAX keeps for each equation are the learner's."""
    _source_info.register_exclusion(str(Path(__file__).resolve().parents[2]) + "/")


def bind_params(eqn: Any) -> dict[str, Any]:
    """The parameters that re-run one jaxpr equation with ``eqn.primitive.bind`` (a few primitives store
    theirs in another form in the jaxpr: ``Primitive.get_bind_params`` converts them; checked on 0.10, 0.12)."""
    getter = getattr(eqn.primitive, "get_bind_params", None)
    return dict(getter(eqn.params)) if getter is not None else dict(eqn.params)


@contextlib.contextmanager
def equation_context(eqn: Any) -> Iterator[None]:
    """The context an equation was traced under (``eqn.ctx.manager``: its name stack and similar), re-entered to
    replay it; nothing where a release has no such field."""
    manager = getattr(getattr(eqn, "ctx", None), "manager", None)
    if manager is None:
        yield
    else:
        with manager:
            yield


def equation_lines(eqn: Any, filename: str) -> list[int]:
    """The lines of ``filename`` in the traceback JAX kept for one equation, innermost first (empty when JAX
    kept none: ``eqn.source_info.traceback`` is an internal, checked on 0.10, 0.12)."""
    try:
        frames = eqn.source_info.traceback.frames
    except Exception:
        return []
    lines = []
    for frame in frames:
        if getattr(frame, "file_name", None) == filename:
            with contextlib.suppress(TypeError, ValueError):
                lines.append(int(frame.line_num))
    return lines


def short_type(value: Any) -> tuple[str, bool]:
    """An argument's abstract type as JAX's cache-miss text writes it (``f32[3]``) and whether it is weakly
    typed; the Python type name for what JAX does not trace."""
    try:
        aval = jax.typeof(value)
    except Exception:
        return type(value).__name__, False
    try:
        text = aval.str_short(short_dtypes=True)
    except Exception:
        text = str(aval)
    return text, bool(getattr(aval, "weak_type", False))


def jax_version() -> tuple[int, ...]:
    return tuple(int(part) for part in jax.__version__.split(".")[:3] if part.isdigit())


def scan_layout(params: dict[str, Any]) -> tuple[int, int]:
    """How a ``scan`` equation's inputs split: (constants, carries); the scanned arrays follow. 0.10 names the counts
    (``num_consts``, ``num_carry``); 0.12 keeps them in ``ft_in``, a flat tree of (constants, carries, scanned)."""
    if "num_consts" in params and "num_carry" in params:
        return int(params["num_consts"]), int(params["num_carry"])
    consts, carry, _ = params["ft_in"].unpack()
    return len(consts), len(carry)


def loop_trips(eqn: Any) -> int | None:
    """How many times one run of a program runs the body of a loop equation: a ``scan``'s ``length`` (a parameter of
    the jaxpr, the same name on 0.10 and 0.12), None for a ``while`` (its count is data), 1 for anything else."""
    name = eqn.primitive.name
    if name == "scan":
        return int(eqn.params["length"])
    return None if name == "while" else 1


def node_metadata(tree: Any) -> list[tuple[type, Any]]:
    """``(node type, metadata)`` for every registered pytree node in ``tree`` (``register_dataclass``'s meta fields,
    ``register_pytree_node``'s aux data), outermost first; the built-in containers (dict, list, tuple, None, named
    tuples) are left out. Read from the tree structure (``PyTreeDef.node_data`` and ``children``: jaxlib methods
    without a documented promise; checked on 0.10, 0.12)."""
    import collections

    builtin = (dict, list, tuple, type(None), collections.OrderedDict, collections.defaultdict)
    found: list[tuple[type, Any]] = []

    def walk(treedef: Any) -> None:
        data = treedef.node_data()
        if data is not None and not (data[0] in builtin or (issubclass(data[0], tuple) and hasattr(data[0], "_fields"))):
            found.append((data[0], data[1]))
        for child in treedef.children():
            walk(child)

    walk(jax.tree_util.tree_structure(tree))
    return found


# The fields of ``Compiled.memory_analysis()`` in bytes, by our names. The docs call the method "not a reliably
# programmable API" (its fields and numbers may change between backends and releases): read here only, each field
# kept when it is there, and checked on 0.10, 0.12 (XLA:CPU).
MEMORY_FIELDS = {"temp": "temp_size_in_bytes", "argument": "argument_size_in_bytes",
                 "output": "output_size_in_bytes", "alias": "alias_size_in_bytes",
                 "generated_code": "generated_code_size_in_bytes"}


def memory_stats(compiled: Any) -> dict[str, int] | None:
    """The byte counts XLA reports for a compiled program (``compiled.memory_analysis()``), or None when this
    backend reports none (the call raised, returned None, or had no temp field). A list (one per device program, as
    some releases return) gives its first entry."""
    try:
        stats = compiled.memory_analysis()
    except Exception:
        return None
    if isinstance(stats, (list, tuple)):
        stats = stats[0] if stats else None
    found = {ours: int(getattr(stats, theirs)) for ours, theirs in MEMORY_FIELDS.items()
             if isinstance(getattr(stats, theirs, None), int)}
    return found if "temp" in found else None


_JAX_DIR = str(Path(jax.__file__).resolve().parent) + "/"


def defined_in_jax(jaxpr: Any) -> bool:
    """Whether the function a jaxpr was traced from is JAX's own (``jax.scipy.special.xlogy``), read from the file
    in its ``debug_info.func_src_info`` ("xlogy at /…/jax/_src/scipy/special.py:937"; checked on 0.10, 0.12).
    False when JAX kept no such record."""
    inner = getattr(jaxpr, "jaxpr", jaxpr)
    info = getattr(getattr(inner, "debug_info", None), "func_src_info", None) or ""
    where = info.rsplit(" at ", 1)[-1] if " at " in info else ""
    try:
        return bool(where) and str(Path(where.rsplit(":", 1)[0]).resolve()).startswith(_JAX_DIR)
    except (OSError, ValueError):
        return False


def describe_leaks_robustly(freeze: bool = False) -> Any:
    """Keep JAX's leak error, whatever the heap looks like; returns a function that undoes this.

    With ``freeze``, first ``gc.freeze()`` what exists now (JAX, the grader; the caller unfreezes): JAX's walk scans
    every object in the process, seconds per leak with jax loaded, and the learner's module and everything it makes
    come later, so the chains it reports are the same.

    ``jax.checking_leaks()`` names what keeps each leaked tracer alive by walking ``gc.get_referrers()`` from it and
    taking the first referrer at each step (``jax._src.core._why_alive``, private; checked on 0.10, 0.12). That walk
    assumes a cell's first referrer is a tuple with a referrer of its own; the order of referrers follows the
    garbage collector's generations, so on some heaps the assumption fails, the walk raises IndexError, and the
    learner sees "IndexError: list index out of range" instead of the leak. Where JAX's walk fails, this one answers
    instead: the shortest chain of referrers from the tracer to a module's namespace, in JAX's words
    ("<list …> is referred to by submission.cache")."""
    import gc
    import sys
    import types

    from jax._src import core as _jax_core

    if freeze:
        gc.freeze()
    real = getattr(_jax_core, "_why_alive", None)
    if real is None:  # pragma: no cover - a release that renames it: its own walk stays as it is
        return lambda: None

    def shortest_chain(ignore_ids: set[int], x: Any) -> str:
        modules = {id(vars(m)): name for name, m in list(sys.modules.items()) if isinstance(m, types.ModuleType)}
        came_from: dict[int, Any] = {id(x): None}  # a referrer's id -> the object it was found referring to
        frontier: list[Any] = [x]
        own = {id(ignore_ids), id(came_from)}  # this search's own containers refer to what it visits
        for _depth in range(16):
            next_frontier: list[Any] = []
            own |= {id(frontier), id(next_frontier)}
            for child in frontier:
                for parent in gc.get_referrers(child):
                    key = id(parent)
                    if key in came_from or key in ignore_ids or key in own or isinstance(parent, types.FrameType):
                        continue
                    if key in modules:
                        name = next((k for k, v in parent.items() if v is child), "?")
                        return chain_text(came_from, child, f"{modules[key]}.{name}")
                    came_from[key] = child
                    next_frontier.append(parent)
            frontier = next_frontier
        return "\n(what keeps it alive could not be traced)\n"

    def chain_text(came_from: dict[int, Any], holder: Any, where: str) -> str:
        chain = [holder]  # from the module's name inwards, to the tracer
        while came_from.get(id(chain[-1])) is not None:
            chain.append(came_from[id(chain[-1])])
        lines = [f"<{type(inner).__name__} {id(inner)}> is referred to by <{type(outer).__name__} {id(outer)}>"
                 for outer, inner in zip(chain, chain[1:])][::-1]  # from the tracer outwards, as JAX writes it
        lines.append(f"<{type(holder).__name__} {id(holder)}> is referred to by {where}")
        return "\n" + "\n".join(lines) + "\n"

    def why_alive(ignore_ids: set[int], x: Any) -> str:
        try:
            return real(ignore_ids, x)
        except Exception:  # JAX's own walk failed on this heap: the leak is still reported, and what holds it
            return shortest_chain(ignore_ids, x)

    _jax_core._why_alive = why_alive

    def undo() -> None:
        _jax_core._why_alive = real

    return undo


from jittrainer.grading.sandbox.jax_compat.runtime import (  # noqa: E402  (re-exported: one seam)
    Executable,
    track_executables,
    live_executables,
    watch_executions,
    PERSISTENT_CACHE_LOGGERS,
    watch_persistent_cache_log,
    watch_host_syncs,
    DISALLOWED_TRANSFER,
)
