"""The JAX seam (``grading/sandbox/jax_compat/``) and the cache-miss words, on the installed JAX.

CI runs this module on the oldest and the newest JAX the course supports (``course.versions.TESTED_JAX``): a
release that moves an internal the grader leans on fails here, by name, before any exercise misgrades.
"""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from jittrainer.course import versions  # noqa: E402
from jittrainer.grading.sandbox import cachemiss, jax_compat  # noqa: E402
from jittrainer.grading.sandbox.cache_keys import CallKey, KeyLog, StaticSpec  # noqa: E402
from jittrainer.grading.sandbox.checks.spies import JitSpy  # noqa: E402
from jittrainer.grading.sandbox.compile_watch import CompileWatch  # noqa: E402


@pytest.fixture(scope="module")
def watch():
    return CompileWatch()


def test_installed_jax_is_inside_the_tested_span():
    assert versions.installed_jax() == jax.__version__
    assert versions.tested(jax.__version__), f"jax {jax.__version__} is outside {versions.TESTED_JAX}"


def test_jitted_and_compiled_types_are_what_jit_and_aot_return():
    f = jax.jit(lambda v: v + 1)
    assert type(f) is jax_compat.JITTED_TYPE
    compiled = f.lower(np.float32(1)).compile()
    assert type(compiled) is jax_compat.COMPILED_TYPE


def test_the_array_type_is_the_type_of_a_real_array():
    assert jax_compat.ARRAY_TYPE is type(jnp.zeros(())) is type(jax.device_put(1.0))


def test_monitoring_event_names_fire_for_a_trace_and_a_compile():
    seen = []
    jax.monitoring.register_event_duration_secs_listener(lambda event, duration, **kw: seen.append(event))
    jax.jit(lambda v: v * 3.0 + 0.5)(np.ones(7, np.float32))
    assert jax_compat.TRACE_EVENT in seen
    assert jax_compat.BACKEND_COMPILE_EVENT in seen


def test_an_equation_replays_with_its_bind_params_and_context(tmp_path):
    source = tmp_path / "learner.py"
    source.write_text(textwrap.dedent("""\
        import jax.numpy as jnp

        def f(x):
            y = jnp.sin(x)
            return jnp.cumsum(y * 2.0)
        """))
    namespace: dict = {}
    exec(compile(source.read_text(), str(source), "exec"), namespace)
    closed = jax.make_jaxpr(namespace["f"])(np.ones(4, np.float32))
    x = np.linspace(0, 1, 4, dtype=np.float32)
    env = {closed.jaxpr.invars[0]: x}
    for eqn in closed.jaxpr.eqns:
        args = [v.val if isinstance(v, jax_compat.Literal) else env[v] for v in eqn.invars]
        with jax_compat.equation_context(eqn):
            out = eqn.primitive.bind(*args, **jax_compat.bind_params(eqn))
        outs = out if eqn.primitive.multiple_results else [out]
        env.update(zip(eqn.outvars, outs))
    assert np.allclose(env[closed.jaxpr.outvars[0]], np.cumsum(np.sin(x) * 2.0), atol=1e-6)
    sin = next(e for e in closed.jaxpr.eqns if e.primitive.name == "sin")
    assert jax_compat.equation_lines(sin, str(source)) == [4]


def test_the_grader_s_own_frames_are_not_the_learner_s(watch):
    # Without the exclusion every spied call site is the spy's line, and JAX guesses "re-defined repeatedly".
    spy = JitSpy(None, keys=watch.keys)
    f, g = spy.jit(lambda v: v + 1.0), spy.jit(lambda v: v + 2.0)
    with watch.counting() as window:
        watch.call = 1
        f(np.ones(3, np.float32))
        g(np.ones(3, np.float32))
    assert [m.kind for m in window.explained()] == ["first", "first"]
    assert all("spies.py" not in m.detail.splitlines()[0] for m in window.explained())


def test_short_type_marks_weak_types():
    assert jax_compat.short_type(np.ones(3, np.float32)) == ("f32[3]", False)
    assert jax_compat.short_type(1.0) == ("f32[]", True)


@pytest.mark.parametrize(
    ("first", "second", "kind", "words"),
    [
        ((np.ones(3, np.float32),), (np.ones(4, np.float32),), "types", "x changed from f32[3] to f32[4]"),
        ((1.0,), (np.float32(1.0),), "weak_type", "x was a Python scalar (weakly typed f32[]) and is now a typed"),
        (({"a": np.ones(2, np.float32)},), ((np.ones(2, np.float32),),), "structure", "the structure of x changed"),
    ],
)
def test_jax_explains_type_and_structure_misses(watch, first, second, kind, words):
    f = JitSpy(None, keys=watch.keys).jit(lambda x: jax.tree_util.tree_leaves(x)[0] * 2)
    with watch.counting() as window:
        for call, args in enumerate((first, second), 1):
            watch.call = call
            f(*args)
    reasons = window.explained(params=("x",), function="<lambda>")
    # (the first call's kind is not asserted: each case calls from the same line, which JAX's own
    # "re-defined repeatedly" guess keys on)
    assert len(reasons) == 2 and reasons[1].kind == kind
    assert words in str(reasons[1].reason)


