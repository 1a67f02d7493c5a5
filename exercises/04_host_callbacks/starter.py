import jax
import jax.numpy as jnp


def report(step, value):
    # Runs on the host with plain numbers: here it just shows the running sum.
    print(f"step {step}: s = {value}")


@jax.jit
def train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        # TODO: a plain Python call runs only while JAX traces train (with tracers), never on later calls.
        report(t, s)
    return s


# Not graded: a scratch run (F6 in the app, `jittrainer run host_callbacks` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    print(train(jnp.arange(5.0)))
    print(train(jnp.ones(5)))
