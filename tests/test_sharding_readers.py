"""The sharding readers of the authoring API (checks/layouts.py, checks/hlo.py), the mesh a recorded jitted call
keeps (checks/jit_calls.py) and the compile watch's word for a recompile without a retrace: the exercises on
sharding in types grade with them, these tests pin down their rules. Several devices need their own process
(XLA_FLAGS is read when JAX starts), so those cases run in a child with 4 simulated CPU devices."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import jax
import numpy as np
from jax.sharding import PartitionSpec as P

from jittrainer.authoring import JitCall, collectives, layout_of, placement, shard_shapes
from jittrainer.grading.sandbox.compile_watch import CountingWindow, Event

HLO = """\
HloModule jit_mlp, entry_computation_layout={(f32[3,5]{1,0}, f32[5,4]{1,0})->f32[3,5]{1,0}}
  %all-gather.1 = f32[16,5]{1,0} all-gather(%param.2), channel_id=2, replica_groups=[1,4]<=[4], dimensions={0}
  %ag-start = (f32[4,5]{1,0}, f32[16,5]{1,0}) all-gather-start(%param.3), channel_id=3, dimensions={0}
  %ag-done = f32[16,5]{1,0} all-gather-done(%ag-start)
  %reduce-scatter = f32[1,5]{1,0} reduce-scatter(%dot), channel_id=4, dimensions={0}, to_apply=%add
  ROOT %all-reduce = f32[3,5]{1,0} all-reduce(%dot.1), channel_id=1, replica_groups=[1,4]<=[4], to_apply=%add
  %fusion = f32[3,5]{1,0} fusion(%all-reduce), kind=kLoop, calls=%all_gather_like_name
"""


def test_collectives_reads_kinds_and_result_shapes_in_program_order():
    found = collectives(HLO)
    assert [c.kind for c in found] == ["all-gather", "all-gather", "reduce-scatter", "all-reduce"]
    assert found[0].results == (("f32", (16, 5)),) and found[0].makes((16, 5))
    assert found[1].shapes == [(4, 5), (16, 5)]  # an async start holds its operand and its result
    assert found[3].makes((3, 5)) and not found[3].makes((5, 3))
    assert "ROOT %all-reduce" in found[3].line
    assert collectives("%add = f32[3]{0} add(%a, %b)") == []


def test_a_host_value_and_a_one_device_array():
    assert layout_of(np.ones(3)).kind == "host" and shard_shapes(np.ones(3)) == {} and placement(3.0) == "the host"
    x = jax.device_put(np.ones((2, 3), np.float32), jax.devices()[0])
    layout = layout_of(x)
    assert (layout.kind, layout.devices, layout.replicated, layout.shard) == ("single", 1, True, (2, 3))
    assert layout.type == "float32[2,3]" and placement(x) == "device 0"
    assert shard_shapes(x) == {0: (2, 3)} and not layout.split_like(1, (2, 3))  # not a NamedSharding


def test_a_recorded_call_traces_and_runs_again_inside_the_mesh_it_was_made_in():
    mesh = jax.make_mesh((1,), ("x",))
    f = jax.jit(lambda v: jax.sharding.reshard(v * 2, P("x")))  # a bare spec: needs a mesh set
    x = np.arange(4.0, dtype=np.float32)
    with jax.set_mesh(mesh):
        call = JitCall.at_call(1, "f", f, (x,), {})
    assert call.mesh == mesh and JitCall.at_call(1, "f", f, (x,), {}).mesh is None
    assert np.allclose(call.reinvoke((x + 1,)), 2 * (x + 1))  # outside any mesh here
    assert "reshard" in str(call.jaxpr())


def test_an_unexplained_recompile_of_a_spied_function_is_not_called_jax_internal():
    events = [Event("compile", "jit(step)", 0.0, 1), Event("compile", "jit(step)", 0.0, 2),
              Event("compile", "jit(_pad)", 0.0, 2)]
    reasons = CountingWindow(events=events, spied=lambda: {"step"}).explained()
    assert [m.kind for m in reasons] == ["jax_internal", "placement", "jax_internal"]
    assert reasons[1].reason.key == "miss.placement" and "without being traced again" in str(reasons[1].reason)
    assert [m.kind for m in CountingWindow(events=events).explained()] == ["jax_internal"] * 3


CHILD = textwrap.dedent("""
    import json
    from types import SimpleNamespace

    import jax
    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    from jittrainer.authoring import JitCall, layout_of, placement, placement_change, shard_shapes

    devices = jax.devices()
    mesh = jax.make_mesh((4,), ("rows",))
    x = np.arange(24, dtype=np.float32).reshape(8, 3)
    rows = jax.device_put(x, NamedSharding(mesh, P("rows")))
    whole = jax.device_put(x, NamedSharding(mesh, P()))
    cols = jax.device_put(np.ones((8, 4), np.float32), NamedSharding(mesh, P(None, "rows")))
    fresh = jax.device_put(x, NamedSharding(jax.make_mesh((4,), ("rows",)), P("rows")))
    auto = jax.device_put(x, NamedSharding(Mesh(np.array(devices), ("rows",)), P("rows")))
    turned = jax.device_put(x, NamedSharding(jax.make_mesh((4,), ("rows",), devices=devices[::-1]), P("rows")))

    def describe(v):
        l = layout_of(v)
        return {"kind": l.kind, "type": l.type, "spec": l.spec, "mesh": l.mesh, "axis_types": list(l.axis_types),
                "devices": l.devices, "replicated": l.replicated, "shard": list(l.shard or ()),
                "order": list(l.order), "split": l.split_like(4, (2, 3))}

    def change(values, compiles):
        f = jax.jit(lambda v: v + 1)
        spy = SimpleNamespace(calls=[JitCall.at_call(i, "f", f, (v,), {}) for i, v in enumerate(values, 1)])
        found = placement_change(SimpleNamespace(jit_spy=spy), SimpleNamespace(compiles_in_call=compiles.__contains__))
        return found and [found.call, found.earlier, found.function, found.argument, found.before, found.after]

    on = [jax.device_put(x, d) for d in devices[:3]]
    print(json.dumps({
        "rows": describe(rows), "whole": describe(whole), "cols": describe(cols), "auto": describe(auto),
        "shapes": {str(k): list(v) for k, v in shard_shapes(rows).items()},
        "placements": [placement(v) for v in (rows, fresh, auto, turned, on[1])],
        "round_robin": change(on, {1, 2, 3}),
        "equal_again": change([rows, fresh, rows], {1}),
        "order": change([rows, turned, rows], {1, 2}),
        "not_compiled": change([rows, turned], {1}),
    }))
