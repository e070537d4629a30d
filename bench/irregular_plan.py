#!/usr/bin/env python3
"""Prints a one-step plan with an irregular explicit table (docs/results.md,
"Irregular tables"), for `redist check --plan -`.

  bench/irregular_plan.py gather|permute DEVICES [wrong]

On mesh {x:4, y:DEVICES/4}, with f32[{x}64, 16] (replicated over y):
- gather: all_gather over x into f32[64, 16] by a table whose group g has member i =
  device (i, p_i(g)) for random permutations p_1..p_3 of y (p_0 the identity): not
  the groups of axis x, yet right, since member i holds block i. `wrong`: group 0's
  first two members swapped.
- permute: collective_permute to the same type whose pairs send (x, p_x(y)) to (x, y)
  for random permutations p_x: right, every device of one x holds the same block.
  `wrong`: the sources of targets (0, 0) and (1, 0) swapped.
Seeded: the same plan every run. tests/verify/checker_scale_test.cpp builds plans of
the same kind (with C++'s random numbers)."""
import random
import sys


def main():
    kind, devices = sys.argv[1], int(sys.argv[2])
    wrong = len(sys.argv) > 3 and sys.argv[3] == "wrong"
    ys = devices // 4
    rng = random.Random(15)
    print(f"mesh {{x:4, y:{ys}}}")
    print("source f32[{x}64, 16]")
    if kind == "gather":
        perms = [list(range(ys))] + [rng.sample(range(ys), ys) for _ in range(3)]
        groups = [[i * ys + perms[i][g] for i in range(4)] for g in range(ys)]
        if wrong:
            groups[0][0], groups[0][1] = groups[0][1], groups[0][0]
        table = ",".join("[" + ",".join(map(str, g)) + "]" for g in groups)
        print(f"all_gather(dim=0, axes={{x}}, groups=[{table}])")
        print("target f32[64, 16]")
    else:
        pairs = []
        for x in range(4):
            p = rng.sample(range(ys), ys)
            pairs += [[x * ys + p[y], x * ys + y] for y in range(ys)]
        if wrong:
            pairs[0][0], pairs[ys][0] = pairs[ys][0], pairs[0][0]
        table = ",".join(f"({s},{t})" for s, t in pairs)
        print(f"collective_permute(to=f32[{{x}}64, 16], pairs=[{table}])")
        print("target f32[{x}64, 16]")


main()
