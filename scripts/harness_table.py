#!/usr/bin/python3
"""Markdown table of an ansor_benchmark_harness results.csv: one row per
case, one column per variant (median ms; bold: the case's fastest; FAILED,
WRONG or TIMEOUT where the variant did not run correctly), for docs pages.

    scripts/harness_table.py results.csv [more.csv ...]   (later files win for a case they repeat)
"""
import csv
import sys

ORDER = ["root", "expert", "Mullapudi2016", "Li2018", "Adams2019", "Ansor", "Ansor-cold", "Ansor-model", "oneDNN", "OpenBLAS", "Eigen"]


def main(paths):
    cases, by_case = [], {}
    for path in paths:
        seen_here = set()
        for r in csv.DictReader(open(path)):
            name = r["case"]
            if name not in by_case:
                cases.append(name)
            if name not in seen_here:
                by_case[name] = {}
                seen_here.add(name)
            by_case[name][r["variant"]] = r
    variants = [v for v in ORDER if any(v in d for d in by_case.values())]
    print("| case | " + " | ".join(variants) + " |")
    print("|" + "---|" * (len(variants) + 1))
    for name in cases:
        d = by_case[name]
        times = [float(r["median_ms"]) for r in d.values() if r["status"] == "ok"]
        best = min(times) if times else None
        cells = []
        for v in variants:
            r = d.get(v)
            if r is None:
                cells.append("")
            elif r["status"] != "ok":
                cells.append(r["status"].upper())
            else:
                ms = float(r["median_ms"])
                text = f"{ms:.3g}" if ms < 100 else f"{ms:.0f}"
                cells.append(f"**{text}**" if ms == best else text)
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
