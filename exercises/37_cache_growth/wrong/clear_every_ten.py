# expect: live_programs
# The cache emptied every tenth task: bounded, but up to ten programs pile up between two clears.
import jax
import jax.numpy as jnp


@jax.jit
def batch_loss(params, x, y):
    features = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
    pred = features.mean(axis=1) @ params["w_out"] + params["b_out"]
    return jnp.mean((pred - y) ** 2)


calls = 0


def evaluate(params, task):
    global calls
    calls += 1
    if calls % 10 == 0:
        batch_loss.clear_cache()
    losses = [float(batch_loss(params, x, y)) for x, y in task]
    return sum(losses) / len(losses)
