#!/usr/bin/env bash
# Kill and resume: a run stopped by SIGKILL at any moment and resumed ends with the same files,
# byte for byte, as the run that was never stopped.
#
#   tests/app/kill_resume_test.sh CLI COMMAND              every commit point, in turn
#   tests/app/kill_resume_test.sh CLI COMMAND --random N   N kills at random moments
#                                                          (GAPSIM_KILL_SEED=S repeats a series)
#
# COMMAND: calibrate, optimize-controller or loop (the smallest budgets that still run every step;
# the loop's, about 30 commits of a run that takes half a minute, is for the random mode).
#
# Every file these commands write goes through one function, calib::writeFileAtomically (a
# temporary file, then a rename), and nothing on disk changes between two of its commits. So the
# states a kill can leave are exactly "killed just before commit N" (its temporary file written,
# not renamed) and "killed just after commit N", for N = 1..K: GAPSIM_KILL_AT_COMMIT=N and N:after
# make the process SIGKILL itself there. The every-point mode runs all 2K of them; K is found as
# the first N at which the run completes without being killed. The random mode instead sends
# `kill -9` from outside after a random sleep, the way a user or a batch system does (worker
# processes included: they must go away on their own).
#
# After each kill: `--resume DIR` must complete. Killed before its first checkpoint, the resume is
# refused (exit 2, saying to start again) and the original command, without --force, must then
# complete in the same directory. Then the output directory must equal the uninterrupted run's:
# the same files (no temporary file left behind), the same bytes.
set -euo pipefail
cli="$1"
command="$2"
random=0
if [[ "${3:-}" == "--random" ]]; then random="${4:-20}"; fi
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d /tmp/gapsim_kill_resume.XXXXXX)"
trap 'rm -rf "$work"' EXIT
example="$src/calib/examples/nao_twin"

# Every run writes into $work/run (checkpoints record absolute paths, so the uninterrupted run and
# the killed ones must use the same one); the uninterrupted run's files are moved to $work/ref.
run_dir="$work/run"
case "$command" in
  calibrate)
    # One training, one validation and one held-out scenario of 0.2 s: every kind of file a
    # calibration writes (validation.csv and warnings.txt too), generations of a fraction of a second.
    mkdir -p "$work/set"
    cat > "$work/set/set.csv" <<EOF
name,motion,reference,duration_s,weight,role
squat_fast,$example/motions/squat_fast.csv,reference/squat_fast.csv,0.2,1,train
sway,$example/motions/sway.csv,reference/sway.csv,0.2,1,validate
squat_slow,$example/motions/squat_slow.csv,reference/squat_slow.csv,0.2,1,holdout
EOF
    "$cli" twin --robot nao --params "$example/hidden.params" --scenarios "$work/set/set.csv" \
        --out "$work/set/reference" >/dev/null
    fresh=("$cli" calibrate --robot nao --space "$example/space.csv" --scenarios "$work/set/set.csv"
           --generations 2 --lambda 4 --seed 7 --jobs 2 --out "$run_dir")
    resume=("$cli" calibrate --resume "$run_dir" --jobs 2)
    ok_codes="0"
    ;;
  optimize-controller)
    # Each evaluation simulates a whole rise (seconds of CPU): one generation of two.
    fresh=("$cli" optimize-controller --robot bioloid --task lean --keyframes 1 --generations 1 --population 2
           --seed 5 --workers 2 --out "$run_dir/lean.csv")
    resume=("$cli" optimize-controller --resume "$run_dir/lean.csv.run" --workers 2)
    ok_codes="0"
    ;;
  loop)
    fresh=("$cli" loop --task lean --reality twin --iterations 1 --init-dir "$src/tests/app/data/loop_init"
           --generations 1 --population 2 --cal-generations 2 --cal-population 2 --seed 3 --jobs 2 --out "$run_dir")
    resume=("$cli" loop --resume "$run_dir" --jobs 2)
    # The tiny loop ends with its task still failing on the twin: exit 1, the same every time.
    ok_codes="1"
    ;;
  *)
    echo "kill_resume_test: unknown command '$command'" >&2
    exit 2
    ;;
esac
# The state file --resume reads (its absence: killed before the first one was committed).
case "$command" in
  optimize-controller) state_file="$run_dir/lean.csv.run/checkpoint.json" ;;
  calibrate) state_file="$run_dir/checkpoint.json" ;;
  loop) state_file="$run_dir/loop.json" ;;
esac

fail=0
complain() {
  echo "FAIL: $*" >&2
  fail=1
}

# Runs "$@" with its output in $work/out.txt; returns its exit code (never stops the script).
# The outer 2>/dev/null takes bash's own "Killed" line: the kills are intended.
run() {
  local code=0
  { "$@" >"$work/out.txt" 2>&1; } 2>/dev/null || code=$?
  return "$code"
}

