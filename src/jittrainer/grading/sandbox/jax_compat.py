"""Every JAX behaviour the grader relies on that JAX does not document as stable, behind one seam.

Each name here is either public API chosen on purpose or an internal detail we could not avoid, with the JAX
versions it was checked on (the tested span is ``jittrainer.course.versions.TESTED_JAX``). When a release moves
one of them, this module changes and nothing else: ``tests/test_jax_compat.py`` runs on every tested version and
fails here first. The cache-miss log text is the one other version-dependent input; its patterns live in
``cachemiss.py`` (pure Python, no jax) and the same test checks them against the installed JAX.
"""

from __future__ import annotations

import contextlib
import weakref
import functools
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
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



@dataclass(frozen=True)
class Executable:
    """One compiled program alive in the process: the function it was compiled for, as JAX names it
    ("jit(batch_loss)", "jit(_pad)" for an eager jnp.pad), and its input types ("f32[8,37]")."""

    name: str
    inputs: tuple[str, ...]


_EXECUTABLES: list[weakref.WeakSet] = []  # one set, made by the first track_executables()


def track_executables() -> bool:
    """From now on, know every program JAX compiles in this process while it stays alive: a jitted function's cache
    entries, an ahead-of-time compiled function, JAX's own programs for eager operations. Each is a
    ``pxla.MeshExecutable`` (private; checked on 0.10, 0.12), freed when the last cache or object holding it lets go
    (``clear_cache()``, ``jax.clear_caches()``, or its function's death). Its ``__init__`` is wrapped once to keep a
    weak reference. (``jitted._cache_size()`` is no such count: it counts the fast path's entries, and a NumPy
    argument and a ``jax.Array`` of one type make two entries for one program.) False where a release moved it."""
    if _EXECUTABLES:
        return True
    try:
        from jax._src.interpreters import pxla

        cls = pxla.MeshExecutable
        real = cls.__init__
    except (ImportError, AttributeError):  # pragma: no cover - a release that moves it: nothing is counted
        return False
    alive: weakref.WeakSet = weakref.WeakSet()

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        real(self, *args, **kwargs)
        alive.add(self)

    cls.__init__ = init
    _EXECUTABLES.append(alive)
    return True


def live_executables() -> list[Executable] | None:
    """The programs alive now among those compiled since ``track_executables()`` (None before it, or where it
    could not be installed), in no particular order."""
    if not _EXECUTABLES:
        return None
    out = []
    for executable in list(_EXECUTABLES[0]):
        name = getattr(getattr(executable, "_unloaded_executable", None), "name", None) or "?"
        inputs = []
        for aval in getattr(executable, "in_avals", ()) or ():
            try:
                inputs.append(aval.str_short(short_dtypes=True))
            except Exception:
                inputs.append(str(aval))
        out.append(Executable(str(name), tuple(inputs)))
    return out
def watch_executions(on_execute: Any) -> Any:
    """Call ``on_execute(name)`` each time a compiled program runs: a jitted function (``"jit(step)"``), an
    ahead-of-time compiled one, or one eager operation (eager ``jax.numpy`` runs each primitive as a small program of
    its own, ``"jit(add)"``). Returns a function that undoes this.

    JAX has no public event per execution, and its C++ dispatch runs a cached program without entering Python. So
    this turns the C++ fast path off: ``pxla.MeshExecutableFastpathData``, which a jit's (and a compiled function's)
    cache miss builds to hand the call to C++, answers None, and every later call takes the Python path, through
    ``pxla.ExecuteReplicated.__call__``, which is wrapped (both private; checked on 0.10, 0.12). Calls get slower by
    tens of microseconds, never different. JAX's caches are emptied, so that nothing cached before runs unseen."""
    from jax._src.interpreters import pxla

    real_data = pxla.MeshExecutableFastpathData
    real_call = pxla.ExecuteReplicated.__call__

    def call(self: Any, *args: Any) -> Any:
        on_execute(str(getattr(self, "name", "?")))
        return real_call(self, *args)

    pxla.MeshExecutableFastpathData = lambda *args, **kwargs: None
    pxla.ExecuteReplicated.__call__ = call
    jax.clear_caches()

    def undo() -> None:
        pxla.MeshExecutableFastpathData = real_data
        pxla.ExecuteReplicated.__call__ = real_call
        jax.clear_caches()

    return undo


# The persistent compilation cache says what it did only in its log, in two loggers named for JAX's private modules
# (checked on 0.10, 0.12): a hit at DEBUG (WARNING under jax_log_compiles); a miss, a write and a refusal to write at
# WARNING under jax_explain_cache_misses, else DEBUG. Their texts are read in checks/persistent_cache.py.
PERSISTENT_CACHE_LOGGERS = ("jax._src.compiler", "jax._src.compilation_cache")


