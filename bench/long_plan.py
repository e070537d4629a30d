#!/usr/bin/env python3
"""Prints a long plan for `redist check --plan -` (docs/results.md, "Long plans").

  bench/long_plan.py STEPS [WRONG_STEP]

On mesh {x:2, y:2, z:2}, f32[{x}32, {y}32, {z}32] goes round a cycle of three
all_to_alls and a collective_permute (every local buffer 16 KiB), for STEPS steps;
the target is the type reached. With WRONG_STEP (1-based, an all_to_all over x), that
step gets an explicit group table with the members of one group swapped: the plan
still type-checks, but it is wrong. tests/verify/checker_long_test.cpp builds the same
plans."""
import sys

CYCLE = [
    ("all_to_all(src=0, dst=1, axes={x}%s)", "f32[32, {y,x}32, {z}32]"),
    ("all_to_all(src=2, dst=0, axes={z}%s)", "f32[{z}32, {y,x}32, 32]"),
    ("all_to_all(src=1, dst=2, axes={x}%s)", "f32[{z}32, {y}32, {x}32]"),
    ("collective_permute(to=f32[{x}32, {y}32, {z}32]%s)", "f32[{x}32, {y}32, {z}32]"),
]
SWAPPED = ", groups=[[4,0],[1,5],[2,6],[3,7]]"


def main():
    steps = int(sys.argv[1])
    wrong = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if wrong and (wrong > steps or (wrong - 1) % 4 not in (0, 2)):
        sys.exit("WRONG_STEP must be an all_to_all over x: 1, 3, 5, 7, ... up to STEPS")
    print("mesh {x:2, y:2, z:2}")
    print("source f32[{x}32, {y}32, {z}32]")
    last = "f32[{x}32, {y}32, {z}32]"
    for k in range(1, steps + 1):
        text, last = CYCLE[(k - 1) % 4]
        print(text % (SWAPPED if k == wrong else ""))
    print("target " + last)


main()