def test_a_keyword_static_argument_is_named_on_every_version(watch):
    def scale(x, *, factor):
        return x * factor

    f = JitSpy(None, keys=watch.keys).jit(scale, static_argnames="factor")
    x = jnp.ones(3)
    with watch.counting() as window:
        for call, factor in enumerate((0.5, 0.8623), 1):
            watch.call = call
            f(x, factor=factor)
    reasons = window.explained(params=("x",), function="scale")
    assert reasons[1].kind == "static"
    assert str(reasons[1].reason).startswith("static argument factor changed from 0.5 to 0.8623")


# The spy's own record, without JAX: what 0.12 leaves unexplained is said from it.


def test_static_spec_resolves_numbers_and_names_like_jax():
    def f(x, lr, *, steps):
        return x

    by_number = StaticSpec.of(f, {"static_argnums": 1})
    assert by_number.argnames == ("lr",)
    by_name = StaticSpec.of(f, {"static_argnames": ("lr", "steps")})
    assert by_name.argnums == (1,)
    static, dynamic = by_name.split((np.ones(2), 0.1), {"steps": 3})
    assert [path for path, _, _ in static] == ["[0][1]", "[1]['steps']"]
    assert [label for _, label, _ in dynamic] == ["x"]
    static, dynamic = by_name.split((np.ones(2),), {"lr": 0.1, "steps": 3})  # lr by keyword: static by name
    assert [path for path, _, _ in static] == ["[1]['lr']", "[1]['steps']"]
    assert [label for _, label, _ in dynamic] == ["x"]


def test_the_key_log_names_the_static_value_that_changed():
    log, owner = KeyLog(), object()
    spec = StaticSpec(argnums=(1,), argnames=("lr",), params=("x", "lr"))
    x = np.ones(3, np.float32)
    for lr in (0.5, 0.25):
        log.enter(owner, "step", spec, (x, lr), {})
        log.leave(owner)
    log.enter(owner, "step", spec, (x, 0.8623), {})
    changes = log.changes_for("step")
    # (both earlier keys differ by one value: the smallest repr wins, as in JAX's own explainer)
    assert [(c.kind, c.where, c.before, c.now) for c in changes] == [("static", "[0][1]", "0.25", "0.8623")]
    text = "TRACING CACHE MISS at f.py:3:\n  for step defined at f.py:1\n  " + cachemiss.UNAVAILABLE
    assert cachemiss.kind(text, changes=changes) == "static"
    assert str(cachemiss.explain(text, params=("x", "lr"), changes=changes)).startswith(
        "static argument lr changed from 0.25 to 0.8623")
    assert log.changes_for("other") == []


def test_a_static_object_changed_in_place_is_named():
    class Layer:
        def __init__(self, w):
            self.w = w

        def __hash__(self):
            return hash(self.w)

        def __eq__(self, other):
            return self.w == other.w

    log, owner, layer = KeyLog(), object(), Layer(1.0)
    spec = StaticSpec(argnums=(0,), params=("self", "x"))
    log.enter(owner, "apply", spec, (layer, np.ones(2)), {})
    log.leave(owner)
    layer.w = 2.0
    log.enter(owner, "apply", spec, (layer, np.ones(2)), {})
    changes = log.changes_for("apply")
    assert [c.kind for c in changes] == ["static_mutated"]
    assert "changed in place" in str(cachemiss.explain(cachemiss.UNAVAILABLE, params=("self", "x"), changes=changes))


def test_nothing_is_claimed_when_the_spy_sees_no_difference():
    log, owner = KeyLog(), object()
    spec = StaticSpec(params=("x",))
    x = np.ones(3, np.float32)
    log.enter(owner, "f", spec, (x,), {})
    log.leave(owner)
    log.enter(owner, "f", spec, (np.zeros(3, np.float32),), {})  # same key: the miss has another cause
    assert log.changes_for("f") == []
    assert CallKey.of(spec, (x,), {}) == CallKey.of(spec, (np.zeros(3, np.float32),), {})