expect_ok() {  # what, code
  [[ " $ok_codes " == *" $2 "* ]] && return 0
  complain "$1: exit $2"
  sed 's/^/    /' "$work/out.txt" | tail -n 15 >&2
  return 1
}

# Resumes the killed run in $run_dir (or starts it again if it had no checkpoint yet) and compares
# its files with the uninterrupted run's.
resume_and_compare() {  # label
  local label="$1" code=0
  if [[ -f "$state_file" ]]; then
    run "${resume[@]}" || code=$?
    expect_ok "$label: the resume" "$code" || return 0
  else
    run "${resume[@]}" || code=$?
    if [[ "$code" != 2 ]] || ! grep -Eq "no (checkpoint|loop state) (to resume from|here)|not a results directory" "$work/out.txt"; then
      complain "$label: no checkpoint, yet the resume did not refuse with exit 2 (exit $code)"
      sed 's/^/    /' "$work/out.txt" | tail -n 15 >&2
    fi
    code=0
    run "${fresh[@]}" || code=$?
    expect_ok "$label: the same command again, in the directory the killed run left" "$code" || return 0
  fi
  if ! diff -r "$work/ref" "$run_dir" >"$work/diff.txt" 2>&1; then
    complain "$label: the resumed run's files differ from the uninterrupted run's"
    head -n 40 "$work/diff.txt" | sed 's/^/    /' >&2
  fi
}

start=$SECONDS
code=0
run "${fresh[@]}" || code=$?
expect_ok "the uninterrupted run" "$code" || exit 1
full_s=$((SECONDS - start))
mv "$run_dir" "$work/ref"
files=$(cd "$work/ref" && find . -type f | wc -l)

if ((random == 0)); then
  # Killed just before and just after each commit N, until a run gets through without a kill.
  n=1
  while :; do
    rm -rf "$run_dir"
    code=0
    GAPSIM_KILL_AT_COMMIT=$n run "${fresh[@]}" || code=$?
    if [[ "$code" != 137 ]]; then
      expect_ok "not killed at commit $n: the run" "$code" || exit 1
      break
    fi
    resume_and_compare "killed before commit $n"
    rm -rf "$run_dir"
    code=0
    GAPSIM_KILL_AT_COMMIT=$n:after run "${fresh[@]}" || code=$?
    if [[ "$code" != 137 ]]; then
      complain "GAPSIM_KILL_AT_COMMIT=$n:after: exit $code, not killed, though $n:before was"
    else
      resume_and_compare "killed after commit $n"
    fi
    n=$((n + 1))
  done
  commits=$((n - 1))
  # Each file is committed at least once: fewer commits than files means a file is written some
  # other way, and no kill point covers it.
  if ((commits < files)); then
    complain "$commits commits for $files files: a file is written without writeFileAtomically"
  fi
  echo "kill_resume $command: $commits commits ($files files), killed before and after each and resumed:" \
       "$([[ $fail == 0 ]] && echo identical || echo DIFFERENCES) ($((SECONDS - start)) s)"
else
  # Random moments: a uniform sleep over the uninterrupted run's wall time (plus a margin, so
  # some kills come after the end too), then SIGKILL to the main process only.
  seed="${GAPSIM_KILL_SEED:-$$}"
  RANDOM=$seed  # the same seed, the same kill moments (as far as timing repeats)
  echo "kill_resume $command: random kills, GAPSIM_KILL_SEED=$seed"
  span_ms=$(((full_s + 1) * 1000))
  finished=0
  for ((i = 1; i <= random; i++)); do
    rm -rf "$run_dir"
    delay_ms=$((RANDOM * 32768 + RANDOM))
    delay_ms=$((delay_ms % span_ms))
    "${fresh[@]}" >"$work/out.txt" 2>&1 &
    pid=$!
    sleep "$((delay_ms / 1000)).$(printf %03d $((delay_ms % 1000)))"
    # The workers of a killed process read EOF on their sockets and exit: none may linger.
    workers=$(pgrep -P "$pid" || true)
    kill -9 "$pid" 2>/dev/null || true
    code=0
    { wait "$pid"; } 2>/dev/null || code=$?
    for _ in $(seq 50); do
      alive=0
      for w in $workers; do kill -0 "$w" 2>/dev/null && alive=1; done
      ((alive)) || break
      sleep 0.1
    done
    ((alive == 0)) || complain "random kill $i: worker processes $workers still run 5 s after their parent was killed"
    [[ "$code" == 137 ]] || finished=$((finished + 1))
    resume_and_compare "random kill $i after $delay_ms ms (exit $code)"
    echo "random kill $i/$random: after $delay_ms ms of about $((full_s * 1000)) ms, exit $code:" \
         "$([[ $fail == 0 ]] && echo identical || echo DIFFERENT)"
  done
  echo "kill_resume $command: $random random kills ($finished runs had finished before theirs), resumed:" \
       "$([[ $fail == 0 ]] && echo identical || echo DIFFERENCES) ($((SECONDS - start)) s)"
fi
exit "$fail"