""")


def test_layouts_and_placement_changes_on_four_devices():
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=4", "JAX_PLATFORMS": "cpu"}
    run = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    got = json.loads(run.stdout.strip().splitlines()[-1])
    rows, whole, cols, auto = got["rows"], got["whole"], got["cols"], got["auto"]
    assert rows == {"kind": "named", "type": "float32[8@rows,3]", "spec": "P('rows',)", "mesh": 4,
                    "axis_types": ["Explicit"], "devices": 4, "replicated": False, "shard": [2, 3],
                    "order": [0, 1, 2, 3], "split": True}
    assert whole["replicated"] and whole["shard"] == [8, 3] and whole["type"] == "float32[8,3]" and not whole["split"]
    assert cols["shard"] == [8, 1] and cols["type"] == "float32[8,4@rows]"
    assert auto["axis_types"] == ["Auto"] and auto["type"] == "float32[8,3]" and auto["split"]  # Auto: not in the type
    assert got["shapes"] == {str(d): [2, 3] for d in range(4)}
    explicit, fresh, on_auto, turned, single = got["placements"]
    assert explicit == fresh == "mesh ('rows': 4) on devices [0, 1, 2, 3], Explicit axes, P('rows',)"
    assert on_auto != explicit and "Auto axes" in on_auto and "[3, 2, 1, 0]" in turned and single == "device 1"
    assert got["round_robin"] == [2, 1, "f", 1, "device 0", "device 1"]
    assert got["equal_again"] is None  # a fresh but equal NamedSharding is the same placement
    assert got["order"][:2] == [2, 1] and "[3, 2, 1, 0]" in got["order"][5]
    assert got["not_compiled"] is None  # a change that compiled nothing explains no compile
