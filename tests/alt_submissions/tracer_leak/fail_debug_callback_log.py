# expect: no_leak
# The state is threaded correctly, but every new mean is also logged into a module-level list through
# jax.debug.callback: values computed inside center kept outside it.
import jax

MEANS = []


def center(state, x):
    count = state["count"] + x.shape[0]
    mean = state["mean"] + (x.sum(axis=0) - x.shape[0] * state["mean"]) / count
    jax.debug.callback(lambda m: MEANS.append(m), mean)
    return {"mean": mean, "count": count}, x - mean
