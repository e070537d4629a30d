#!/usr/bin/env bash
# Quick start 1: install, build, and synthesize a plan for a built-in example: swap
# two differently sized mesh axes between the dimensions of an array without ever
# replicating it.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=$(bash scripts/build.sh | tail -n 1)
set -x
"$build_dir/tools/redist" type --mesh '{x:4, y:2}' 'f32[{x}16, {y}8]'
"$build_dir/tools/redist" plan --mesh '{x:4, y:2}' 'f32[{x}16, {y}8]' 'f32[{y}16, {x}8]'
