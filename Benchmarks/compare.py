#!/usr/bin/env python3
"""Compare Keel (Swift) with Backbone.js (Node) benchmark results.

Reads the output of `keel-bench` and of `Benchmarks/backbone/bench.js` (either
the raw stdout, i.e. per-workload lines followed by one JSON object, or just
the JSON) and prints a Markdown report: one row per workload with the Keel /
Backbone speed ratio, the distance to the plain-Swift floor and to the same-work
floor where the workload has one, the geometric mean, the targets, and peak RSS.

Each --keel / --backbone option may be given several times (one file per run);
per workload the median timed milliseconds over the runs is used and ops/s is
recomputed from it (ops / seconds), so fractional rates such as coll_sort's
are not rounded away.

    python3 Benchmarks/compare.py --keel keel-1.txt --keel keel-2.txt \\
        --backbone bb-1.txt --backbone bb-2.txt [--host-info] [--readme README.md]

A workload that Backbone cannot run (WITHOUT_BACKBONE, or listed under
"without_backbone" in bench.js's output) has only a Keel side: its Backbone
columns show "—" and it is left out of the geometric mean and the Backbone
targets, but not out of the floor target. The anchors (ANCHOR_GOALS: the store, wire,
relation, JSON:API and change-feed workloads) have no Backbone side either: they get a table of
their own, each against its own goal, and are left out of the main table, its targets and
Keel's peak RSS.

Exit status: 0 when both sides ran every workload with the expected check
values; 1 when a check value is wrong or a workload is missing (the report is
still printed); with --strict also 1 when a target is not met; 2 on bad input.
Standard library only.
"""

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys

# Workload order and verification values (Benchmarks/README.md, "Workloads").
EXPECTED_CHECKS = {
    "set_change": 2000000,
    "set_nochange": 0,
    "construct": 9900000,
    "coll_add": 921457440,
    "coll_get": 49500000,
    "coll_sort": 688006713,
    "coll_set_merge": 1965091872,
    "parse_reset": 921457440,
    "trigger_10": 10000000,
    "listen_stop": 0,
    "bubble": 1000000,
    "coll_remove": 2440613143,
    "nested_merge": 3542305648,
    "sync_fetch": 33334089000,
    "store_write_read": 2621432098,
    "store_write_read_memory": 2621432098,
    "set_typed_change": 2000000,
    "set_typed_nochange": 0,
    "store_fetch_all_10k": 2620937098,
    "store_fetch_all_100k": 922446330,
    "wire_twitter": 862390359,
    "wire_canada": 421982360,
    "store_read_by_id": 10090000,
    "store_create": 2670853208,
    "bulk_relations": 971408440,
    "jsonapi_compound": 333833500,
    "store_save": 2620997098,
    "store_destroy": 2620848208,
    "store_create_inplace": 2670853208,
    "store_save_inplace": 2620997098,
    "store_destroy_inplace": 2620848208,
    "change_pull": 2480,
    "change_push_apply": 247788,
}

