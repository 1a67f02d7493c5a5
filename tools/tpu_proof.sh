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
# One process, one executor, the chip opened once, for every course solution the CPU can grade alone;
# those graded on several devices, or whose program cannot be exported, stay on the CPU and say why.
python3 tools/tpu_proof.py "$OUT/proof.json" $(ls exercises | grep '^[0-9]' | grep -v '^45_\|^46_')
echo "proof exit $?"
# The accelerator exercises: every graded file held to what it declares, the chip deciding each device check; then
# the whole course through validate, its device checks on the chip.
python3 tools/tpu_proof.py --files "$OUT/files.json" 45_matmul_precision 46_tpu_layout
echo "files exit $?"
python3 -m jittrainer validate --device tpu --json > "$OUT/validate.json"
echo "validate --device tpu exit $?"