def test_a_leak_is_still_named_when_jaxs_own_walk_fails(monkeypatch):
    """JAX's leak error walks gc referrers and can fail on some heaps (IndexError in _why_alive); the fallback still
    names the module-level holder, in the words the tracer_leak exercise reads ("is referred to by mod.name")."""
    import sys
    import types

    import jax
    import jax.numpy as jnp
    from jax._src import core as jax_core

    from jittrainer.grading.sandbox.jax_compat import describe_leaks_robustly

    def broken(ignore_ids, x):
        raise IndexError("list index out of range")

    monkeypatch.setattr(jax_core, "_why_alive", broken)
    module = types.ModuleType("leaky_learner")
    monkeypatch.setitem(sys.modules, "leaky_learner", module)
    exec("kept = []\n", module.__dict__)

    def center(x):
        module.kept.append(x * 2.0)
        return x + 1.0

    undo = describe_leaks_robustly()
    try:
        with jax.checking_leaks(), pytest.raises(Exception, match="Leaked") as raised:
            jax.jit(center)(jnp.ones(3))
    finally:
        undo()
    assert "is referred to by leaky_learner.kept" in str(raised.value)
    assert jax_core._why_alive is broken  # undone


def test_live_executables_are_jaxs_own_programs_while_they_live():
    assert jax_compat.track_executables() and jax_compat.track_executables()  # once, however often asked
    on_device = jnp.ones(3, jnp.float32)
    jax.clear_caches()  # (jnp.ones compiled programs of JAX's own; the array stays)
    f = jax.jit(lambda v: jnp.tanh(v).sum())
    f(np.ones(3, np.float32))
    f(on_device)  # a jax.Array of the same type: a second fast-path entry, the same program
    assert f._cache_size() == 2
    live = jax_compat.live_executables()
    assert len(live) == 1 and live[0].inputs == ("f32[3]",) and live[0].name == "jit(<lambda>)"
    compiled = jax.jit(lambda v: v + 1).lower(np.ones(2, np.float32)).compile()
    assert len(jax_compat.live_executables()) == 2
    f.clear_cache()
    assert [e.name for e in jax_compat.live_executables()] == ["jit(<lambda>)"]  # the ahead-of-time one, held
    del compiled
    jax.clear_caches()
    assert jax_compat.live_executables() == []


def test_a_cleared_cache_is_named_not_taken_for_a_new_function(watch):
    f = JitSpy(None, keys=watch.keys).jit(lambda v: v * 2.0)
    with watch.counting() as window:
        for call in (1, 2):
            watch.call = call
            f(np.ones(3, np.float32))
            f.clear_cache()
    assert [m.kind for m in window.explained()] == ["first", "cleared"]
def test_every_program_run_is_seen_once_the_fast_path_is_off():
    seen: list[str] = []
    undo = jax_compat.watch_executions(seen.append)
    try:
        step = jax.jit(lambda v: v * 2.0 + 1.0)
        x = jax.device_put(np.ones(3, np.float32))
        for _ in range(3):  # the C++ fast path would run calls 2 and 3 without Python
            step(x)
        eager = x * 3.0
        compiled = step.lower(x).compile()
        compiled(x)
        compiled(x)
    finally:
        undo()
    assert seen[:3] == ["jit(<lambda>)"] * 3
    assert "jit(multiply)" in seen[3:-2]
    assert seen[-2:] == ["jit(<lambda>)"] * 2
    after = len(seen)
    step(x)
    assert len(seen) == after and float(eager[0]) == 3.0  # undone


def test_each_host_sync_is_seen_once_with_the_reader_named():
    seen: list[str] = []
    x = jnp.arange(3.0)
    s = x.sum()
    undo = jax_compat.watch_host_syncs(seen.append)
    try:
        float(s)
        s.item()
        x.tolist()
        np.asarray(x)
        np.array([s, s])
        jax.device_get((s, x))
        f"{s:.2f}"
        str(s)
        bool(s > 0)
        s.block_until_ready()
        jax.block_until_ready((s, x))
        np.asarray(np.ones(2))  # NumPy's own arrays are not jax.Arrays: not a sync
    finally:
        undo()
    assert seen == ["float()", ".item()", ".tolist()", "np.asarray", "np.array", "jax.device_get", "format()", "str()",
                    "bool()", "block_until_ready", "block_until_ready"]
    float(s)
    assert len(seen) == 11  # undone


def test_the_transfer_guard_s_words_are_what_jax_raises():
    step = jax.jit(lambda v: v + 1)
    with pytest.raises(Exception) as raised, jax.transfer_guard_host_to_device("disallow"):
        step(np.ones((2, 3), np.float32))
    found = jax_compat.DISALLOWED_TRANSFER.search(str(raised.value))
    assert found and found.group("aval") == "float32[2,3]"
    with pytest.raises(Exception) as raised, jax.transfer_guard_host_to_device("disallow"):
        jnp.cos(0.5)  # a Python number meets an eager operation
    found = jax_compat.DISALLOWED_TRANSFER.search(str(raised.value))
    assert found and found.group("aval") == "float32[], weak_type=True"
    with jax.transfer_guard_host_to_device("disallow"):
        step(jax.device_put(np.ones(3, np.float32)))  # explicit: allowed


