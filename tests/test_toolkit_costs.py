"""The cost readers (``checks/costs.py``: XLA's memory plan, how often equations run) and the pytree-metadata
contract (``checks/trees.py``: ``metadata_problem``), on hand-made programs and pytrees: the remat_budget and
pytree_metadata verdict tests cover them through whole grades, these pin down their rules."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from types import SimpleNamespace

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jittrainer.authoring import MemoryUse, memory_use, metadata_problem, program_memory, run_count

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _context():
    """What program_memory needs of the grading context: a muted recorder, a pausable watch, the real jax.jit."""
    null = contextlib.nullcontext
    return SimpleNamespace(recorder=SimpleNamespace(mute=null), watch=SimpleNamespace(paused=null),
                           jit_spy=SimpleNamespace(real=jax.jit))


def _stack(remat: bool):
    def layer(h, w):
        return jnp.tanh(h @ w), None

    body = jax.checkpoint(layer) if remat else layer

    def loss(ws, x):
        return jnp.sum(jax.lax.scan(body, x, ws)[0])

    return loss


def test_checkpointing_a_scanned_layer_lowers_the_planned_temp_bytes():
    ws, x = np.ones((8, 64, 64), np.float32), np.ones((128, 64), np.float32)
    plain = program_memory(_context(), jax.grad(_stack(False)), ws, x)
    saved = program_memory(_context(), jax.grad(_stack(True)), ws, x)
    assert isinstance(plain, MemoryUse) and isinstance(saved, MemoryUse)
    assert saved.temp < plain.temp  # the layer's tanh output is no longer kept for each of the 8 layers
    assert plain.argument == ws.nbytes + x.nbytes
    assert plain.temp_mib == plain.temp / 2**20


def test_a_jitted_function_is_compiled_as_it_is():
    f = jax.jit(lambda v: jnp.sin(v) @ v)
    used = program_memory(SimpleNamespace(recorder=SimpleNamespace(mute=contextlib.nullcontext),
                                          watch=SimpleNamespace(paused=contextlib.nullcontext),
                                          jit_spy=None), f, np.ones((16, 16), np.float32))
    assert used is not None and used.output == 16 * 16 * 4


def test_memory_use_of_something_without_a_plan_is_none():
    class NoPlan:
        def memory_analysis(self):
            raise NotImplementedError

    assert memory_use(NoPlan()) is None
    assert memory_use(SimpleNamespace(memory_analysis=lambda: None)) is None


def test_run_count_multiplies_by_scan_lengths_and_nests():
    def f(x, ws):
        def outer(h, w):
            inner = jax.lax.scan(lambda c, _: (c @ w, None), h, None, length=3)[0]
            return inner @ w, None

        return jax.lax.scan(outer, x, ws)[0]

    closed = jax.make_jaxpr(f)(np.ones((2, 2), np.float32), np.ones((5, 2, 2), np.float32))
    assert run_count(closed, {"dot_general"}) == 5 * (3 + 1)
    assert run_count(closed, {"tanh"}) == 0


def test_run_count_sees_a_checkpoint_replay_the_forward_pass():
    ws, x = np.ones((4, 8, 8), np.float32), np.ones((2, 8), np.float32)
    plain = run_count(jax.make_jaxpr(jax.grad(_stack(False)))(ws, x), {"dot_general"})
    remat = run_count(jax.make_jaxpr(jax.grad(_stack(True)))(ws, x), {"dot_general"})
    assert plain == 4 * 3  # forward, and two products backward, per layer
    assert remat == 4 * 4  # and the forward product once more


def test_run_count_takes_the_costliest_branch_and_gives_up_in_a_while_loop():
    def branches(p, x):
        return jax.lax.cond(p, lambda v: v @ v @ v, lambda v: v @ v, x)

    closed = jax.make_jaxpr(branches)(True, np.ones((2, 2), np.float32))
    assert run_count(closed, {"dot_general"}) == 2

    def loop(x):
        return jax.lax.while_loop(lambda c: c.sum() < 10, lambda c: c @ c, x)

    assert run_count(jax.make_jaxpr(loop)(np.ones((2, 2), np.float32)), {"dot_general"}) is None
    assert run_count(jax.make_jaxpr(loop)(np.ones((2, 2), np.float32)), {"tanh"}) == 0


@functools.partial(jax.tree_util.register_dataclass, data_fields=["w"], meta_fields=["meta"])
@dataclasses.dataclass
class _Node:
    w: object
    meta: object


class _ByIdentity:
    pass


class _EqualNoHash:
    def __eq__(self, other):
        return isinstance(other, _EqualNoHash)


class _EqualHashById(_EqualNoHash):
    def __hash__(self):
        return id(self)


@pytest.mark.parametrize(("make", "kind", "value"), [
    (lambda: (1, 2), None, ""),
    (lambda: "relu", None, ""),
    (lambda: [1, 2], "unhashable", "a list"),
    (lambda: np.array([1, 2], np.int64), "unhashable", "an array of shape (2,) and dtype int64"),
    (lambda: _ByIdentity(), "unequal", "a _ByIdentity"),
    (lambda: _EqualNoHash(), "unhashable", "a _EqualNoHash"),
    (lambda: _EqualHashById(), "hash_differs", "a _EqualHashById"),
])
def test_metadata_problem_names_each_broken_contract(make, kind, value):
    found = metadata_problem({"a": _Node(1.0, make())}, {"a": _Node(2.0, make())})
    assert (found.kind if found else None) == kind
    if found is not None:
        assert found.node == "_Node" and found.value.render("en") == value


def test_metadata_problem_without_registered_nodes_is_none():
    assert metadata_problem({"w": np.ones(2), "k": [1, 2]}, {"w": np.zeros(2), "k": [1, 2]}) is None


def test_an_array_compared_by_value_is_ambiguous_when_it_hashes():
    class HashedArray(np.ndarray):
        __hash__ = object.__hash__

    a, b = np.arange(3).view(HashedArray), np.arange(3).view(HashedArray)
    found = metadata_problem(_Node(1.0, a), _Node(1.0, b))
    assert found is not None and found.kind == "ambiguous"
