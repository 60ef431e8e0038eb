#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The tree stays as clang-format writes it (.clang-format): fails naming every C++ file git tracks
# that `clang-format` would change. Format what you touch with `git clang-format` or
# `clang-format -i FILE`.
#
#   tests/format/check_format.sh [SOURCE_DIR]     (default: the repository holding this script)
set -euo pipefail
src="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
cd "$src"
command -v clang-format >/dev/null || { echo "check_format: clang-format is not installed (scripts/setup.sh installs it)" >&2; exit 1; }
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "check_format: $src is not a git checkout; nothing to check" >&2
  exit 0
fi
bad=0
while IFS= read -r -d '' f; do
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "check_format: $f is not formatted (clang-format -i $f)" >&2
    bad=$((bad + 1))
  fi
done < <(git ls-files -z -- '*.cpp' '*.h')
if ((bad)); then
  echo "check_format: $bad file(s) differ from clang-format's output" >&2
  exit 1
fi
echo "check_format: every tracked C++ file is formatted"
