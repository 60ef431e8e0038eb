#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Layering: the targets point one way, motorgear (std + Eigen) <- sim (+ ODE) <- calib <- app (the
# only Qt target). Fails, printing file:line and the rule, if
#   - a Qt header (<QString>, <QtCore/...>, <QtTest>, ...) is included outside app/ (tests/gui/,
#     the GUI's own tests, counts as app/),
#   - an ODE header (<ode/...>) is included outside sim/,
#   - motorgear/ includes sim/, calib/ or app/; sim/ includes calib/ or app/; calib/ includes app/.
# The library rules apply to the library directories; tests may use the layers above the one they
# test. Build directories (any directory holding a CMakeCache.txt) and hidden ones are skipped.
#
#   tests/layering/check_includes.sh [SOURCE_DIR]     (default: the repository holding this script)
set -euo pipefail
src="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
cd "$src"

# Every C/C++ file, relative to the source directory, without build trees and hidden directories.
files=()
while IFS= read -r -d '' f; do files+=("${f#./}"); done < <(
  find . \( -name '.*' -a ! -name . -o -exec test -e '{}/CMakeCache.txt' \; \) -prune -o \
       -type f \( -name '*.h' -o -name '*.hh' -o -name '*.hpp' -o -name '*.hxx' -o -name '*.inl' \
                  -o -name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' \) -print0 | sort -z)
if ((${#files[@]} == 0)); then
  echo "check_includes: no C/C++ files under $src" >&2
  exit 2
fi

include_re='#[[:space:]]*include[[:space:]]*[<"]([^>"]*)'
violations=0
report() {  # file line rule text
  echo "$1:$2: $3: $4"
  violations=$((violations + 1))
}

for f in "${files[@]}"; do
  case "$f" in
    app/*|tests/gui/*) layer=app ;;
    sim/*) layer=sim ;;
    calib/*) layer=calib ;;
    motorgear/*) layer=motorgear ;;
    *) layer=other ;;
  esac
  # "line:#include <path>" for every include directive (not for commented-out ones).
  while IFS= read -r hit; do
    line="${hit%%:*}"
    text="${hit#*:}"
    path=""
    [[ "$text" =~ $include_re ]] && path="${BASH_REMATCH[1]}"
    # A relative path ("../sim/x.h") names the same directory as a rooted one ("sim/x.h").
    while [[ "$path" == ../* ]]; do path="${path#../}"; done
    if [[ "$path" == Q* && "$layer" != app ]]; then
      report "$f" "$line" "Qt include outside app/" "$text"
    fi
    if [[ "$path" == ode/* && "$layer" != sim ]]; then
      report "$f" "$line" "ODE include outside sim/" "$text"
    fi
    case "$layer:$path" in
      motorgear:sim/*|motorgear:calib/*|motorgear:app/*)
        report "$f" "$line" "motorgear includes ${path%%/*}/" "$text" ;;
      sim:calib/*|sim:app/*)
        report "$f" "$line" "sim includes ${path%%/*}/" "$text" ;;
      calib:app/*)
        report "$f" "$line" "calib includes app/" "$text" ;;
    esac
  done < <(grep -n -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "$f" || true)
done

if ((violations)); then
  echo "check_includes: $violations layering violation(s) in ${#files[@]} files (see tests/layering/check_includes.sh)"
  exit 1
fi
echo "check_includes: ${#files[@]} files, no layering violation"
