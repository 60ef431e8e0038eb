#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The parameter tables of docs/ are the output of `gapsim-cli params ... --markdown`, never kept
# by hand. In a Markdown file a table sits between
#   <!-- generated: params ARGS -->
#   <!-- end generated -->
# and is the output of `gapsim-cli params ARGS --markdown`.
#
#   scripts/param_tables.sh CLI            rewrite every such table in docs/
#   scripts/param_tables.sh CLI --check    exit 1 naming each table that differs (ctest docs_param_tables)
set -euo pipefail
cli=${1:?usage: param_tables.sh GAPSIM_CLI [--check]}
mode=${2:-write}
root=$(cd "$(dirname "$0")/.." && pwd)
status=0
for doc in "$root"/docs/*.md; do
  grep -q '^<!-- generated: params ' "$doc" || continue
  tmp=$(mktemp)
  # Copy the file, replacing what lies between each marker pair by the command's output.
  inside=0
  while IFS= read -r line || [[ -n $line ]]; do
    if [[ $line =~ ^\<\!--\ generated:\ params\ (.*)\ --\>$ ]]; then
      printf '%s\n' "$line" >>"$tmp"
      read -r -a args <<<"${BASH_REMATCH[1]}"
      if ! (cd "$root" && "$cli" params "${args[@]}" --markdown) >>"$tmp"; then
        echo "param_tables: $doc: \`gapsim-cli params ${BASH_REMATCH[1]} --markdown\` failed" >&2
        status=1
      fi
      inside=1
    elif [[ $line == '<!-- end generated -->' ]]; then
      printf '%s\n' "$line" >>"$tmp"
      inside=0
    elif ((inside == 0)); then
      printf '%s\n' "$line" >>"$tmp"
    fi
  done <"$doc"
  if ((inside)); then
    echo "param_tables: $doc: a '<!-- generated: params' marker has no '<!-- end generated -->'" >&2
    status=1
  fi
  if [[ $mode == --check ]]; then
    if ! diff -u "$doc" "$tmp" >&2; then
      echo "param_tables: $doc is not what gapsim-cli prints; run scripts/param_tables.sh build/gapsim-cli" >&2
      status=1
    fi
    rm -f "$tmp"
  else
    cat "$tmp" >"$doc"
    rm -f "$tmp"
  fi
done
exit $status
