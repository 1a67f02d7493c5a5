import jax
import jax.numpy as jnp


@jax.jit
def seq_mean(s):
    return jnp.mean(s)


def batch_means(seqs):
    # TODO: every sequence has its own length, so every new length is a new input shape
    # and seq_mean is traced and compiled again for it.
    return [seq_mean(s) for s in seqs]


# Not graded: a scratch run (F6 in the app, `jittrainer run recompile_storm` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    seqs = [np.arange(n, dtype=np.float32) for n in range(1, 17)]
    print(batch_means(seqs))