_PERSISTENT_TRIAL = textwrap.dedent("""\
    import json, sys
    import jax, jax.numpy as jnp, numpy as np
    from jittrainer.grading.sandbox.checks.persistent_cache import spy_persistent_cache

    folder, threshold, lr = sys.argv[1], sys.argv[2], float(sys.argv[3])
    seen = []
    undo = spy_persistent_cache(seen.append)
    jnp.ones(3).block_until_ready()  # a compile before any folder is set
    jax.config.update("jax_compilation_cache_dir", folder)
    if threshold != "default":
        jax.config.update("jax_persistent_cache_min_compile_time_secs", float(threshold))
    step = jax.jit(lambda w, x: w - lr * jnp.tanh(x @ w))
    step(np.ones((4, 4), np.float32), np.ones((4, 4), np.float32)).block_until_ready()
    undo()
    print(json.dumps([vars(e) for e in seen]))
""")


def _persistent_trial(tmp_path, folder, threshold, lr=0.5):
    import json
    import subprocess
    import sys

    script = tmp_path / "trial.py"
    script.write_text(_PERSISTENT_TRIAL)
    done = subprocess.run([sys.executable, str(script), str(folder), threshold, str(lr)], capture_output=True,
                          text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    return [e for e in json.loads(done.stdout.strip().splitlines()[-1]) if e["program"] != "jit_ones"]


def test_the_persistent_cache_log_says_what_each_process_found_and_wrote(tmp_path):
    """The log lines the persistent-cache spy reads (their loggers and words are JAX's internals): a miss and a refusal
    to write for a program that compiles under the default 1 s; a miss and a write with the threshold at 0; a hit in a
    new process for the same program; a miss again when a constant in it changed. In fresh processes: the cache opens
    once per process, and the settings are JAX's globals."""
    folder = tmp_path / "cache"
    first = _persistent_trial(tmp_path, folder, "default")
    step = [e for e in first if e["program"] == "jit__lambda"]
    assert [e["kind"] for e in step] == ["miss", "not_written"], first
    assert step[0]["folder"] == str(folder) and step[0]["cache_dir"] == str(folder)
    assert step[1]["min_compile_time"] == 1.0 and step[1]["seconds"] < 1.0 and "took < 1.00 seconds" in step[1]["why"]
    assert any(e["kind"] == "opened" and e["folder"] == str(folder) for e in first)
    written = [e for e in _persistent_trial(tmp_path, folder, "0") if e["program"] == "jit__lambda"]
    assert [e["kind"] for e in written] == ["miss", "timed", "written"], written
    assert written[2]["min_compile_time"] == 0.0 and written[1]["seconds"] is not None
    found = [e for e in _persistent_trial(tmp_path, folder, "0") if e["program"] == "jit__lambda"]
    assert [e["kind"] for e in found] == ["hit"] and found[0]["key"] == written[2]["key"], found
    other = [e for e in _persistent_trial(tmp_path, folder, "0", lr=0.25) if e["program"] == "jit__lambda"]
    assert [e["kind"] for e in other] == ["miss", "timed", "written"] and other[0]["key"] != found[0]["key"]
def test_memory_stats_reads_xlas_plan():
    compiled = jax.jit(lambda v: jnp.sin(v) @ v).lower(np.ones((32, 32), np.float32)).compile()
    stats = jax_compat.memory_stats(compiled)
    assert stats is not None and {"temp", "argument", "output"} <= set(stats)
    assert stats["argument"] == stats["output"] == 32 * 32 * 4


def test_loop_trips_reads_a_scan_length():
    closed = jax.make_jaxpr(lambda x: jax.lax.scan(lambda c, _: (c + 1, None), x, None, length=7)[0])(1.0)
    assert [jax_compat.loop_trips(eqn) for eqn in closed.jaxpr.eqns] == [7]
    closed = jax.make_jaxpr(lambda x: jax.lax.while_loop(lambda c: c < 3, lambda c: c + 1, x))(1.0)
    assert [jax_compat.loop_trips(eqn) for eqn in closed.jaxpr.eqns] == [None]


def test_node_metadata_reads_registered_nodes_only():
    import collections
    import dataclasses
    import functools

    @functools.partial(jax.tree_util.register_dataclass, data_fields=["w"], meta_fields=["a", "b"])
    @dataclasses.dataclass
    class Node:
        w: object
        a: object
        b: object

    pair = collections.namedtuple("pair", "p q")
    tree = {"n": [Node(1.0, (1, 2), "s"), pair(None, Node(2.0, [3], None))]}
    assert jax_compat.node_metadata(tree) == [(Node, ((1, 2), "s")), (Node, ([3], None))]
    assert jax_compat.node_metadata({"x": [1.0, (2.0,)]}) == []
