#!/usr/bin/env python3
"""fuzz/make_seeds.py TARGET OUTDIR [MAX_BYTES]: small seed inputs for a fuzz campaign (fuzz/README.md).

A libFuzzer execution costs about as much as its input is long, and the committed kernels' PTX is
20-60 KiB: a campaign of 10^7 executions needs inputs of a kilobyte or two. Truncating the kernels
(-max_len) keeps only their headers; this cuts them instead into many small *valid* modules, so the
seeds still reach every instruction form the kernels use and the binders behind the parser.

ptx_front_end, run_kernel: for each kernels/**/*.ptx, the module-level lines (.version, .target,
  .address_size, global/shared/const variable declarations; function bodies dropped), then one
  .entry per window of consecutive body instructions of each of its functions: the function's
  parameter list and its .reg/.shared/.local declarations, the window, a definition for every
  label the window branches to but does not hold, and `ret;`. Windows that would exceed
  MAX_BYTES (default 2048) are shortened.
spec_loader: each launch spec of kernels/ (a JSON object with "ptx" and "kernel") with its "ptx"
  renamed to the sandbox's k.ptx and its "file" init names to the sandbox's a.npy (the harness's
  private directory holds only those), deduplicated.
Outputs are named by content hash; identical seeds are written once.
"""
import hashlib
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LABEL_REF = re.compile(r"\$L__[A-Za-z0-9_]+|\bbra(?:\.uni)?\s+([A-Za-z_$][\w$]*)")
LABEL_DEF = re.compile(r"^\s*([A-Za-z_$][\w$]*):")


def write(out: pathlib.Path, text: str, ext: str) -> bool:
    data = text.encode()
    path = out / (hashlib.sha1(data).hexdigest()[:16] + ext)
    if path.exists():
        return False
    path.write_bytes(data)
    return True


def split_functions(lines):
    """Yields (header_lines, body_lines) per function with a body; module-level lines separately."""
    module, funcs = [], []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        s = line.strip()
        if re.match(r"^(\.visible\s+|\.weak\s+|\.extern\s+)?(\.entry|\.func)\b", s):
            head = [line]
            i += 1
            while i < n and lines[i].strip() != "{" and not lines[i].rstrip().endswith(";"):
                head.append(lines[i])
                i += 1
            if i < n and lines[i].rstrip().endswith(";"):  # a prototype without a body: kept
                head.append(lines[i])
                module.append("\n".join(head))
                i += 1
                continue
            i += 1  # the "{"
            body, depth = [], 1
            while i < n and depth > 0:
                t = lines[i]
                depth += t.count("{") - t.count("}")
                if depth > 0:
                    body.append(t)
                i += 1
            funcs.append((head, body))
            continue
        module.append(line)
        i += 1
    return module, funcs


def ptx_seeds(out: pathlib.Path, max_bytes: int) -> int:
    count = 0
    for src in sorted((ROOT / "kernels").rglob("*.ptx")):
        if src.name == "malformed.ptx":
            continue
        lines = src.read_text(errors="replace").splitlines()
        module, funcs = split_functions(lines)
        # Module level: directives and variables only (other functions' prototypes are dropped:
        # a window calls nothing it does not define).
        mod = [l for l in module if l.strip().startswith((".version", ".target", ".address_size"))]
        mod += [l for l in module if re.match(r"^\s*(\.visible\s+|\.extern\s+|\.weak\s+)?\.(global|shared|const|func)\b", l)]
        mod_text = "\n".join(mod) + "\n"
        for fi, (head, body) in enumerate(funcs):
            if ".entry" not in head[0]:
                continue  # windows of .func bodies would need their callers' prototypes
            header = re.sub(r"\.entry\s+[\w$]+", f".entry w{fi}", "\n".join(head), count=1)
            decls = [l for l in body if l.strip().startswith((".reg", ".shared", ".local", ".pragma"))]
            decls = list(dict.fromkeys(decls))  # inline-asm scopes repeat theirs; flattened, once
            instrs = [l for l in body if l not in decls and l.strip() and not l.strip().startswith(("//", "{", "}"))
                      and not l.strip().startswith(".loc") and not l.strip().startswith(".file")]
            prefix = mod_text + header + "\n{\n" + "\n".join(decls) + "\n"
            room = max_bytes - len(prefix) - 64
            if room < 200:
                continue
            i = 0
            while i < len(instrs):
                win, size = [], 0
                while i < len(instrs) and size + len(instrs[i]) + 1 < room:
                    win.append(instrs[i])
                    size += len(instrs[i]) + 1
                    i += 1
                if not win:  # one line longer than the room: skip it
                    i += 1
                    continue
                defined = {m.group(1) for l in win if (m := LABEL_DEF.match(l))}
                refs = {m.group(1) or m.group(0) for l in win for m in LABEL_REF.finditer(l)}
                wanted = sorted(refs - defined)
                tail = "".join(f"{lab}:\n" for lab in wanted)
                text = prefix + "\n".join(win) + "\n" + tail + "\tret;\n}\n"
                count += write(out, text, ".ptx")
    return count


def spec_seeds(out: pathlib.Path) -> int:
    count = 0
    for src in sorted((ROOT / "kernels").rglob("*.json")):
        try:
            j = json.loads(src.read_text())
        except (ValueError, UnicodeDecodeError):
            continue
        if not isinstance(j, dict) or "ptx" not in j or "kernel" not in j:
            continue
        j["ptx"] = "k.ptx"

        def rename(v):
            if isinstance(v, dict):
                return {k: ("a.npy" if k == "file" and isinstance(x, str) else rename(x)) for k, x in v.items()}
            if isinstance(v, list):
                return [rename(x) for x in v]
            return v

        j = rename(j)
        j.pop("description", None)
        count += write(out, json.dumps(j, indent=1) + "\n", ".json")
    return count


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    target, out = sys.argv[1], pathlib.Path(sys.argv[2])
    max_bytes = int(sys.argv[3]) if len(sys.argv) > 3 else 2048
    out.mkdir(parents=True, exist_ok=True)
    if target in ("ptx_front_end", "run_kernel"):
        n = ptx_seeds(out, max_bytes)
    elif target == "spec_loader":
        n = spec_seeds(out)
    else:
        print(f"fuzz/make_seeds.py: no seed generator for '{target}'", file=sys.stderr)
        return 2
    print(f"fuzz/make_seeds.py: {n} {target} seeds in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
