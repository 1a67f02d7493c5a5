"""JAX internals the grader hooks while a job runs: which compiled programs are alive, every program executed, every
host sync (a value read back to Python), and the persistent compilation cache's log. Part of ``jax_compat`` (see its
docstring): each name is an internal detail, checked on the versions ``tests/test_jax_compat.py`` runs on, and
re-exported there.
"""

from __future__ import annotations

import contextlib
import functools
import re
import sys
import weakref
from dataclasses import dataclass
from typing import Any

import jax


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
