#!/usr/bin/env bash
# The shipped robot files are scripts/gen_robots.py's output: regenerates them into a temporary
# tree and compares byte for byte, so that a hand edit of a generated file (which the next
# regeneration would silently undo) fails here. Needs the robot data beside the repository
# (../shared/robot-data and ../shared/real-data, or GAPSIM_ROBOT_DATA / GAPSIM_REAL_DATA);
# without it the test is skipped (exit 77), saying why.
#   tests/robots/check_generated.sh SOURCE_DIR
set -euo pipefail
src=${1:?usage: $0 SOURCE_DIR}
data=${GAPSIM_ROBOT_DATA:-$src/../shared/robot-data}
real=${GAPSIM_REAL_DATA:-$src/../shared/real-data}
if [ ! -d "$data" ] || [ ! -d "$real/bioloid" ]; then
  echo "SKIP: the robot data the generator reads is not beside the repository ($data, $real/bioloid)"
  exit 77
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 "$src/scripts/gen_robots.py" --data "$data" --real "$real" --out "$out" > "$out/log.txt" 2>&1 ||
  { cat "$out/log.txt"; echo "FAIL: scripts/gen_robots.py failed"; exit 1; }
bad=0
# every file the generator writes (log.txt is this script's)
while IFS= read -r f; do
  if ! cmp -s "$src/$f" "$out/$f"; then
    echo "FAIL: $f differs from what scripts/gen_robots.py writes (edit the generator, then run it):"
    diff "$out/$f" "$src/$f" | head -20 || true
    bad=1
  fi
done < <(cd "$out" && find robots -type f | sort)
[ -n "$(cd "$out" && find robots -type f)" ] || { echo "FAIL: scripts/gen_robots.py wrote no robot file"; exit 1; }
((bad)) || echo "OK: the shipped robot files are the generator's output"
exit $bad
