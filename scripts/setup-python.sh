#!/usr/bin/env bash
# Creates the Python virtual environment the XLA checks use: .venv at the repository
# root with a pinned jax[cpu] on Python 3.11. Idempotent: does nothing when .venv
# already holds the pinned versions.
set -euo pipefail

JAX_VERSION=0.10.2
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"

if [ -x "$venv/bin/python" ] &&
   "$venv/bin/python" -c "import sys; from importlib.metadata import version as v; sys.exit(v('jax') != '$JAX_VERSION' or v('jaxlib') != '$JAX_VERSION')" 2>/dev/null; then
  echo "setup-python: .venv has jax $JAX_VERSION"
  exit 0
fi

python=""
for candidate in python3.11 python3; do
  if command -v "$candidate" >/dev/null &&
     "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
    python="$candidate"
    break
  fi
done
if [ -z "$python" ]; then
  echo "setup-python: Python 3.11 not found (Debian 12: apt-get install python3 python3-venv)" >&2
  exit 1
fi

echo "setup-python: creating .venv with jax[cpu]==$JAX_VERSION"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "jax[cpu]==$JAX_VERSION" "jaxlib==$JAX_VERSION"
"$venv/bin/python" -c "import jax; print('setup-python: jax', jax.__version__)"
