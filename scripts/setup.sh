#!/usr/bin/env bash
# Installs every system package redist needs on a fresh Debian 12 machine.
# Run as root (or with sudo available). Skips packages that are already present.
set -euo pipefail

packages=(
  g++ cmake ninja-build ccache pkg-config git
  libz3-dev z3
  libboost-dev
  libfmt-dev
  libgtest-dev libgmock-dev librapidcheck-dev
  libbenchmark-dev
  libopenmpi-dev openmpi-bin
  libcli11-dev nlohmann-json3-dev
  python3 python3-venv python3-dev
  clang-14 libclang-rt-14-dev
  python3-matplotlib
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all system packages present"
fi

# The Python virtual environment for the XLA checks (pinned jax[cpu]).
bash "$(dirname "$0")/setup-python.sh"
