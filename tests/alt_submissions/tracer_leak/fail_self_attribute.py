# expect: no_leak
# Object-oriented habit: the running statistics are attributes of a tracker object, updated inside the jitted
# function. The attributes receive tracers.
import jax
import jax.numpy as jnp


class Tracker:
    def __init__(self):
        self.mean = None
        self.count = None


tracker = Tracker()


@jax.jit
def center(state, x):
    mean = tracker.mean if tracker.mean is not None else state["mean"]
    count = tracker.count if tracker.count is not None else state["count"]
    count = count + x.shape[0]
    mean = mean + (jnp.sum(x, axis=0) - x.shape[0] * mean) / count
    tracker.mean, tracker.count = mean, count
    return {"mean": mean, "count": count}, x - mean
