#!/usr/bin/env bash
# Is the default walk smooth enough for calibration? (1) The 200 mm/s walk, full pipeline, at the
# defaults, with ten QuickStep seeds: spread of the distance walked in 10 s. (2) The same walk
# with each parameter of the walking twin's space (calib/examples/nao_walk_twin/space.csv) moved
# by +-0.5 %: change of the distance. Prints both tables; about 1 minute on 2 cores.
#
#   scripts/walk_chaos.sh [CLI] [MOTION]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cli="${1:-build/gapsim-cli}"
motion="${2:-robots/nao/motions/walk_200mm_s_1s.csv}"
dist() { "$cli" run --robot nao --motion "$motion" --duration 10 --quiet "$@" | sed -n 's/.*distance_m=\([^ ]*\).*/\1/p'; }
echo "motion $motion, full pipeline, defaults, 10 s"
seeds=()
for s in 0 1 2 3 4 5 6 7 8 9; do seeds+=("$(dist --seed "$s")"); done
python3 - "${seeds[@]}" <<'PY'
import sys, statistics as st
d = [float(x) for x in sys.argv[1:]]
m = st.mean(d)
print("seeds 0-9: distance_m " + " ".join(f"{x:.4f}" for x in d))
print(f"  mean {m:.4f} m, spread (max-min)/mean {100*(max(d)-min(d))/m:.2f} %, std/mean {100*st.pstdev(d)/m:.2f} %  (target: spread < 1 %)")
PY
base=$(dist)
echo "parameter                    -0.5 %     +0.5 %   (distance change relative to $base m; target < 3 %)"
while IFS=, read -r name value _; do
  [[ "$name" == name || "$name" == \#* || -z "$name" ]] && continue
  lo=$(python3 -c "print(repr($value*0.995))"); hi=$(python3 -c "print(repr($value*1.005))")
  dl=$(dist --set "$name=$lo"); dh=$(dist --set "$name=$hi")
  python3 -c "b=$base; print(f'{\"$name\":28s} {100*($dl-b)/b:+7.2f} %  {100*($dh-b)/b:+7.2f} %')"
done < calib/examples/nao_walk_twin/space.csv
