#!/usr/bin/env bash
# Shared set-up for run-app.sh and run-tests.sh: installs the Debian libraries Qt needs, creates
# .venv and installs the project with its test extras. Safe to run again; it skips what is done.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="${PYTHON:-python3}"

# Qt's offscreen platform needs these; the xcb ones are for a real X window.
DEB_PKGS=(libegl1 libgl1 libxkbcommon0 libfontconfig1 libfreetype6 libdbus-1-3 libglib2.0-0
          libxkbcommon-x11-0 libxcb1 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1
          libxcb-randr0 libxcb-render0 libxcb-render-util0 libxcb-shape0 libxcb-shm0 libxcb-sync1
          libxcb-xfixes0 libxcb-xinerama0 libxcb-xkb1 libxcb-util1 libx11-xcb1 libsm6 libice6
          fonts-dejavu-core fonts-noto-cjk)

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "memgraph: need root (or sudo) to run: $*" >&2; return 1; fi
}

install_debian_libs() {
  command -v dpkg-query >/dev/null || return 0
  local missing=() pkg
  local want=("${DEB_PKGS[@]}")
  "$PY" -m venv --help >/dev/null 2>&1 && "$PY" -c 'import ensurepip' 2>/dev/null \
    || want+=("python3-venv")
  for pkg in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "memgraph: installing Debian packages: ${missing[*]}" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

install_python_env() {
  local stamp="$VENV/.memgraph-installed" want
  want="$(cat "$ROOT/pyproject.toml" | sha256sum | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return 0; fi
  [ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
  "$VENV/bin/python" -m pip install -q -e "$ROOT[dev]"
  echo "$want" > "$stamp"
}

"$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
  || { echo "memgraph: Python 3.11 or newer is required (found $("$PY" --version 2>&1))" >&2; exit 1; }
install_debian_libs
install_python_env