# Workloads measured against their own goals instead of Backbone (issue 33's anchors, issue 30's
# `jsonapi_compound`, issue 31's pull and push): a table of their own under the main one, left
# out of the main table's targets and of Keel's peak RSS. Each goal: (kind, limit, text).
#   "floor":   Keel's time over its floor's (keel-bench's paired ratio) at most `limit`
#   "decoder": Keel's time, and its `Codable` bridge's, below the floor's (`JSONDecoder`)
#   "per_model": Keel's time a model over `parse_reset`'s a model at most `limit`: keel-bench
#                times a `parse_reset` of as many notes beside it, repetition by repetition,
#                and the goal reads that paired ratio; the ratio over the `parse_reset`
#                workload's time a model (100,000 notes, timed minutes apart) is shown beside it
#   "refetch": a full refetch's CPU time over Keel's at least `limit` (issue 31 measured CPU time)
ANCHOR_GOALS = {
    "store_fetch_all_10k": ("floor", 1.5, "≤ 1.5× raw sqlite3 + Keel's parser"),
    "store_fetch_all_100k": ("floor", 1.5, "≤ 1.5× raw sqlite3 + Keel's parser"),
    "wire_twitter": ("decoder", 1.0, "parse and `Codable` bridge faster than `JSONDecoder`"),
    "wire_canada": ("decoder", 1.0, "parse and `Codable` bridge faster than `JSONDecoder`"),
    "store_read_by_id": ("floor", 2.0, "≤ 2× raw `SELECT` + parse"),
    "store_create": ("floor", 1.5, "≤ 1.5× raw `INSERT` + `COMMIT`"),
    "store_save": ("floor", 1.5, "≤ 1.5× raw `UPDATE` + `COMMIT`"),
    "store_destroy": ("floor", 1.5, "≤ 1.5× raw `DELETE` + `COMMIT`"),
    "store_create_inplace": ("floor", 1.5, "≤ 1.5× (opt-in `writesOnCallingThread`)"),
    "store_save_inplace": ("floor", 1.5, "≤ 1.5× (opt-in `writesOnCallingThread`)"),
    "store_destroy_inplace": ("floor", 1.5, "≤ 1.5× (opt-in `writesOnCallingThread`)"),
    "bulk_relations": ("floor", 2.0, "≤ 2× plain objects linked by reference"),
    "jsonapi_compound": ("per_model", 1.5, "≤ 1.5× `parse_reset` a model (issue 30)"),
    "change_pull": ("refetch", 100.0, "≥ 100× less CPU time than a full refetch (issue 31)"),
    "change_push_apply": ("floor", 3.0, "≤ 3× plain objects updated from parsed events (issue 31)"),
}
# `jsonapi_compound`'s operation is an article with its included author: two models.
MODELS_PER_JSONAPI_ARTICLE = 2

# Workloads without a Backbone counterpart: Keel and the floor only.
WITHOUT_BACKBONE = {
    "nested_merge": (
        "Backbone has no relations (an attribute holding an array stays plain JSON), so this "
        "workload has no Backbone counterpart; it is left out of the geometric mean and the "
        "Backbone targets."
    ),
    "sync_fetch": (
        "Backbone's fetch runs on a browser's or jQuery's HTTP stack, which Node does not have; "
        "this workload compares Keel with a raw URLSession + JSONSerialization fetch (its floor) "
        "and is left out of the geometric mean and the Backbone targets."
    ),
    "store_write_read": (
        "Backbone has no local store (Backbone.sync only speaks HTTP); this workload compares "
        "Keel's SQLiteSync with raw sqlite3 calls doing the same durable writes and reads (its floor) "
        "and is left out of the geometric mean and the Backbone targets."
    ),
    "store_write_read_memory": (
        "Backbone has no local store; this workload compares Keel's SQLiteSync in memory with raw "
        "sqlite3 calls on an in-memory database (its floor) and is left out of the geometric mean "
        "and the Backbone targets."
    ),
    "jsonapi_compound": (
        "Backbone has no JSON:API reader or identity map; this workload compares Keel with a "
        "plain-Swift floor doing the same mapping and is left out of the geometric mean and the "
        "Backbone targets."
    ),
}

# Issue 33's targets (issue 16's geometric mean stays).
TARGET_PER_WORKLOAD = 1.5   # Keel >= 1.5x Backbone on every workload
TARGET_GEOMEAN = 4.0        # geometric mean of Keel/Backbone >= 4x
TARGET_FLOOR = 1.5          # Keel within 1.5x of its same-work floor (the machine floor where it has none)
TARGET_TYPED_FLOOR = 2.0    # the typed workloads within 2x of the machine floor
TYPED_WORKLOADS = ("set_typed_change", "set_typed_nochange")
TARGET_RSS_SHARE = 2 / 3    # Keel's peak RSS at most two thirds of Backbone's

NOTES = {
    "coll_set_merge": (
        "Backbone's time here is dominated by its removal algorithm "
        "(`indexOf` + `splice(i, 1)` per removed model, O(removed x length)); "
        "a speed-up from removing in one pass is algorithmic, not a language effect."
    ),
}

RESULTS_START = "<!-- results -->"
RESULTS_END = "<!-- /results -->"


class InputError(Exception):
    pass


