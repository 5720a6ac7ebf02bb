#!/usr/bin/python3
"""Markdown table of an ansor_benchmark_harness results.csv: one row per
case, one column per variant (median ms; bold: the case's fastest; FAILED,
WRONG or TIMEOUT where the variant did not run correctly), for docs pages.

    scripts/harness_table.py results.csv [more.csv ...]   (later files win for a case they repeat)
    scripts/harness_table.py --ratios Adams2019/Ansor,expert/Ansor results.csv

--ratios adds a column per ratio (time of the first variant over the
second's: > 1, the second is faster) and, after the table, each ratio's
geomean over the apps and over the operators separately (the cases where
both variants ran correctly), how many cases it covers, how many the second
variant wins, and the case with the smallest ratio.
"""
import argparse
import csv
import math
import sys

ORDER = ["root", "expert", "Mullapudi2016", "Li2018", "Adams2019", "Ansor", "Ansor-cold", "Ansor-model", "oneDNN", "OpenBLAS", "Eigen"]


def read_cases(paths):
    cases, by_case, kind = [], {}, {}
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
            kind[name] = r["kind"]
    return cases, by_case, kind


def ok_ms(d, variant):
    r = d.get(variant)
    return float(r["median_ms"]) if r is not None and r["status"] == "ok" else None


def parse_ratios(text):
    ratios = []
    for item in text.split(","):
        parts = item.split("/")
        if len(parts) != 2 or not all(parts):
            raise argparse.ArgumentTypeError(f"\"{item}\" is not VARIANT/VARIANT")
        ratios.append((parts[0], parts[1]))
    return ratios


def print_table(cases, by_case, ratios):
    variants = [v for v in ORDER if any(v in d for d in by_case.values())]
    print("| case | " + " | ".join(variants + [f"{a} / {b}" for a, b in ratios]) + " |")
    print("|" + "---|" * (len(variants) + len(ratios) + 1))
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
        for a, b in ratios:
            ta, tb = ok_ms(d, a), ok_ms(d, b)
            cells.append(f"{ta / tb:.2f}" if ta and tb else "-")
        print(f"| {name} | " + " | ".join(cells) + " |")


def print_geomeans(cases, by_case, kind, ratios):
    print()
    for group in ("app", "op"):
        names = [c for c in cases if kind[c] == group]
        if not names:
            continue
        print(f"{'apps' if group == 'app' else 'operators'} ({len(names)} cases):")
        for a, b in ratios:
            pairs = [(c, ok_ms(by_case[c], a), ok_ms(by_case[c], b)) for c in names]
            pairs = [(c, ta / tb) for c, ta, tb in pairs if ta and tb]
            if not pairs:
                print(f"  {a} / {b}: no case where both ran correctly")
                continue
            geo = math.exp(sum(math.log(r) for _, r in pairs) / len(pairs))
            wins = sum(1 for _, r in pairs if r > 1)
            worst = min(pairs, key=lambda p: p[1])
            print(f"  {a} / {b}: {geo:.2f}x over {len(pairs)} cases ({b} faster on {wins}); "
                  f"smallest {worst[1]:.3f} ({worst[0]})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ratios", type=parse_ratios, default=[], help="VARIANT/VARIANT,...")
    parser.add_argument("csv", nargs="+", help="the harness's results.csv (later files win for a case they repeat)")
    args = parser.parse_args()
    cases, by_case, kind = read_cases(args.csv)
    present = {v for d in by_case.values() for v in d}
    for variant in {v for pair in args.ratios for v in pair} - present:
        sys.exit(f"--ratios: no variant \"{variant}\" in {', '.join(args.csv)} (it has {', '.join(sorted(present))})")
    print_table(cases, by_case, args.ratios)
    if args.ratios:
        print_geomeans(cases, by_case, kind, args.ratios)


if __name__ == "__main__":
    main()
