#!/usr/bin/env bash
# A sweep as a Slurm array job: N shards (`moqbench sweep --shard I/N`), one array task each, and
# a merge job that runs once all of them succeeded (`moqbench merge`, which refuses shards of
# different builds or sweeps and names missing cases). Run it on a login node of a cluster whose
# nodes share OUTDIR and the moqbench binary:
#
#   tools/recipes/slurm-sweep.sh MOQBENCH N OUTDIR [sweep arguments...]
#   e.g. tools/recipes/slurm-sweep.sh build/release/harness/cli/moqbench 16 /scratch/sweep \
#          --scenario delivery --viewers 16,64,256 --counter callgrind
#
# Leaves OUTDIR/shard-I.json per task and OUTDIR/all.json; prints the two job ids. Extra sbatch
# options (partition, time, account) come from SBATCH_* environment variables, as sbatch reads
# them. tests/harness/slurm-recipe-test runs it against a stand-in sbatch, and
# tests/harness/slurm-cluster-test on a one-node cluster it starts.
set -euo pipefail
usage="usage: slurm-sweep.sh MOQBENCH N OUTDIR [sweep arguments...]"
moqbench=$(realpath "${1:?$usage}")
shards=${2:?$usage}
out=${3:?$usage}
shift 3
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "slurm-sweep.sh: N must be a whole number >= 1" >&2; exit 2; }
mkdir -p "$out"
out=$(realpath "$out")
sweep_args=$(printf ' %q' "$@")
out_q=$(printf '%q' "$out")
array=$(sbatch --parsable --job-name=moqbench-sweep --array="1-$shards" \
  --output="$out/shard-%a.log" \
  --wrap="$(printf '%q' "$moqbench") sweep$sweep_args --shard \"\$SLURM_ARRAY_TASK_ID/$shards\" --out $out_q/shard-\$SLURM_ARRAY_TASK_ID.json")
merge=$(sbatch --parsable --job-name=moqbench-merge --dependency="afterok:$array" \
  --output="$out/merge.log" \
  --wrap="$(printf '%q' "$moqbench") merge $out_q/shard-*.json --out $out_q/all.json")
echo "shards: job $array (array 1-$shards); merge: job $merge -> $out/all.json"