def load_result(path):
    """Return the JSON object from a harness output file."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise InputError(f"{path}: {e}")
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            return json.loads(stripped)
        except ValueError:
            pass
    # Raw stdout: lines, then the JSON object starting at the beginning of a line.
    starts = [0] if text.startswith("{") else []
    i = text.find("\n{")
    while i >= 0:
        starts.append(i + 1)
        i = text.find("\n{", i + 1)
    decoder = json.JSONDecoder()
    for start in starts:
        try:
            obj, _ = decoder.raw_decode(text, start)
        except ValueError:
            continue
        if isinstance(obj, dict) and "workloads" in obj:
            return obj
    raise InputError(f"{path}: no JSON object with a 'workloads' map found")


def num(x):
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) else None


def rate(ops, total_ms, ops_per_sec):
    """ops/s from timed milliseconds when possible, else the reported rate."""
    if num(ops) is not None and num(total_ms) and total_ms > 0:
        return ops / (total_ms / 1000.0)
    return num(ops_per_sec)


def median_or_none(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


class Side:
    """Per-workload medians over several runs of one harness."""

    def __init__(self, label, docs):
        self.label = label
        self.docs = docs
        self.runs = len(docs)
        self.workloads = {}
        names = []
        for d in docs:
            w = d.get("workloads")
            if not isinstance(w, dict):
                raise InputError(f"{label}: 'workloads' is not an object")
            names += [n for n in w if n not in names]
        for name in names:
            entries = [d["workloads"][name] for d in docs if name in d["workloads"]]
            self.workloads[name] = self._summarise(entries)

    @staticmethod
    def _summarise(entries):
        ops = next((e.get("ops") for e in entries if num(e.get("ops")) is not None), None)
        rates = [rate(ops, e.get("total_ms"), e.get("ops_per_sec")) for e in entries]
        floor_rates = [rate(ops, e.get("floor_total_ms"), e.get("floor_ops_per_sec")) for e in entries]
        same_work_rates = [rate(ops, e.get("same_work_floor_total_ms"), e.get("same_work_floor_ops_per_sec"))
                           for e in entries]
        checks = [e.get("check") for e in entries]
        # keel-bench writes the value it expects beside each check; bench.js does not.
        expected = {e.get("expected_check") for e in entries if num(e.get("expected_check")) is not None}
        return {
            "ops": ops,
            "runs": len(entries),
            # The median rate equals ops / median(ms) for odd run counts.
            "ops_per_sec": median_or_none(rates),
            "ops_per_sec_min": min((r for r in rates if r is not None), default=None),
            "ops_per_sec_max": max((r for r in rates if r is not None), default=None),
            "floor_ops_per_sec": median_or_none(floor_rates),
            # None for a workload without a same-work floor (keel-bench writes no same_work_floor_*).
            "same_work_floor_ops_per_sec": median_or_none(same_work_rates),
            # keel-bench's Keel time over each floor's, repetition by repetition (its trials
            # alternate), at the median; here the median over runs.
            "floor_ratio": median_or_none([num(e.get("floor_ratio")) for e in entries]),
            "same_work_floor_ratio": median_or_none([num(e.get("same_work_floor_ratio")) for e in entries]),
            "total_ms": median_or_none([num(e.get("total_ms")) for e in entries]),
            "floor_total_ms": median_or_none([num(e.get("floor_total_ms")) for e in entries]),
            "codable_total_ms": median_or_none([num(e.get("codable_total_ms")) for e in entries]),
            "cpu_ms": median_or_none([num(e.get("cpu_ms")) for e in entries]),
            "full_refetch_cpu_ms": median_or_none([num(e.get("full_refetch_cpu_ms")) for e in entries]),
            # `jsonapi_compound`'s time over a 2,000-note `parse_reset` timed beside it,
            # repetition by repetition (keel-bench's paired ratio), per run and at the median.
            "parse_reset_ratio": median_or_none([num(e.get("parse_reset_ratio")) for e in entries]),
            "parse_reset_ratios": [num(e.get("parse_reset_ratio")) for e in entries],
            "floor_ratios": [num(e.get("floor_ratio")) for e in entries],
            "max_rss_kb": [num(e.get("max_rss_kb")) for e in entries],
            "checks": checks,
            "expected_checks": sorted(expected),
            "errors": [e.get("error") for e in entries if e.get("error")],
        }

    def peak_rss_kb(self, over=None):
        """Median over runs of each run's peak RSS (see README for the definition).

        With `over`, a keel-bench run's peak is its process's peak after the first runs of
        those workloads (each workload's `max_rss_kb`, the peak so far), so that workloads
        the other side does not run do not count.
        """
        peaks = []
        for d in self.docs:
            so_far = [num(e.get("max_rss_kb")) for n, e in d["workloads"].items() if over and n in over]
            if so_far and None not in so_far:
                peaks.append(max(so_far))
                continue
            # keel-bench: the peak before any floor ran, i.e. Keel's own footprint.
            top = num(d.get("keel_max_rss_kb"))
            if top is None:
                top = num(d.get("max_rss_kb"))
            if top is None:
                # Older/reference Node output: per-workload values only.
                vals = []
                for e in d["workloads"].values():
                    for key in ("child_max_rss_kb", "max_rss_kb", "max_rss_kb_so_far"):
                        if num(e.get(key)) is not None:
                            vals.append(e[key])
                            break
                top = max(vals) if vals else None
            peaks.append(top)
        return median_or_none(peaks)


def fmt_rate(x):
    if x is None:
        return "—"
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:,.2f}"


def fmt_ratio(x):
    return "—" if x is None else f"{x:,.1f}×"


def fmt_mib(kb):
    return "—" if kb is None else f"{kb / 1024:,.0f} MiB ({kb:,.0f} KiB)"


def yes_no(ok):
    return "**yes**" if ok else "**no**"


def host_info():
    lines = [f"{platform.system()} {platform.release()} {platform.machine()}"]
    cpu = None
    mem_kb = None
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
        with open("/proc/meminfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem_kb = int(line.split()[1])
                    break
    except OSError:
        pass
    if cpu is None and platform.system() == "Darwin":
        try:
            cpu = subprocess.run(["sysctl", "-n", "machdep.cpu.brand_string"],
                                 capture_output=True, text=True, check=True).stdout.strip()
            mem_kb = int(subprocess.run(["sysctl", "-n", "hw.memsize"], capture_output=True,
                                        text=True, check=True).stdout.strip()) // 1024
        except (OSError, subprocess.CalledProcessError, ValueError):
            pass
    desc = cpu or platform.processor() or "unknown CPU"
    desc += f", {os.cpu_count()} logical CPUs"
    if mem_kb:
        desc += f", {mem_kb / 1024 / 1024:.0f} GiB RAM"
    lines.append(desc)
    return ", ".join(lines)


def scalar_fields(doc, skip=("workloads",)):
    parts = []
    for k, v in doc.items():
        if k in skip or isinstance(v, (dict, list)):
            continue
        parts.append(f"{k} `{v}`")
    return ", ".join(parts)


def superscript(number):
    """`number` in superscript digits, for note marks past 9."""
    return str(number).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))


def without_backbone(bb):
    """The workloads that have no Backbone counterpart, by name, with the reason."""
    names = dict(WITHOUT_BACKBONE)
    for d in bb.docs:
        listed = d.get("without_backbone")
        if isinstance(listed, dict):
            for name, reason in listed.items():
                names.setdefault(name, str(reason))
    return names


def check_problems(name, sides):
    """What is wrong with `name`'s check values on each (label, summary) side."""
    problems = []
    expected = EXPECTED_CHECKS.get(name)
    for side, s in sides:
        if s is None:
            continue
        disagreeing = [c for c in s["expected_checks"] if expected is not None and c != expected]
        if disagreeing:
            problems.append(f"`{name}`: {side} expects check {disagreeing[0]}, compare.py expects {expected}")
        bad = [c for c in s["checks"] if expected is not None and c != expected]
        if bad or s["errors"]:
            detail = "; ".join(s["errors"]) if s["errors"] else f"got {bad[0]}, expected {expected}"
            problems.append(f"`{name}`: {side} check failed ({detail})")
    return problems


def fmt_ms(ms):
    if ms is None:
        return "—"
    return f"{ms / 1000:.2f} s" if ms >= 1000 else f"{ms:.1f} ms"


def anchor_result(name, keel):
    """(figure, met or None, row) for an anchor workload of the Keel side."""
    kind, limit, goal = ANCHOR_GOALS[name]
    k = keel.workloads[name]
    per_run = ", ".join(f"×{r:.2f}" for r in k["floor_ratios"] if r is not None)
    ratio = k["floor_ratio"]
    floor_ms = fmt_ms(k["floor_total_ms"])
    if kind == "floor":
        met = None if ratio is None else ratio <= limit
        figure = "—" if ratio is None else f"×{ratio:.2f} ({per_run})"
    elif kind == "decoder":
        codable, decoder = k["codable_total_ms"], k["floor_total_ms"]
        met = None if ratio is None or codable is None else ratio < limit and codable < decoder
        figure = ("—" if ratio is None else f"×{ratio:.2f} ({per_run})") + \
            (f"; `Codable` bridge {fmt_ms(codable)}" if codable is not None else "")
        floor_ms += " (`JSONDecoder`)"
    elif kind == "per_model":
        reset = keel.workloads.get("parse_reset")
        mine = k["total_ms"] / (k["ops"] * MODELS_PER_JSONAPI_ARTICLE) if k["total_ms"] and k["ops"] else None
        theirs = reset["total_ms"] / reset["ops"] if reset and reset["total_ms"] and reset["ops"] else None
        unpaired = mine / theirs if mine and theirs else None
        paired = k["parse_reset_ratio"]
        paired_runs = ", ".join(f"×{r:.2f}" for r in k["parse_reset_ratios"] if r is not None)
        per_model = paired if paired is not None else unpaired
        met = None if per_model is None else per_model <= limit
        parts = []
        if paired is not None:
            parts.append(f"×{paired:.2f} of a {k['ops'] * MODELS_PER_JSONAPI_ARTICLE:,}-note `parse_reset` "
                         f"a model timed beside it ({paired_runs})")
        if unpaired is not None:
            parts.append(f"×{unpaired:.2f} of the `parse_reset` workload's a model")
        if ratio is not None:
            parts.append(f"floor ×{ratio:.2f}")
        figure = "; ".join(parts) if parts else "—"
    else:
        refetch = k["full_refetch_cpu_ms"]
        speedup = refetch / k["cpu_ms"] if refetch and k["cpu_ms"] else None
        met = None if speedup is None else speedup >= limit
        figure = "—" if speedup is None else \
            f"{speedup:.0f}× less CPU time than a full refetch ({fmt_ms(refetch)} of CPU)"
        floor_ms += " (raw pull)"
    status = "no data" if met is None else ("met" if met else "**missed**")
    row = f"| {name} | {fmt_ms(k['total_ms'])} | {floor_ms} | {figure} | {goal}: {status} |"
    return figure, met, row


def build_report(keel, bb, with_host):
    present = set(keel.workloads) | set(bb.workloads)
    order = [n for n in EXPECTED_CHECKS if n in present]
    order += sorted(present - set(order))
    keel_only = without_backbone(bb)

    out = []
    problems = []          # invalid data: wrong checks, missing workloads
    rows = []
    ratios = []
    below_target = []
    missing = []           # no ratio: a side lacks the workload
    unmatched = []         # no ratio: Backbone cannot run the workload
    over_floor = []        # over 1.5x of the same-work floor (or of the machine floor without one)
    over_typed_floor = []  # typed workloads over 2x of the machine floor
    no_floor = []

    for name in order:
        k = keel.workloads.get(name)
        b = bb.workloads.get(name)
        if k is None or (b is None and name not in keel_only and name not in ANCHOR_GOALS):
            problems.append(f"`{name}` missing on the {'Keel' if k is None else 'Backbone'} side")
        problems += check_problems(name, (("Keel", k), ("Backbone", b)))
    anchors = [n for n in ANCHOR_GOALS if n in present]
    order = [n for n in order if n not in ANCHOR_GOALS]
    notes = {n: NOTES.get(n) or keel_only.get(n) for n in order if n in NOTES or n in keel_only}
    marks = {n: superscript(i + 1) for i, n in enumerate(notes)}

    for name in order:
        k = keel.workloads.get(name)
        b = bb.workloads.get(name)
        kr = k["ops_per_sec"] if k else None
        br = b["ops_per_sec"] if b else None
        fr = k["floor_ops_per_sec"] if k else None
        sr = k["same_work_floor_ops_per_sec"] if k else None
        ratio = kr / br if kr and br else None
        slowdown = (k["floor_ratio"] or (fr / kr if fr and kr else None)) if k else None
        if ratio is not None:
            ratios.append(ratio)
            if ratio < TARGET_PER_WORKLOAD:
                below_target.append(name)
        elif b is None and name in keel_only:
            unmatched.append(name)
        else:
            missing.append(name)
        same_work_slowdown = (k["same_work_floor_ratio"] or (sr / kr if sr and kr else None)) if k else None
        if name in TYPED_WORKLOADS:
            if slowdown is None:
                no_floor.append(name)
            elif slowdown > TARGET_TYPED_FLOOR:
                over_typed_floor.append(name)
        elif (same_work_slowdown or slowdown) is None:
            no_floor.append(name)
        elif (same_work_slowdown or slowdown) > TARGET_FLOOR:
            over_floor.append(name)
        mark = f" {marks[name]}" if name in marks else ""
        rows.append(
            f"| {name}{mark} | {fmt_rate(kr)} | {fmt_rate(br)} | {fmt_ratio(ratio)} | "
            f"{fmt_rate(fr)} | {'—' if slowdown is None else f'×{slowdown:.1f} of floor'} | "
            f"{'-' if sr is None else fmt_rate(sr)} | {'-' if same_work_slowdown is None else f'×{same_work_slowdown:.1f}'} |"
        )

    geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else None

    out.append("### Keel vs Backbone.js")
    out.append("")
    bbdoc = bb.docs[0]
    proto = "isolated (`ISOLATE=1`, one Node process per workload)" if bbdoc.get("isolated") \
        else "sequential (all workloads in one Node process)"
    out.append(f"- Backbone side: Backbone `{bbdoc.get('backbone', '?')}`, Underscore "
               f"`{bbdoc.get('underscore', '?')}`, Node `{bbdoc.get('node', '?')}`, {proto}, "
               f"REPS={bbdoc.get('reps', '?')}, median of {bb.runs} run(s).")
    kfields = scalar_fields(keel.docs[0])
    out.append(f"- Keel side: `keel-bench`, median of {keel.runs} run(s)"
               + (f"; {kfields}." if kfields else "."))
    if with_host:
        out.append(f"- Machine: {host_info()}.")
    out.append("- ops/s = ops ÷ median timed seconds. \"×N of floor\" = Keel's time ÷ the plain-Swift "
               "floor's (how many times slower than the same work without the library): keel-bench "
               "alternates Keel and its floors repetition by repetition and reports the median of each "
               "repetition's ratio; this is the median of those over runs.")
    out.append("- The same-work floor (`same_work_floor_*`) does the same observable work through an API of "
               "the same shape as Keel's (issue 33); \"-\" where a workload has none. The floor target "
               "below is over the same-work floor where a workload has one, else over the machine floor; "
               "the typed workloads are held to the machine floor.")
    standard = [n for n in EXPECTED_CHECKS if n not in ANCHOR_GOALS]
    if len(order) < len(standard) or any(n not in EXPECTED_CHECKS for n in order):
        out.append(f"- Subset: {len(order)} workload(s), not the standard {len(standard)}; "
                   "the targets below refer to this subset only.")
    out.append("")
    out.append("| workload | Keel ops/s | Backbone ops/s | Keel ÷ Backbone | plain-Swift floor ops/s | Keel ÷ floor "
               "| same-work floor ops/s | Keel ÷ same-work floor |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    out.extend(rows)
    out.append(f"| **geometric mean** | | | **{fmt_ratio(geomean)}** | | | | |")
    out.append("")
    if notes:
        out.extend(f"{marks[name]} `{name}`: {note}" for name, note in notes.items())
        out.append("")

    out.append("**Targets**")
    out.append("")
    per_ok = not below_target and not missing
    detail = []
    if below_target:
        detail.append(f"below: {', '.join(below_target)}")
    if missing:
        detail.append(f"no data: {', '.join(missing)}")
    if unmatched:
        detail.append(f"no Backbone counterpart, left out: {', '.join(unmatched)}")
    out.append(f"- Every workload ≥ {TARGET_PER_WORKLOAD:g}× Backbone: {yes_no(per_ok)}"
               + (f" ({'; '.join(detail)})" if detail else ""))
    geo_ok = geomean is not None and geomean >= TARGET_GEOMEAN and not missing
    geo_detail = fmt_ratio(geomean) if geomean is not None else "no data"
    if (missing or unmatched) and geomean is not None:
        geo_detail += f" over {len(ratios)} of {len(order)} workloads"
        if unmatched:
            geo_detail += f"; without {', '.join(unmatched)}, which Backbone cannot run"
    out.append(f"- Geometric mean ≥ {TARGET_GEOMEAN:g}×: {yes_no(geo_ok)} ({geo_detail})")
    floor_ok = not over_floor and not [n for n in no_floor if n not in TYPED_WORKLOADS]
    detail = []
    if over_floor:
        detail.append(f"slower than ×{TARGET_FLOOR:g}: {', '.join(over_floor)}")
    if no_floor:
        detail.append(f"no floor: {', '.join(no_floor)}")
    out.append(f"- Every workload within {TARGET_FLOOR:g}× of its same-work floor (its machine floor where it "
               f"has none): {yes_no(floor_ok)}" + (f" ({'; '.join(detail)})" if detail else ""))
    typed = [n for n in order if n in TYPED_WORKLOADS]
    typed_ok = bool(typed) and not over_typed_floor and not [n for n in no_floor if n in TYPED_WORKLOADS]
    typed_detail = f"slower than ×{TARGET_TYPED_FLOOR:g}: {', '.join(over_typed_floor)}" if over_typed_floor \
        else ("not run" if not typed else "")
    out.append(f"- {', '.join(TYPED_WORKLOADS)} within {TARGET_TYPED_FLOOR:g}× of the machine floor: "
               f"{yes_no(typed_ok)}" + (f" ({typed_detail})" if typed_detail else ""))

    krss = keel.peak_rss_kb(over=set(order))
    brss = bb.peak_rss_kb()
    rss_ok = bool(krss and brss and krss <= TARGET_RSS_SHARE * brss)
    rss_detail = f"{100.0 * krss / brss:.0f}% of Backbone's" if krss and brss else "no data"
    out.append(f"- Peak RSS at most two thirds of Backbone's: {yes_no(rss_ok)} ({rss_detail})")
    out.append("")

    out.append("**Peak RSS**")
    out.append("")
    out.append(f"- Keel: {fmt_mib(krss)}: the `keel-bench` process (all workloads in one process) "
               f"after the first runs of the workloads above, before any plain-Swift floor ran "
               f"(`max_rss_kb` of the last of them; the anchors below are left out), median over runs.")
    bb_how = ("the largest per-workload child process (`ISOLATE=1`; each child holds Node's "
              "baseline, one workload's setup state and its warm-up garbage)"
              if bbdoc.get("isolated") else "the whole Node process (sequential run)")
    out.append(f"- Backbone: {fmt_mib(brss)}: {bb_how}, median over runs.")
    if krss and brss:
        out.append(f"- Backbone ÷ Keel: {brss / krss:.1f}× (Keel uses {100.0 * krss / brss:.0f}% of "
                   f"Backbone's peak).")
    out.append("")

    if keel.runs > 1 or bb.runs > 1:
        out.append("<details><summary>Run-to-run spread (min–max ops/s over runs)</summary>")
        out.append("")
        out.append("| workload | Keel min–max | Backbone min–max |")
        out.append("|---|---:|---:|")
        for name in order:
            k = keel.workloads.get(name) or {}
            b = bb.workloads.get(name) or {}
            bb_spread = ("—" if not b else
                         f"{fmt_rate(b.get('ops_per_sec_min'))} – {fmt_rate(b.get('ops_per_sec_max'))}")
            out.append(f"| {name} | {fmt_rate(k.get('ops_per_sec_min'))} – {fmt_rate(k.get('ops_per_sec_max'))} | "
                       f"{bb_spread} |")
        out.append("")
        out.append("</details>")
        out.append("")

    anchor_summary = {}
    if anchors:
        out.append("**Anchors**")
        out.append("")
        out.append("Keel beside what users compare it with, each against its own goal (no Backbone "
                   "counterpart): Keel's and the floor's median times over runs, and Keel ÷ floor, "
                   "keel-bench's paired ratio at the median over runs with each run's in brackets.")
        out.append("")
        out.append("| workload | Keel | floor | Keel ÷ floor | goal |")
        out.append("|---|---:|---:|---|---|")
        for name in anchors:
            if name not in keel.workloads:
                continue
            figure, met, row = anchor_result(name, keel)
            out.append(row)
            anchor_summary[name] = {"figure": figure, "met": met}
        out.append("")

    if problems:
        out.append("**Invalid results**")
        out.append("")
        out.extend(f"- {p}" for p in problems)
    else:
        keel_side = unmatched + (["the anchors"] if anchor_summary else [])
        sides = "on both sides" if not keel_side else f"on both sides ({', '.join(keel_side)}: on the Keel side)"
        out.append(f"All {len(order) + len(anchor_summary)} check values match the expected values {sides}, in every run.")
    out.append("")

    anchors_met = all(a["met"] for a in anchor_summary.values())
    targets_met = per_ok and geo_ok and floor_ok and typed_ok and rss_ok and anchors_met
    summary = {
        "geomean_keel_over_backbone": geomean,
        "without_backbone": unmatched,
        "targets": {"per_workload_1_5x": per_ok,
                    "geomean_4x": geo_ok,
                    "within_1_5x_of_same_work_floor": floor_ok,
                    "typed_within_2x_of_machine_floor": typed_ok,
                    "peak_rss_two_thirds_of_backbone": rss_ok},
        "peak_rss_kb": {"keel": krss, "backbone": brss},
        "anchors": anchor_summary,
        "problems": problems,
        "workloads": {n: {"keel": keel.workloads.get(n), "backbone": bb.workloads.get(n)} for n in order},
    }
    return "\n".join(out), problems, targets_met, summary


def update_readme(path, report):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start = text.find(RESULTS_START)
    if start < 0:
        raise InputError(f"{path}: marker {RESULTS_START} not found")
    body_start = start + len(RESULTS_START)
    end = text.find(RESULTS_END, body_start)
    tail = text[end:] if end >= 0 else "\n" + RESULTS_END + "\n" + text[body_start:]
    new = text[:body_start] + "\n" + report.rstrip() + "\n" + tail
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keel", action="append", required=True, metavar="FILE",
                    help="keel-bench output (stdout or JSON); repeat once per run")
    ap.add_argument("--backbone", action="append", required=True, metavar="FILE",
                    help="bench.js output (stdout or JSON); repeat once per run")
    ap.add_argument("--host-info", action="store_true", help="describe this machine in the report")
    ap.add_argument("--readme", metavar="FILE",
                    help=f"also write the report between {RESULTS_START} and {RESULTS_END} in FILE")
    ap.add_argument("--json-out", metavar="FILE", help="write a machine-readable summary")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a target is not met")
    args = ap.parse_args(argv)

    try:
        keel = Side("Keel", [load_result(p) for p in args.keel])
        bb = Side("Backbone", [load_result(p) for p in args.backbone])
        report, problems, targets_met, summary = build_report(keel, bb, args.host_info)
        print(report)
        if args.readme:
            update_readme(args.readme, report)
        if args.json_out:
            with open(args.json_out, "w", encoding="utf-8") as f:
                json.dump(summary, f, indent=2)
    except InputError as e:
        print(f"compare.py: {e}", file=sys.stderr)
        return 2
    if problems:
        return 1
    if args.strict and not targets_met:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
