#!/usr/bin/env python3
"""Reads the H200 results of kernels/tma/facts (written by run_facts.sh) and says what they settle.

  analyze.py RESULTS_DIR

1. The shared-memory footprint of a TMA box narrower than its swizzle span (fp_*.json, il*.json).
   For each run it prints the outcome (FAULT, or the image) against two hypotheses:
     dense   rows at a pitch of the box's inner bytes W (the box packed densely, as without swizzle)
     padded  rows at a pitch of max(W, swizzle span): a narrow row still owns a whole span
   both followed by the swizzle XOR on the absolute shared address. For a hypothesis, "end" is one
   past the last byte it writes (from the 1024-aligned window); "fault?" is end > the bytes
   available. The image decides between them where the run did not fault; the faults bracket
   whether the bound checked is the bytes written or the whole padded box (rows x pitch).
2. The driver's verdicts on facts/tensor_map_edges.json against the documented rules ("_expect").
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import expect  # noqa: E402  (the TMA model: init, swizzle, npy)

SPAN = {"none": 0, "32B": 32, "64B": 64, "128B": 128}


def predict(spec, pitch_rule):
    """(image bytes {offset: byte}, end) of a 2-D u32 box under a pitch rule."""
    t = spec["tensor_maps"]["tm"]
    W = t["box_dims"][0] * 4
    R = t["box_dims"][1]
    span = SPAN[t["swizzle"]]
    pitch = W if pitch_rule == "dense" else max(W, span)
    c0, c1 = spec["args"][1]["i32"], spec["args"][2]["i32"]
    off = spec["args"][3]["u32"]
    data = expect.from_bytes(expect.to_bytes(expect.init_buffer(spec["buffers"]["a"]), 4), 4)
    dims, row_elems = t["global_dims"], t["global_strides_bytes"][0] // 4
    img = {}
    for j in range(R):
        for e in range(W // 4):
            x, y = c0 + e, c1 + j
            v = data[y * row_elems + x] if 0 <= x < dims[0] and 0 <= y < dims[1] else 0
            for k in range(4):
                img[expect.swizzle(t["swizzle"], off + j * pitch + 4 * e + k)] = (v >> (8 * k)) & 0xFF
    return img, max(img) + 1, off + R * pitch


def load_status(d):
    try:
        return int(open(os.path.join(d, "status")).read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def footprint(results):
    rows = []
    for f in sorted(os.listdir(HERE)):
        if not (f.startswith("fp_") or f.startswith("fa_") or f.startswith("il")) or not f.endswith(".json"):
            continue
        spec = json.load(open(os.path.join(HERE, f)))
        name = f[:-5]
        d = os.path.join(results, name)
        status = load_status(d)
        avail = spec["args"][-3]["u32"] if not f.startswith("il") else spec["args"][-3]["u32"]
        line = {"spec": name, "status": status}
        if f.startswith("il") or f.startswith("fa_"):
            line["outcome"] = "ran" if status == 0 else ("FAULT/ERROR" if status is not None else "not run")
            if f.startswith("fa_"):  # the settled rule: a dimension-0 start off 16 bytes faults
                line["outcome"] += "   (prediction: FAULT, dimension-0 start not 16-byte aligned)"
            rows.append((line, None))
            continue
        obs = None
        if status == 0 and os.path.exists(os.path.join(d, "out.npy")):
            obs = expect.read_npy(os.path.join(d, "out.npy"))
            info = expect.read_npy(os.path.join(d, "info.npy"))
            line["info"] = "dyn_base=0x%x dst=0x%x dyn=%d total=%d" % tuple(info)
        verdicts = {}
        for rule in ("dense", "padded"):
            img, end, box_end = predict(spec, rule)
            v = {"end": end, "box_end": box_end, "fault_if_bytes": end > avail, "fault_if_box": box_end > avail}
            if obs is not None:
                want = [0xA5] * avail
                for a, b in img.items():
                    if a < avail:
                        want[a] = b
                v["image_matches"] = want == obs
            verdicts[rule] = v
        line["avail"] = avail
        predicted, why = expect.footprint_verdict(spec)
        line["rule"] = (f"rule: {'FAULT' if predicted else 'ok   '} "
                        f"{'agrees' if status is None or predicted == (status != 0) else 'DISAGREES'} ({why})")
        if status is None:
            line["outcome"] = "not run"
        elif status != 0:
            line["outcome"] = "FAULT/ERROR"
        else:
            m = [r for r, v in verdicts.items() if v.get("image_matches")]
            line["outcome"] = "image = " + (" = ".join(m) if m else "NEITHER hypothesis")
        rows.append((line, verdicts))

    print("== footprint of narrow boxes (avail = bytes from the 1024-aligned window to the end of smem)")
    for line, v in rows:
        s = f"{line['spec']:<44} {line['outcome']:<28}"
        if v:
            s += (f" avail {line['avail']:>5} | dense end {v['dense']['end']:>5}{' F' if v['dense']['fault_if_bytes'] else '  '}"
                  f" | padded end {v['padded']['end']:>5}{' F' if v['padded']['fault_if_bytes'] else '  '}"
                  f" box {v['padded']['box_end']:>5}{' F' if v['padded']['fault_if_box'] else '  '}")
        if "info" in line:
            s += "  " + line["info"]
        if "rule" in line:
            s += "\n    " + line["rule"]
        print(s)
    print("(F: the hypothesis predicts a fault; 'box' = rows x pitch checked up front; 'rule' = the settled rule of\n"
          " README.md \"Facts settled on the H200\": rows x pitch from the destination against the allocation\n"
          " rounded up to 128 bytes)")


def tensor_maps(results):
    path = os.path.join(results, "tensor_map_edges.txt")
    if not os.path.exists(path):
        print("== tensor-map edge cases: not run")
        return
    spec = json.load(open(os.path.join(HERE, "tensor_map_edges.json")))
    got = {}
    for ln in open(path):
        m = re.match(r"^(e\d\d_\w+): (ACCEPT|REJECT (\S+))", ln)
        if m:
            got[m.group(1)] = m.group(2)
    print("== cuTensorMapEncodeTiled on the H200 against the documented rules")
    agree = disagree = facts = 0
    for name, exp in spec["_expect"].items():
        drv = got.get(name, "not run")
        kind = exp.split(":")[0]
        if drv == "not run":
            mark = "-"
        elif kind == "FACT":
            facts += 1
            mark = "FACT"
        elif drv.startswith(kind):
            agree += 1
            mark = "agree"
        else:
            disagree += 1
            mark = "DISAGREE"
        print(f"{name:<30} {mark:<9} driver: {drv:<40} doc: {exp}")
    print(f"{agree} agree, {disagree} disagree, {facts} undocumented cases recorded")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    footprint(sys.argv[1])
    tensor_maps(sys.argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
