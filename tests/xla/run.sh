#!/bin/sh
# Runs the XLA checks (run_xla_tests.py) with the project's virtual environment. Fails,
# never skips, when the environment is missing: scripts/setup-python.sh creates it.
root=$(cd "$(dirname "$0")/../.." && pwd)
py="$root/.venv/bin/python"
if [ ! -x "$py" ]; then
  echo "xla tests: $root/.venv is missing; create it with scripts/setup-python.sh" >&2
  exit 1
fi
script=run_xla_tests.py
if [ "$1" = "--script" ]; then script=$2; shift 2; fi
PYTHONPATH="$root/python" exec "$py" "$root/tests/xla/$script" "$@"
