import jax
import jax.numpy as jnp

EPS = 1e-5


def normalize_row(x):
    # One row: subtract its mean, divide by its standard deviation. Every row must come out as this computes it.
    mean = jnp.mean(x)
    var = jnp.mean((x - mean) ** 2)
    return (x - mean) / jnp.sqrt(var + EPS)


@jax.jit
def normalize_rows(xs):
    # TODO: under jit this loop runs while JAX traces, once per row: what does the recorded program hold?
    return jnp.stack([normalize_row(x) for x in xs])


# Not graded: a scratch run (F6 in the app, `jittrainer run normalize_rows` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    xs = jnp.arange(12.0).reshape(3, 4)
    print(normalize_rows(xs))
