#!/usr/bin/env bash
# The --device proof on the TPU machine (README, "Timing on an accelerator"). Nothing is downloaded there: the
# project's pure-Python dependencies travel as wheels in WHEELS (default .whl-tpu/; `pip download --no-deps` them
# here), and JAX 0.10.2 with jaxlib and libtpu is the machine's own. Results go to $OUT (default ./tpu-proof-out).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WHEELS=${WHEELS:-$ROOT/.whl-tpu}
OUT=${OUT:-$ROOT/tpu-proof-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/log.txt") 2>&1
PIP_CONFIG_FILE=/dev/null python3 -m pip install --isolated -q --no-index --no-deps --no-compile --no-cache-dir \
    --upgrade --target /tmp/site "$WHEELS"/*.whl || exit 1
export PYTHONPATH="$ROOT/src:${PYTHONPATH:-}:/tmp/site" JITTRAINER_HOME=/tmp/jth PYTHONUNBUFFERED=1
cd "$ROOT"
python3 -c 'import platform, jax; print("glibc", platform.libc_ver(), "jax", jax.__version__)'
python3 -m jittrainer doctor --device tpu
# The CLI path: one check, its executor opening the chip for this process.
t0=$(date +%s%N)
python3 -m jittrainer check frozen_globals exercises/02_frozen_globals/solution.py --timing --device tpu --no-review
rc=$?
echo "check --device tpu: $(( ($(date +%s%N) - t0) / 1000000 )) ms, exit $rc"
python3 -m jittrainer check frozen_globals exercises/02_frozen_globals/solution.py --timing --device tpu --json \
    --no-review > "$OUT/check.json"
# One process, one executor, the chip opened once: single-device course solutions, plus two that stay on the CPU.
python3 tools/tpu_proof.py "$OUT/proof.json" 02_frozen_globals 05_traced_if 07_unrolled_loop 08_static_shapes \
    12_static_argnums 19_weak_types 21_captured_constants 29_buffer_donation 34_jit_too_little 35_jit_numerics \
    42_grad_under_jit 43_remat_budget 04_host_callbacks 31_shard_map_psum
echo "proof exit $?"
