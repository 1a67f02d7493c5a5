# expect: pass
# Writes the Adam update by hand inside one jitted step, on the state optax made (counts, first and second
# moments), with optax's defaults: b1 = 0.9, b2 = 0.999, eps = 1e-8.
import jax
import jax.numpy as jnp
import optax

LEARNING_RATE = 1e-2
optimizer = optax.adam(LEARNING_RATE)


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


B1, B2, EPS = 0.9, 0.999, 1e-8


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    adam, rest = opt_state
    count = adam.count + 1
    mu = jax.tree.map(lambda m, g: B1 * m + (1 - B1) * g, adam.mu, grads)
    nu = jax.tree.map(lambda v, g: B2 * v + (1 - B2) * g * g, adam.nu, grads)
    t = count.astype(jnp.float32)

    def update(p, m, v):
        m_hat = m / (1 - B1 ** t)
        v_hat = v / (1 - B2 ** t)
        return p - LEARNING_RATE * m_hat / (jnp.sqrt(v_hat) + EPS)

    params = jax.tree.map(update, params, mu, nu)
    return params, (adam._replace(count=count, mu=mu, nu=nu), rest), loss
