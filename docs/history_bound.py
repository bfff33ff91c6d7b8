#!/usr/bin/env python3
"""How well can odds that follow the force ratio score on the history set?

The designer's notebook (docs/calibration.md, "What the history set allows")
asks what Brier score an engine could reach on ../shared/history/ if its
attacker-win odds were exactly a logistic curve in the log force ratio,

    p = 1 / (1 + exp(-(k * ln(STRA / STRD) - shift[posture])))

steep enough to meet the proving ground's targets for equal troops on open
ground (2:1 wins at least 85%: k >= 2.50; 3:1 at least 95%: k >= 2.68), with
the best shift for each of CDB90's defender postures (POST1: HD, PD, FD)
searched on the battles themselves, which flatters the curve. The scenarios
`make_scenarios.py` makes carry the force ratio, the arms and the posture and
ground and nothing of the troops' quality, so an engine playing them fairly
has little else to go on.

    docs/history_bound.py [../shared/history/battles-1800-1849.csv]
"""

import csv
import math
import sys


def brier(ps, ys):
    return sum((p - y) ** 2 for p, y in zip(ps, ys)) / len(ys)


def odds(k, shifts, frs, posts):
    return [1 / (1 + math.exp(-(k * math.log(f) - shifts.get(p, 0.0)))) for f, p in zip(frs, posts)]


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "../shared/history/battles-1800-1849.csv"
    rows = list(csv.DictReader(open(path, newline="")))
    ys = [1 if r["WINA"] == "1" else 0 for r in rows]
    frs = [float(r["STRA"]) / float(r["STRD"]) for r in rows]
    posts = [r["POST1"] for r in rows]
    kinds = sorted(set(posts))
    grid = [x / 10 for x in range(-20, 21)]
    print(f"{len(rows)} battles, attacker won {sum(ys)}; postures {', '.join(f'{k} {posts.count(k)}' for k in kinds)}")
    print(f"base rate Brier {brier([sum(ys) / len(ys)] * len(ys), ys):.3f}")
    print(f"{'k':>5} {'2:1':>6} {'3:1':>6} {'Brier, no shift':>16} {'Brier, best shift per posture':>30}")
    for k in (1.0, 1.5, 2.0, 2.5, math.log(19) / math.log(3), 3.0):
        best = min(brier(odds(k, {"HD": a, "PD": b, "FD": b}, frs, posts), ys) for a in grid for b in grid)
        print(f"{k:5.2f} {1 / (1 + 2 ** -k):6.3f} {1 / (1 + 3 ** -k):6.3f} {brier(odds(k, {}, frs, posts), ys):16.3f} {best:30.3f}")


if __name__ == "__main__":
    main()
