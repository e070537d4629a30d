#!/usr/bin/env bash
# Creates the Python virtual environment the XLA checks and the Python package use:
# .venv at the repository root with a pinned jax[cpu] on Python 3.11, and the pinned
# build and test tools of `pip install .` (docs/python.md). Idempotent: does nothing
# when .venv already holds the pinned versions.
set -euo pipefail

JAX_VERSION=0.10.2
# Build backend, binding generator and test tools of the Python package.
PY_TOOLS=(nanobind==3.1.0 scikit-build-core==1.1.2 pytest==9.2.0 hypothesis==6.170.15)
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"

pinned() {  # true when .venv holds every `name==version` given
  "$venv/bin/python" - "$@" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(any(version(n) != v for n, v in (a.split("==") for a in sys.argv[1:])))
PY
}

if [ -x "$venv/bin/python" ] && pinned "jax==$JAX_VERSION" "jaxlib==$JAX_VERSION"; then
  if ! pinned "${PY_TOOLS[@]}"; then
    echo "setup-python: installing ${PY_TOOLS[*]}"
    "$venv/bin/python" -m pip install --quiet "${PY_TOOLS[@]}"
  fi
  echo "setup-python: .venv has jax $JAX_VERSION and the package tools"
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
"$venv/bin/python" -m pip install --quiet "jax[cpu]==$JAX_VERSION" "jaxlib==$JAX_VERSION" "${PY_TOOLS[@]}"
"$venv/bin/python" -c "import jax; print('setup-python: jax', jax.__version__)"
