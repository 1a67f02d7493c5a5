"""Proving cards: every card's proof runs in a fresh grading worker, and what it yields must be the card's answer.

A JAX upgrade that changes a behaviour makes validation fail, instead of letting a card teach something that is no
longer true. The sandbox side of a proof is ``jittrainer.grading.sandbox.proofs``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jittrainer.course.drills.loader import _name, load_drills
from jittrainer.course.drills.model import NO_EXCEPTION, PLATFORMS, Card, Deck, normalize_output

@dataclass
class ProofResult:
    card: str
    file: str
    ok: bool
    problem: str = ""
    observed: Any = None
    seconds: float = 0.0
    jax_version: str = ""
    skipped: bool = False  # the card's jax range excludes the installed JAX, or it needs an accelerator: not run


def observe(card: Card, run: dict[str, Any]) -> tuple[Any, str]:
    """What a proof run yielded for the card's ``proof.observe``, or (None, why) when it yielded nothing usable."""
    kind = card.proof.observe
    raised = run.get("raised")
    if kind == "raises":
        if raised is None:
            return NO_EXCEPTION, ""
        return raised, ""
    if raised is not None:
        return None, f"the proof raised {raised['type']}: {raised.get('message', '')}".rstrip(": ")
    if kind == "stdout":
        return normalize_output(run.get("stdout", "")), ""
    if kind == "lines":
        return sum(1 for line in str(run.get("stdout", "")).splitlines() if line.strip()), ""
    if kind in ("traces", "compiles"):
        counts = run.get(kind) or {}
        name = card.proof.function
        names = {name} if kind == "traces" else {name, f"jit({name})"}
        return sum(int(n) for fun, n in counts.items() if fun in names), ""
    if "answer" not in run:
        return None, "the proof never set the variable `answer`"
    return run["answer"], ""


def matches(card: Card, observed: Any) -> bool:
    expected = card.expected_observation()
    kind = card.proof.observe
    if kind == "raises":
        if expected == NO_EXCEPTION:
            return observed == NO_EXCEPTION
        return isinstance(observed, dict) and observed.get("type") == expected
    if kind == "stdout":
        return normalize_output(observed) == normalize_output(expected)
    if isinstance(expected, bool) or isinstance(observed, bool):
        return type(expected) is type(observed) and expected == observed
    return observed == expected


def describe_observation(card: Card, observed: Any) -> str:
    kind = card.proof.observe
    if kind == "raises":
        if observed == NO_EXCEPTION:
            return "no exception"
        return f"{observed['type']}: {observed.get('message', '')}".rstrip(": ")
    if kind in ("traces", "compiles"):
        return f"{observed} {kind[:-1] if observed == 1 else kind} of {card.proof.function}"
    if kind == "lines":
        return f"{observed} printed line{'s' if observed != 1 else ''}"
    if kind == "stdout":
        return repr(observed)
    return f"answer = {observed!r}"


def judge_proof(card: Card, run: dict[str, Any], name: str = "") -> ProofResult:
    """Compare one proof run (the worker's result dict) with the card's answer."""
    name = name or card.path.name
    version = str(run.get("jax_version", ""))
    seconds = round(float(run.get("task_s", 0.0) or 0.0) + float(run.get("start_s", 0.0) or 0.0), 3)
    if not run.get("ok"):
        error = str(run.get("error", "unknown error")).strip().splitlines()
        return ProofResult(card.id, name, False, f"{name}: the proof did not run: {error[-1] if error else '?'}",
                           seconds=seconds, jax_version=version)
    if run.get("setup_raised"):
        raised = run["setup_raised"]
        return ProofResult(card.id, name, False, f"{name}: the proof's setup failed, so the question's premise does "
                           f"not hold here: {raised['type']}: {raised.get('message', '')}".rstrip(": "),
                           seconds=seconds, jax_version=version)
    observed, why = observe(card, run)
    on = f"jax {version}" if version else "the installed jax"
    if why:
        return ProofResult(card.id, name, False, f"{name}: {why} (on {on})", seconds=seconds, jax_version=version)
    if matches(card, observed):
        return ProofResult(card.id, name, True, observed=observed, seconds=seconds, jax_version=version)
    expected = card.expected_observation()
    want = describe_observation(card, expected if card.proof.observe != "raises" or expected == NO_EXCEPTION
                                else {"type": expected})
    stated = f"choice {card.answer}" if card.kind in ("choice", "bug") else repr(card.answer_text())
    problem = (f"{name}: the card's answer ({stated}) needs {want}, "
               f"but running its proof on {on} gave {describe_observation(card, observed)}")
    return ProofResult(card.id, name, False, problem, observed=observed, seconds=seconds, jax_version=version)


