"""Proving the cards whose answer is about an accelerator (``platform = "tpu"``), on that accelerator.

``validate`` runs every proof in a grading worker, on simulated CPU devices, so it skips these cards and says where
they were proved (``proof.proved_on``). On a machine with the accelerator, this runs their proofs in this process, on
its default backend, with the same snippet runner and the same judgement as a worker's, and prints one line per card:

    python -m jittrainer.course.drills.onplatform [ID ...]      # default: every card with a platform

It exits 1 when a proof fails or the backend is not the card's platform. It imports jax (it is a tool for the
accelerator machine, never imported by the CLI or the app).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Any

from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.model import Card
from jittrainer.course.drills.proofs import ProofResult, describe_observation, judge_proof


class _Here:
    """What the sandbox's proof runner needs from a worker: a compile watch (traces and compiles per function)."""

    def __init__(self) -> None:
        from jittrainer.grading.sandbox.compile_watch import CompileWatch

        self.watch = CompileWatch()


def prove_here(card: Card) -> ProofResult:
    """Run ``card``'s proof in this process, on the default backend, and judge it as ``validate`` does."""
    import jax

    from jittrainer.grading.protocol import ProofJob
    from jittrainer.grading.sandbox.proofs import run_proof

    backend = jax.default_backend()
    if backend != card.platform:
        return ProofResult(card.id, card.path.name, False, f"{card.path.name}: its answer is about {card.platform}, "
                           f"and this process runs on {backend}", jax_version=jax.__version__)
    started = time.perf_counter()
    data: dict[str, Any] = run_proof(_Here(), ProofJob(card=card.id, code=card.proof_code, setup=card.proof.setup,
                                                       token=""))
    data.update(ok=True, task_s=time.perf_counter() - started)
    return judge_proof(card, data)


def main(argv: Sequence[str] | None = None) -> int:
    ids = list(sys.argv[1:] if argv is None else argv)
    deck = load_drills()
    cards = [c for c in deck.cards if c.platform and (not ids or c.id in ids)]
    missing = set(ids) - {c.id for c in cards}
    if missing:
        print(f"no card with a platform called {', '.join(sorted(missing))}")
        return 1
    import jax

    device = jax.devices()[0]
    print(f"{len(cards)} card(s) on {getattr(device, 'device_kind', device.platform)}, jax {jax.__version__}")
    failed = 0
    for card in cards:
        if card.problems:
            result = ProofResult(card.id, card.path.name, False, "; ".join(card.problems))
        else:
            result = prove_here(card)
        failed += not result.ok
        line = result.problem or f"{card.path.name}: proved ({describe_observation(card, result.observed)})"
        print(f"  {'✓' if result.ok else '✗'} {line}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
