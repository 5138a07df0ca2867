#!/usr/bin/env bash
# Sets everything up on first use, then runs the whole test suite offscreen. Exit code is pytest's,
# except that "no tests collected" (5) is a failure too.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/bootstrap.sh" || exit 1
cd "$ROOT"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
"$ROOT/.venv/bin/python" -m pytest "$@"
rc=$?
if [ "$rc" -eq 5 ]; then echo "memgraph: no tests were collected — treating as a failure" >&2; exit 1; fi
exit "$rc"
