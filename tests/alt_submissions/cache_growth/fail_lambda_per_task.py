# expect: live_programs
# A new jitted lambda for every task. In a plain process the old lambdas and their programs could be collected; the
# statement says the grader keeps every jitted function it sees, so here they stay alive.
import jax
import jax.numpy as jnp


def loss(params, x, y):
    features = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
    pred = features.mean(axis=1) @ params["w_out"] + params["b_out"]
    return jnp.mean((pred - y) ** 2)


def evaluate(params, task):
    f = jax.jit(lambda p, x, y: loss(p, x, y))
    return sum(float(f(params, x, y)) for x, y in task) / len(task)
