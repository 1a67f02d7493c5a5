"""Where an array lives, as the sharding checks read it: its type as JAX writes it (``float32[8@x,3]``), its
sharding's kind, mesh and spec, and each device's block. And where the graded calls placed the arguments of the
learner's jitted functions, since a new placement (another device, a mesh with another device order or other axis
types) is part of jit's cache key and compiles again, while a fresh but equal NamedSharding is not.

Everything here reads public JAX (``jax.typeof``, ``Array.sharding``, ``addressable_shards``, ``Mesh.devices``):
the returned arrays are concrete, so nothing is traced again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import jax
import numpy as np
from jax.sharding import NamedSharding

if TYPE_CHECKING:
    from jittrainer.grading.sandbox.checks.calls import GradedCalls
    from jittrainer.grading.sandbox.checks.context import CheckContext


@dataclass(frozen=True)
class Layout:
    """One value's layout. ``kind``: "host" (not a jax.Array), "single" (one device), "named" (a NamedSharding) or
    "other"; ``type``: ``jax.typeof`` as JAX writes it; ``spec``: the NamedSharding's spec ("P('x', None)");
    ``mesh``: its mesh's size; ``axis_types``: ("Explicit",), ("Auto",); ``devices``: how many devices hold a
    block; ``shards``: each device's block shape, by device id; ``order``: the device ids in mesh order (the one
    device's id for "single")."""

    kind: str
    type: str = ""
    spec: str = ""
    mesh: int = 0
    axis_types: tuple[str, ...] = ()
    devices: int = 0
    replicated: bool = False
    shards: tuple[tuple[int, ...], ...] = ()
    order: tuple[int, ...] = ()

    @property
    def shard(self) -> tuple[int, ...] | None:
        """The block shape every device holds, None when the blocks differ (or there are none)."""
        return self.shards[0] if self.shards and len(set(self.shards)) == 1 else None

    def split_like(self, devices: int, block: tuple[int, ...]) -> bool:
        """A NamedSharding over a mesh of ``devices`` devices, every one of them holding a block of shape ``block``."""
        return self.kind == "named" and self.mesh == devices == self.devices and len(self.shards) == devices \
            and self.shard == tuple(block)


def shard_shapes(value: Any) -> dict[int, tuple[int, ...]]:
    """Each device's block of a jax.Array, by device id (``{0: (2, 3), 1: (2, 3), …}``); empty for anything else:

        shard_shapes(y) == {d: (B // n, F) for d in range(n)}   # split by rows over n devices"""
    try:
        return {int(s.device.id): tuple(int(k) for k in s.data.shape) for s in value.addressable_shards}
    except Exception:  # not a jax.Array, or a deleted one
        return {}


def layout_of(value: Any) -> Layout:
    """What ``value``'s sharding says, in the terms the checks use (see ``Layout``)."""
    sharding = getattr(value, "sharding", None)
    if sharding is None or not isinstance(value, jax.Array):
        return Layout("host")
    shards = shard_shapes(value)
    common = {"type": _type_text(value), "devices": len(sharding.device_set),
              "replicated": bool(sharding.is_fully_replicated), "shards": tuple(shards[d] for d in sorted(shards))}
    if isinstance(sharding, NamedSharding):
        mesh = sharding.mesh
        return Layout("named", spec=str(sharding.spec), mesh=int(mesh.size), order=_mesh_order(mesh),
                      axis_types=tuple(getattr(t, "name", str(t)) for t in getattr(mesh, "axis_types", ())), **common)
    ids = tuple(sorted(int(d.id) for d in sharding.device_set))
    return Layout("single" if len(ids) == 1 else "other", order=ids, **common)


def _type_text(value: Any) -> str:
    try:
        return str(jax.typeof(value))
    except Exception:
        return ""


def _mesh_order(mesh: Any) -> tuple[int, ...]:
    try:
        return tuple(int(d.id) for d in np.asarray(mesh.devices).flat)
    except Exception:  # an abstract mesh has no devices
        return ()


def placement(value: Any) -> str:
    """Where a value was placed, in a few words: "the host", "device 2", "mesh ('batch': 4) on devices [1, 2, 3, 0],
    Explicit axes, P('batch',)"; the same words for equal placements, however they were made."""
    layout = layout_of(value)
    if layout.kind == "host":
        return "the host"
    if layout.kind == "single":
        return f"device {layout.order[0]}"
    if layout.kind == "named":
        mesh = value.sharding.mesh
        axes = ", ".join(f"{name!r}: {size}" for name, size in zip(mesh.axis_names, np.shape(mesh.devices)))
        return f"mesh ({axes}) on devices {list(layout.order)}, {'/'.join(layout.axis_types)} axes, {layout.spec}"
    return f"devices {list(layout.order)}"


@dataclass(frozen=True)
class PlacementChange:
    """A graded call whose jitted function received an argument placed where no earlier call placed it, and that
    compiled: ``call`` and ``earlier`` (1-based), the jitted ``function``, the argument's position among its array
    arguments (``argument``, from 1) and the two placements in words."""

    call: int
    earlier: int
    function: str
    argument: int
    before: str
    after: str


def placement_change(g: CheckContext, calls: GradedCalls) -> PlacementChange | None:
    """The first graded call that compiled while one of its jitted functions got its array arguments placed
    otherwise than in every earlier call (another device, another device order, other axis types, another spec):

        change = placement_change(g, calls)
        if change: msg("placed", "call {call} put x on {after}; call {earlier} on {before}", **vars(change))"""
    seen: dict[Any, list[tuple[int, tuple[str, ...]]]] = {}
    for record in g.jit_spy.calls:
        if record.call is None:
            continue
        arrays = [a for a in jax.tree_util.tree_leaves((record.args, record.kwargs)) if isinstance(a, jax.Array)
                  or isinstance(a, np.ndarray)]
        places = tuple(placement(a) for a in arrays)
        key = record.origin if record.origin is not None else record.fn
        earlier = seen.setdefault(key, [])
        if earlier and all(p != places for _, p in earlier) and calls.compiles_in_call(record.call):
            call, before = earlier[-1]
            k = next((i for i, (a, b) in enumerate(zip(before, places)) if a != b), 0)
            return PlacementChange(record.call, call, record.function, k + 1, before[k] if before else "",
                                   places[k] if places else "")
        earlier.append((record.call, places))
    return None
