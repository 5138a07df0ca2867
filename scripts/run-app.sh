#!/usr/bin/env bash
# Sets everything up on first use, then starts memgraph-gui (on the bundled demo when no file is given).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/bootstrap.sh"
exec "$ROOT/.venv/bin/memgraph-gui" "$@"
