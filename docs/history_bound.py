#!/usr/bin/env python3
"""How well can odds that follow the force ratio score on the history set?

The designer's notebook (docs/calibration.md, "What the history set allows")
asks what Brier score an engine could reach on ../shared/history/ if its
attacker-win odds were exactly a logistic curve in the log force ratio,

    p = 1 / (1 + exp(-(k * ln(STRA / STRD) - shift[posture])))

steep enough to meet the proving ground's targets for equal troops on open
ground (2:1 wins at least 85%: k >= 2.50; 3:1 at least 95%: k >= 2.68), with
the best shift for each of CDB90's defender postures (POST1: HD, PD, FD)
searched on the battles themselves, which flatters the curve. The score is a
sum over battles, so each posture's shift is found on its own battles alone.
The scenarios `make_scenarios.py` makes carry the force ratio, the arms, the
posture and the ground, and nothing of the troops' quality, so an engine
playing them fairly has little else to go on.

    docs/history_bound.py [HISTORY_DIR]     (default ../shared/history)

The battles and the Brier score are the history folder's own
(`make_scenarios.load`, `score.brier`).
"""

import math
import os
import sys

HISTORY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "history")
sys.path.insert(0, HISTORY)

import make_scenarios  # noqa: E402  (the history folder's, found through HISTORY)
import score  # noqa: E402

# Shifts tried for each posture, in logits: -2 to 2 by tenths.
SHIFTS = [x / 10 for x in range(-20, 21)]


def odds(k, shift, frs):
    return [1 / (1 + math.exp(-(k * math.log(f) - shift))) for f in frs]


def main():
    rows = make_scenarios.load(os.path.join(HISTORY, "battles-1800-1849.csv"))
    ys = [1 if r["WINA"] == "1" else 0 for r in rows]
    frs = [float(r["STRA"]) / float(r["STRD"]) for r in rows]
    posts = [r["POST1"] for r in rows]
    kinds = sorted(set(posts))
    groups = {p: ([f for f, q in zip(frs, posts) if q == p], [y for y, q in zip(ys, posts) if q == p]) for p in kinds}
    n = len(rows)
    print(f"{n} battles, attacker won {sum(ys)}; postures {', '.join(f'{k} {posts.count(k)}' for k in kinds)}")
    print(f"base rate Brier {score.brier([sum(ys) / n] * n, ys):.3f}")
    print(f"{'k':>5} {'2:1':>6} {'3:1':>6} {'Brier, no shift':>16} {'Brier, best shift per posture':>30}")
    for k in (1.0, 1.5, 2.0, 2.5, math.log(19) / math.log(3), 3.0):
        # Each posture's best share of the summed score, weighted back to all n battles.
        best = sum(min(score.brier(odds(k, s, f), y) for s in SHIFTS) * len(y) for f, y in groups.values()) / n
        print(f"{k:5.2f} {1 / (1 + 2 ** -k):6.3f} {1 / (1 + 3 ** -k):6.3f} {score.brier(odds(k, 0.0, frs), ys):16.3f} {best:30.3f}")


if __name__ == "__main__":
    main()
