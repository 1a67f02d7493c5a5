import jax
import jax.numpy as jnp


@jax.jit
def _loss(batch):
    pred, target = batch["pred"], batch["target"]
    weight = batch.get("weight")
    if weight is None:
        weight = jnp.ones_like(pred)

    def wmse(a):
        return jnp.sum(weight * (a - target) ** 2) / jnp.sum(weight)

    heads = batch.get("aux") or []
    aux_term = sum(wmse(h) for h in heads) / len(heads) if heads else 0.0
    return wmse(pred) + 0.5 * aux_term


def batch_loss(batch):
    # TODO: every batch brings its own mix of optional entries (a key present or missing, None,
    # a list of 0 to 3 arrays), so _loss sees a new pytree structure and is traced and compiled again.
    return _loss(batch)


# Not graded: a scratch run (F6 in the app, `jittrainer run pytree_structure` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    pred, target = np.ones(4, np.float32), np.zeros(4, np.float32)
    print(batch_loss({"pred": pred, "target": target}))
    print(batch_loss({"pred": pred, "target": target, "weight": None}))
    print(batch_loss({"pred": pred, "target": target, "aux": [pred]}))