def watch_persistent_cache_log(on_text: Any) -> Any:
    """Call ``on_text(text)`` for every record of those loggers, DEBUG ones included: the loggers are lowered to
    DEBUG (a handler the learner puts on the root logger may then show those lines too). Returns the undo."""
    import logging

    class Seen(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            with contextlib.suppress(Exception):  # a badly formatted record never fails the compile
                on_text(record.getMessage())

    handler, loggers = Seen(logging.DEBUG), [logging.getLogger(name) for name in PERSISTENT_CACHE_LOGGERS]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.addHandler(handler)
        lg.setLevel(logging.DEBUG)

    def undo() -> None:
        for lg, level in zip(loggers, levels):
            lg.removeHandler(handler)
            lg.setLevel(level)

    return undo


# What made a jax.Array's value come to the host, by the JAX function that read it (the caller of ``_value``).
_READERS = {"__float__": "float()", "__int__": "int()", "__complex__": "complex()", "__bool__": "bool()",
            "__index__": "operator.index()", "__format__": "format()", "__str__": "str()", "__repr__": "repr()",
            "tolist": ".tolist()", "tobytes": ".tobytes()", "__array__": "np.asarray", "__hex__": "hex()",
            "__oct__": "oct()"}
_NUMPY_READERS = ("asarray", "array", "asanyarray", "ascontiguousarray")


def watch_host_syncs(on_sync: Any) -> Any:
    """Call ``on_sync(how)`` for each place where the host waits for a ``jax.Array``: a read of its value
    (``float()``, ``int()``, ``bool()`` (an ``if`` on it), ``.item()``, ``.tolist()``, ``np.asarray``/``np.array``,
    ``jax.device_get``, printing or formatting it) and ``block_until_ready`` (the function and the method). One call
    counts once, however many reads it makes inside (``device_get`` of a tree is one). Returns the undo.

    On the CPU backend ``jax.transfer_guard_device_to_host`` never fires (the host reads the buffer in place, no
    transfer), so these are spies: the array type's ``_value`` property, which every Python-level read goes through
    (private; checked on 0.10, 0.12), ``item``, ``jax.device_get``, ``block_until_ready``, and NumPy's array
    constructors, which read a jax.Array through the buffer protocol in C, unseen by ``_value``. Other NumPy
    functions given a jax.Array directly (``np.mean(x)``, ``np.float32(x)``) read it in C too, and are not seen."""
    import numpy as np

    array_type = type(jax.device_put(np.float32(0.0)))
    depth = [0]

    def seen(how: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        if depth[0] == 0:
            on_sync(how)
        depth[0] += 1
        try:
            return fn(*args, **kwargs)
        finally:
            depth[0] -= 1

    def holds_array(value: Any) -> bool:
        if isinstance(value, array_type):
            return True
        return isinstance(value, (list, tuple)) and any(isinstance(v, array_type) for v in value)

    real_value, real_item, real_block = array_type._value, array_type.item, array_type.block_until_ready
    real_get, real_block_tree = jax.device_get, jax.block_until_ready
    real_numpy = {name: getattr(np, name) for name in _NUMPY_READERS}

    def value(self: Any) -> Any:
        caller = sys._getframe(1).f_code.co_name
        return seen(_READERS.get(caller, f"{caller}()"), real_value.fget, self)

    def numpy_reader(name: str) -> Any:
        real = real_numpy[name]

        def read(a: Any, *args: Any, **kwargs: Any) -> Any:
            if depth[0] or not holds_array(a):
                return real(a, *args, **kwargs)
            return seen(f"np.{name}", real, a, *args, **kwargs)

        read.__name__ = read.__qualname__ = name
        read.__doc__ = real.__doc__
        return read

    def device_get(x: Any) -> Any:
        return seen("jax.device_get", real_get, x)

    def block_tree(x: Any) -> Any:
        return seen("block_until_ready", real_block_tree, x)

    array_type._value = property(value)
    array_type.item = lambda self, *args: seen(".item()", real_item, self, *args)
    array_type.block_until_ready = lambda self: seen("block_until_ready", real_block, self)
    for name in _NUMPY_READERS:
        setattr(np, name, numpy_reader(name))
    jax.device_get = functools.wraps(real_get)(device_get)
    jax.block_until_ready = functools.wraps(real_block_tree)(block_tree)

    def undo() -> None:
        array_type._value, array_type.item, array_type.block_until_ready = real_value, real_item, real_block
        for name, real in real_numpy.items():
            setattr(np, name, real)
        jax.device_get, jax.block_until_ready = real_get, real_block_tree

    return undo


# JAX's words when jax.transfer_guard_host_to_device("disallow") stops an implicit transfer (the same on 0.10, 0.12):
# "Disallowed host-to-device transfer: aval=ShapedArray(float32[32,8]), dst_sharding=…".
DISALLOWED_TRANSFER = re.compile(r"Disallowed host-to-device transfer: aval=ShapedArray\((?P<aval>[^)]*)\)")
