#!/usr/bin/env bash
# Builds dist/memgraph-gui/ (a one-folder app with memgraph-gui and memgraph) with PyInstaller.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/bootstrap.sh"
"$ROOT/.venv/bin/python" -m pip install -q -e "$ROOT[package]"
cd "$ROOT"
"$ROOT/.venv/bin/pyinstaller" --noconfirm --clean packaging/memgraph_gui.spec
echo "built: $ROOT/dist/memgraph-gui/"
