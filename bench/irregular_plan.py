#!/usr/bin/env python3
"""Prints an all_gather with an irregular explicit group table (docs/results.md,
"Irregular tables"), for `redist check --plan -`.

  bench/irregular_plan.py DEVICES [wrong]

On mesh {x:4, y:DEVICES/4}, f32[{x}64, 16] (replicated over y) is gathered over x into
f32[64, 16]. Group g has member i = the device (i, p_i(g)) for random permutations
p_1..p_3 of y (p_0 the identity): not the groups of axis x, yet a right gather, since
member i holds block i. With `wrong`, the first two members of group 0 are swapped.
Seeded: the same plan every run."""
import random
import sys


def main():
    devices = int(sys.argv[1])
    wrong = len(sys.argv) > 2 and sys.argv[2] == "wrong"
    ys = devices // 4
    rng = random.Random(15)
    perms = [list(range(ys))] + [rng.sample(range(ys), ys) for _ in range(3)]
    groups = [[i * ys + perms[i][g] for i in range(4)] for g in range(ys)]
    if wrong:
        groups[0][0], groups[0][1] = groups[0][1], groups[0][0]
    table = ",".join("[" + ",".join(map(str, g)) + "]" for g in groups)
    print(f"mesh {{x:4, y:{ys}}}")
    print("source f32[{x}64, 16]")
    print(f"all_gather(dim=0, axes={{x}}, groups=[{table}])")
    print("target f32[64, 16]")


main()
