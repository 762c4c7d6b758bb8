#!/usr/bin/env python3
"""Render a tcsim trace (`tcsim run SPEC --trace FILE`, Chrome trace JSON) as an SVG timeline.

  tools/trace_svg.py TRACE.json OUT.svg [--sm N] [--warps K] [--width PX]

Top: the chosen SM's tracks (TMA engine, tensor pipe, mbarrier phase completions, then each warp:
issuing, and what it waits on, coloured by reason). Bottom: the per-SM utilisation plot, the
fraction of the kernel's cycles each SM's tensor pipe and TMA engine were busy (from the same spans).
Only the standard library; the time axis is in SM cycles (each event's args.cycle / args.cycles).
"""
import argparse
import json
import sys
from collections import defaultdict
from xml.sax.saxutils import escape

COLOURS = [  # (prefix of the span name, colour)
    ("issue", "#2e7d32"), ("mma", "#c62828"), ("TMA", "#1565c0"), ("TMEM", "#6a1b9a"),
    ("wait mbarrier", "#f9a825"), ("bar.sync", "#ef6c00"), ("cluster", "#8d6e63"),
    ("memory", "#00838f"), ("register", "#9e9d24"), ("pipe", "#90a4ae"), ("fence", "#5d4037"),
    ("async", "#ad1457"), ("sleep", "#bdbdbd"),
]


def colour(name):
    for p, c in COLOURS:
        if name.startswith(p):
            return c
    return "#757575"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--sm", type=int, default=None, help="SM to draw (default: the first with events)")
    ap.add_argument("--warps", type=int, default=16, help="at most this many warp tracks")
    ap.add_argument("--width", type=int, default=1400)
    a = ap.parse_args()
    try:
        with open(a.trace) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"trace_svg: {a.trace}: {e}")
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    names = {}
    spans = defaultdict(list)      # (pid, tid) -> [(start, cycles, name)]
    marks = defaultdict(list)      # (pid, tid) -> [(cycle, name)]
    end = 0
    for e in events:
        ph, pid, tid = e.get("ph"), e.get("pid", 0), e.get("tid", 0)
        args = e.get("args", {})
        if ph == "M" and e.get("name") == "thread_name":
            names[(pid, tid)] = args.get("name", str(tid))
        elif ph == "X" and "cycle" in args:
            s, d = int(args["cycle"]), int(args.get("cycles", 1))
            spans[(pid, tid)].append((s, d, e.get("name", "")))
            end = max(end, s + d)
        elif ph == "i" and "cycle" in args:
            marks[(pid, tid)].append((int(args["cycle"]), e.get("name", "")))
            end = max(end, int(args["cycle"]))
    pids = sorted({p for p, _ in list(spans) + list(marks)})
    if not pids or end == 0:
        sys.exit(f"trace_svg: {a.trace}: no timed events")
    sm = a.sm if a.sm is not None else pids[0]
    tids = sorted({t for p, t in list(spans) + list(marks) if p == sm})
    units = [t for t in tids if t < 16]
    warps = [t for t in tids if t >= 16][: a.warps]
    rows = units + warps
    left, row_h, top = 150, 16, 40
    plot_w = a.width - left - 20
    x = lambda c: left + plot_w * c / end
    util_top = top + row_h * len(rows) + 50
    util_h = 120
    height = util_top + util_h + 60
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{a.width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{left}" y="18" font-size="14">{escape(doc.get("otherData", {}).get("title", a.trace))}'
           f' — SM {sm}, {end} cycles</text>']
    for i, t in enumerate(rows):
        y = top + i * row_h
        out.append(f'<text x="{left - 6}" y="{y + 12}" text-anchor="end">{escape(names.get((sm, t), str(t)))}</text>')
        out.append(f'<rect x="{left}" y="{y}" width="{plot_w}" height="{row_h - 2}" fill="#f5f5f5"/>')
        for s, d, n in spans.get((sm, t), []):
            w = max(0.5, x(s + d) - x(s))
            out.append(f'<rect x="{x(s):.1f}" y="{y}" width="{w:.1f}" height="{row_h - 2}" fill="{colour(n)}">'
                       f'<title>{escape(n)} @{s} +{d}</title></rect>')
        for c, n in marks.get((sm, t), []):
            out.append(f'<line x1="{x(c):.1f}" x2="{x(c):.1f}" y1="{y}" y2="{y + row_h - 2}" stroke="black">'
                       f'<title>{escape(n)} @{c}</title></line>')
    # time axis
    ya = top + row_h * len(rows) + 4
    for k in range(11):
        c = end * k // 10
        out.append(f'<line x1="{x(c):.1f}" x2="{x(c):.1f}" y1="{ya}" y2="{ya + 4}" stroke="black"/>')
        out.append(f'<text x="{x(c):.1f}" y="{ya + 16}" text-anchor="middle">{c}</text>')
    # legend
    lx = left
    for p, c in COLOURS:
        out.append(f'<rect x="{lx}" y="{ya + 24}" width="10" height="10" fill="{c}"/>'
                   f'<text x="{lx + 13}" y="{ya + 33}">{escape(p)}</text>')
        lx += 13 + 7 * len(p) + 14
    # per-SM utilisation: tensor pipe (tid 1) and TMA engine (tid 0) busy fraction of the kernel
    def busy(pid, tid):
        iv = sorted((s, s + d) for s, d, _ in spans.get((pid, tid), []))
        tot, cur_s, cur_e = 0, None, None
        for s, e in iv:
            if cur_e is None or s > cur_e:
                if cur_e is not None:
                    tot += cur_e - cur_s
                cur_s, cur_e = s, e
            else:
                cur_e = max(cur_e, e)
        if cur_e is not None:
            tot += cur_e - cur_s
        return tot / end
    out.append(f'<text x="{left}" y="{util_top - 8}" font-size="13">per-SM utilisation (fraction of the kernel\'s '
               f'cycles): tensor pipe (red), TMA engine (blue)</text>')
    out.append(f'<rect x="{left}" y="{util_top}" width="{plot_w}" height="{util_h}" fill="#f5f5f5"/>')
    bw = plot_w / max(1, len(pids))
    for i, p in enumerate(pids):
        for j, (tid, col) in enumerate(((1, "#c62828"), (0, "#1565c0"))):
            f = busy(p, tid)
            h = util_h * f
            out.append(f'<rect x="{left + i * bw + j * bw / 2:.1f}" y="{util_top + util_h - h:.1f}" '
                       f'width="{max(0.5, bw / 2 - 1):.1f}" height="{h:.1f}" fill="{col}"><title>SM {p}: '
                       f'{"tensor pipe" if tid == 1 else "TMA engine"} {100 * f:.1f}%</title></rect>')
        if len(pids) <= 40 or i % max(1, len(pids) // 20) == 0:
            out.append(f'<text x="{left + i * bw + bw / 2:.1f}" y="{util_top + util_h + 14}" '
                       f'text-anchor="middle">{p}</text>')
    for k in (0, 50, 100):
        y = util_top + util_h - util_h * k / 100
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{k}%</text>')
    out.append(f'<text x="{left + plot_w / 2}" y="{util_top + util_h + 30}" text-anchor="middle">SM</text>')
    out.append("</svg>")
    with open(a.out, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
