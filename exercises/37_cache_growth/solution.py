import jax
import jax.numpy as jnp


@jax.jit
def batch_loss(params, x, y):
    features = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])  # [8, n, 16]
    pred = features.mean(axis=1) @ params["w_out"] + params["b_out"]
    return jnp.mean((pred - y) ** 2)


def evaluate(params, task):
    # A task is a phase: its length never comes back, so the programs compiled for the task before are dead
    # weight. Empty the cache at the boundary; the new task compiles its one program on its first batch.
    batch_loss.clear_cache()
    losses = [float(batch_loss(params, x, y)) for x, y in task]
    return sum(losses) / len(losses)
