#!/usr/bin/env bash
# Golden logs: a small set of scenarios whose outputs are hashed and compared byte for byte with
# tests/golden/hashes.txt. They pin behaviour while code moves: a refactoring keeps every hash; a
# change that is meant to alter a result regenerates them in its own commit (--update) and says so.
#
#   tests/golden/golden.sh CLI [--update] [NAME...]
#
# Scenarios that need ../shared (real recordings) are skipped, with the reason, when it is absent.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$(cd "$here/../.." && pwd)"
cli="$1"; shift
update=0
if [[ "${1:-}" == "--update" ]]; then update=1; shift; fi
only=("$@")
shared="${GAPSIM_SHARED_DIR:-$src/../shared}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
hashes="$here/hashes.txt"
cd "$src"

# name | command (run in $work/<name>; every file it writes there is hashed) | needs shared (0/1)
scenarios=(
  "nao_stand_full|run --robot nao --motion robots/nao/motions/stand.csv --duration 3 --out OUT/log.csv|0"
  "nao_squat_full|run --robot nao --motion robots/nao/motions/squat.csv --out OUT/log.csv|0"
  "nao_squat_plain|run --robot nao --motion robots/nao/motions/squat.csv --plain --out OUT/log.csv|0"
  "nao_walk100_full|run --robot nao --motion robots/nao/motions/walk_100mm_s_1.5s.csv --duration 9 --out OUT/log.csv|0"
  "bioloid_lean|rise --task lean --controller robots/bioloid/controllers/lean.csv --out OUT/log.csv|0"
  "bioloid_replay_one|replay --recordings SHARED/real-data/bioloid --trials 0.02-01 --settle 0.5 --out OUT|1"
  "bioloid_paper_law_lean|rise --robot robots/bioloid/bioloid_paper_law.urdf --task lean --controller robots/bioloid/controllers/lean.csv --out OUT/log.csv|0"
  "bioloid_paper_law_replay_one|replay --robot robots/bioloid/bioloid_paper_law.urdf --recordings SHARED/real-data/bioloid --trials 0.02-01 --settle 0.5 --out OUT|1"
  "mabel_hop|run --robot mabel --controller hop --duration 3 --out OUT/log.csv|0"
  "nao_twin_calibration|calibrate --robot nao --space calib/examples/nao_twin/space.csv --scenarios calib/examples/nao_twin/scenarios.csv --optimizer cmaes --lambda 4 --generations 2 --sigma0 0.25 --backend serial --out OUT/cal|0"
)

fail=0
declare -A want
if [[ -f "$hashes" ]]; then
  while read -r h name; do [[ -n "$name" ]] && want["$name"]="$h"; done < "$hashes"
fi
declare -A got
for s in "${scenarios[@]}"; do
  IFS='|' read -r name cmd needs_shared <<< "$s"
  if ((${#only[@]})) && [[ ! " ${only[*]} " == *" $name "* ]]; then
    [[ -n "${want[$name]:-}" ]] && got["$name"]="${want[$name]}"
    continue
  fi
  if [[ "$needs_shared" == 1 && ! -d "$shared/real-data" ]]; then
    echo "SKIP $name: needs the real recordings in $shared/real-data (absent here)"
    [[ -n "${want[$name]:-}" ]] && got["$name"]="${want[$name]}"
    continue
  fi
  out="$work/$name"; mkdir -p "$out"
  c="${cmd//OUT/$out}"; c="${c//SHARED/$shared}"
  # shellcheck disable=SC2086
  if ! "$cli" $c > "$work/$name.stdout" 2>&1; then
    echo "FAIL $name: command failed: gapsim-cli $c"; tail -5 "$work/$name.stdout"; fail=1; continue
  fi
  # Hash every output file (sorted paths relative to the scenario's directory) except files that
  # carry wall times or absolute paths by design.
  h=$(cd "$out" && find . -type f ! -name 'progress*' ! -name '*.json' ! -name '*.txt' | LC_ALL=C sort |
      while read -r f; do printf '%s %s\n' "$f" "$(sha256sum < "$f" | cut -c1-64)"; done | sha256sum | cut -c1-16)
  got["$name"]="$h"
  if ((update)); then echo "UPDATE $name $h"
  elif [[ "${want[$name]:-}" == "$h" ]]; then echo "OK   $name $h"
  else
    echo "FAIL $name: hash $h, golden ${want[$name]:-none}"
    (cd "$out" && find . -type f | LC_ALL=C sort | while read -r f; do echo "     $f $(sha256sum < "$f" | cut -c1-16)"; done)
    fail=1
  fi
done
if ((update)); then
  for s in "${scenarios[@]}"; do IFS='|' read -r name _ _ <<< "$s"; [[ -n "${got[$name]:-}" ]] && echo "${got[$name]} $name"; done > "$hashes"
  echo "wrote $hashes"
fi
exit $fail