def run_proof(card: Card) -> dict[str, Any]:
    """Run the card's proof in a fresh worker; the facts it yielded, as one dict (see ``judge_proof``)."""
    from jittrainer.grading.host.tasks import prove

    outcome = prove(card.id, card.proof_code, card.proof.setup, card.proof.timeout_s)
    return {**outcome.data, "ok": outcome.ok, "error": outcome.error, "start_s": outcome.start_s,
            "task_s": outcome.task_s}


def default_jobs() -> int:
    """Proof workers in parallel: twice the CPUs, since a worker spends much of its start-up waiting, not
    computing (measured: ~0.65 s of CPU in ~1.5 s of wall time to import jax)."""
    return max(2, min(2 * (os.cpu_count() or 1), 16))


def prove_cards(
    cards: Sequence[Card],
    *,
    jobs: int | None = None,
    on_result: Callable[[str, bool], None] | None = None,
    run_task: Callable[[Card], dict[str, Any]] = run_proof,
    root: Path | None = None,
) -> list[ProofResult]:
    """Run every available card's proof, each in its own fresh worker (no JAX cache is shared between cards),
    ``jobs`` at a time (default: ``default_jobs()``). Unavailable cards are reported without running.
    ``on_result(line, ok)`` is called once per card, from the pool's threads."""
    results: list[ProofResult] = []

    def label(card: Card) -> str:
        base = root if root is not None else card.path.parent.parent
        return _name(card.path, base)

    def prove(card: Card) -> ProofResult:
        run = run_task(card)
        result = judge_proof(card, run, label(card))
        if on_result:
            on_result(result.problem or f"{result.file}: proved ({describe_observation(card, result.observed)})",
                      result.ok)
        return result

    from jittrainer.course.versions import installed_jax

    runnable = []
    for card in cards:
        if card.problems:
            result = ProofResult(card.id, label(card), False, "; ".join(card.problems))
            results.append(result)
            if on_result:
                on_result(card.problems[0], False)
        elif not card.applies():
            results.append(ProofResult(card.id, label(card), True, skipped=True, jax_version=installed_jax()))
            if on_result:
                on_result(f"{label(card)}: skipped: its answer is about jax {card.jax}, and jax {installed_jax()} "
                          f"is installed (learners on this JAX do not get the card)", True)
        elif card.platform:
            results.append(ProofResult(card.id, label(card), True, skipped=True, jax_version=installed_jax()))
            if on_result:
                on_result(f"{label(card)}: not proved here: its answer is about {PLATFORMS[card.platform]} "
                          f"(platform = {card.platform!r}) and proofs run on CPU devices; it was proved on "
                          f"{card.proof.proved_on} (python -m jittrainer.course.drills.onplatform there)", True)
        else:
            runnable.append(card)
    with ThreadPoolExecutor(max_workers=max(1, jobs or default_jobs())) as pool:
        results.extend(pool.map(prove, runnable))
    return results


def verify_cards(
    cards: Sequence[Card] | Deck | None = None,
    jobs: int | None = None,
    on_result: Callable[[str, bool], None] | None = None,
    languages: bool = False,
) -> list[str]:
    """What ``jittrainer validate`` calls: every card loads cleanly and its proof, run on the installed JAX,
    yields the card's answer. Returns the problems, one line each (empty: all good). ``cards`` defaults to the
    bundled deck; passing a ``Deck`` also reports deck-wide problems (topics.toml, no cards, ...)."""
    problems: list[str] = []
    if cards is None:
        cards = load_drills()
    if isinstance(cards, Deck):
        problems.extend(cards.problems)
        for problem in cards.problems:
            if on_result:
                on_result(problem, False)
        cards = cards.cards
    if languages:
        from jittrainer.course.drills.languages import check_card_languages

        for card in cards:
            for problem in check_card_languages(card):
                problems.append(problem)
                if on_result:
                    on_result(problem, False)
    for result in prove_cards(list(cards), jobs=jobs, on_result=on_result):
        if not result.ok:
            problems.append(result.problem)
    return problems
