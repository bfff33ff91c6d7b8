#!/usr/bin/env python3
"""The history set's scenarios with the hills taken off every table.

The designer's notebook (docs/calibration.md, "Cordery's lean traced to its
contours") scores the engines on the 51 battles of ../shared/history/ as
`make_scenarios.py` lays them and again with no hills: every terrain patch that
raises the ground (`level`) is dropped, and an objective of kind `hill` becomes
a `crossroads` (the kind `make_scenarios.py` gives an objective on flat ground);
woods, towns, hedges, works and forts stay. Everything else in each scenario is
as it was, so the two scores differ by the hills alone.

    python3 ../shared/history/make_scenarios.py --out /tmp/history
    python3 docs/history_flat.py /tmp/history /tmp/history-flat
    python3 ../shared/history/score.py --umpire target/release/umpire \\
        --scen /tmp/history-flat --runs 200

Reads every `RULES/NNN.json` under the first folder and writes the same tree
under the second.
"""

import json
import os
import sys


def flatten(scenario):
    """The scenario with no raised ground and no hill to fight for."""
    table = scenario.get("table", {})
    table["terrain"] = [p for p in table.get("terrain", []) if "level" not in p]
    for objective in scenario.get("objectives", []):
        if objective.get("kind") == "hill":
            objective["kind"] = "crossroads"
    return scenario


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: history_flat.py SCENARIOS_DIR OUT_DIR (SCENARIOS_DIR as make_scenarios.py --out wrote it)")
    source, out = argv[1], argv[2]
    if not os.path.isdir(source):
        sys.exit(f"{source} is not a folder: make the scenarios first with make_scenarios.py --out {source}")
    written = 0
    for rules in sorted(os.listdir(source)):
        folder = os.path.join(source, rules)
        if not os.path.isdir(folder):
            continue
        os.makedirs(os.path.join(out, rules), exist_ok=True)
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".json"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                scenario = json.load(f)
            with open(os.path.join(out, rules, name), "w", encoding="utf-8") as f:
                json.dump(flatten(scenario), f, indent=1)
            written += 1
    if written == 0:
        sys.exit(f"no scenarios under {source}: make them first with make_scenarios.py --out {source}")
    print(f"{written} scenarios written under {out}, the hills taken off")


if __name__ == "__main__":
    main(sys.argv)
