#!/usr/bin/env python3
"""The ptxas differential of tcsim's PTX front end (docs/ptxas_differential.md).

Mutates instructions of the committed PTX corpus (kernels/**/*.ptx) one at a time, gives every
mutant to ptxas (the judge of legality) and to `tcsim check-ptx` (parse + bind, nothing run), and
compares the verdicts. A disagreement is a bug in tcsim's front end unless a rule of the committed
exceptions file (tests/ptxas_diff/exceptions.txt) covers it, each rule with its argument.

  ptxas_differential.py --tcsim build/bin/tcsim [--ptxas PATH] [--count N] [--seed S]
                        [--max-file-bytes B] [--jobs J] [--keep DIR] [--report FILE]

Exit 0: every mutant agreed or was excepted; 1: some disagreement is not excepted (each is printed
with the file, line, original and mutated instruction and both messages); 77: no ptxas (CTest's
SKIP_RETURN_CODE); 2: bad usage.

Two directions, told apart in the report:
  accepts-bad   tcsim accepts what ptxas rejects (the kernel would run with a made-up meaning)
  rejects-good  tcsim rejects what ptxas accepts (worse: it stops a kernel the GPU runs)
Only the Python 3 standard library is used.
"""
import argparse
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP = 77

# Files of the corpus that are not valid PTX on purpose (ptxas must reject them).
NOT_VALID = {"kernels/basic/bad/malformed.ptx"}

TYPES = ["b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
         "f16", "f16x2", "bf16", "bf16x2", "f32", "f64", "pred", "tf32", "e4m3", "e5m2"]
TYPE_SET = set(TYPES)
SPACES = ["global", "shared", "shared::cta", "shared::cluster", "local", "param", "const"]
MODS = ["sat", "rn", "rz", "rm", "rp", "rni", "rzi", "ftz", "approx", "full", "wide", "lo", "hi", "cc",
        "volatile", "relaxed", "acquire", "release", "gpu", "cta", "sys", "nc", "v2", "v4", "uni",
        "sync", "aligned", "relu", "satfinite", "x4", "trans", "lt", "eq", "and", "or"]
FLOAT_IMMS = ["1.5", "0f3FC00000", "0d3FF8000000000000", "-2.25"]
INT_IMMS = ["1", "0", "-7", "0x10", "4096"]


def split_operands(s):
    """Top-level comma split (braces, brackets and parentheses nest)."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "{[(":
            depth += 1
        elif ch in "}])":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


INSTR_RE = re.compile(r"^(\s*)(@!?%[A-Za-z0-9_]+\s+)?([a-z][A-Za-z0-9_.:]*)(\s+(.*?))?\s*;\s*(//.*)?$")


def instruction_lines(text):
    """(line index, Instr) for each instruction inside a .entry/.func body."""
    lines = text.split("\n")
    out = []
    depth = 0
    in_func = False
    pending_func = False
    for i, line in enumerate(lines):
        code = line.split("//")[0]
        st = code.strip()
        if re.match(r"^(\.visible\s+|\.weak\s+|\.extern\s+)?\.(entry|func)\b", st):
            pending_func = True
        if depth >= 1 and in_func and st and not st.startswith(".") and not st.startswith("{") \
                and not st.startswith("}") and not st.endswith(":") and ";" in st:
            m = INSTR_RE.match(code)
            if m and not m.group(3).startswith("."):
                out.append((i, m))
        opens, closes = code.count("{"), code.count("}")
        if pending_func and opens:
            in_func = True
            pending_func = False
        depth += opens - closes
        if depth == 0:
            in_func = False
    return lines, out


class Mutant:
    def __init__(self, path, lineno, original, mutated, op):
        self.path, self.lineno, self.original, self.mutated, self.op = path, lineno, original, mutated, op
        self.file = None
        self.ptxas = None      # (accepted, message)
        self.tcsim = None      # (accepted, message)


def rebuild(m, mnemonic, operands):
    indent = m.group(1) or ""
    guard = m.group(2) or ""
    ops = ", ".join(operands)
    return f"{indent}{guard}{mnemonic}{(' ' + ops) if operands else ''};"


def mutate(rng, m):
    """One mutation of the instruction match m: (operator name, new line) or None."""
    mnemonic = m.group(3)
    operands = split_operands(m.group(5) or "")
    parts = mnemonic.split(".")
    head, suffixes = parts[0], parts[1:]
    type_idx = [k for k, p in enumerate(suffixes) if p in TYPE_SET]
    space_idx = [k for k, p in enumerate(suffixes) if p in SPACES or p.startswith("shared")]
    regs = [k for k, o in enumerate(operands) if re.fullmatch(r"%[A-Za-z_]+[0-9]*", o)]
    imms = [k for k, o in enumerate(operands) if re.fullmatch(r"-?(0[xX][0-9a-fA-F]+|[0-9]+)U?", o)]
    ops = []
    if type_idx:
        ops += ["dup_type", "swap_type", "add_type", "drop_type"]
    else:
        ops += ["add_type"]
    if len(type_idx) == 2:
        ops.append("swap_type_pair")
    if len(operands) >= 1:
        ops += ["extra_operand", "drop_operand", "float_imm", "int_imm", "swap_reg_class"]
    if len(operands) >= 2:
        ops.append("swap_operands")
    if imms:
        ops.append("float_for_int_imm")
    if space_idx:
        ops += ["drop_space", "swap_space"]
    if len(suffixes) >= 2:
        ops.append("swap_mod_order")
    if suffixes:
        ops.append("drop_mod")
    ops.append("add_mod")
    op = rng.choice(ops)
    s = list(suffixes)
    o = list(operands)
    if op == "dup_type":
        k = rng.choice(type_idx)
        s.insert(k + 1, s[k])
    elif op == "swap_type":
        k = rng.choice(type_idx)
        s[k] = rng.choice([t for t in TYPES if t != s[k]])
    elif op == "add_type":
        s.append(rng.choice(TYPES))
    elif op == "drop_type":
        del s[rng.choice(type_idx)]
    elif op == "swap_type_pair":
        a, b = type_idx
        s[a], s[b] = s[b], s[a]
        if s == suffixes:
            return None
    elif op == "extra_operand":
        o.append(o[-1] if rng.random() < 0.5 else rng.choice(o))
    elif op == "drop_operand":
        del o[rng.randrange(len(o))]
    elif op == "float_imm":
        k = rng.randrange(1, len(o)) if len(o) > 1 else 0
        o[k] = rng.choice(FLOAT_IMMS)
    elif op == "int_imm":
        k = rng.randrange(1, len(o)) if len(o) > 1 else 0
        o[k] = rng.choice(INT_IMMS)
    elif op == "float_for_int_imm":
        o[rng.choice(imms)] = rng.choice(FLOAT_IMMS)
    elif op == "swap_reg_class":
        if not regs:
            return None
        k = rng.choice(regs)
        cls = re.match(r"%([A-Za-z_]+)", o[k]).group(1)
        o[k] = "%" + rng.choice([c for c in ["r", "rd", "rs", "f", "fd", "p", "h", "hh"] if c != cls]) + "1"
    elif op == "swap_operands":
        a, b = rng.sample(range(len(o)), 2)
        o[a], o[b] = o[b], o[a]
        if o == operands:
            return None
    elif op == "drop_space":
        del s[rng.choice(space_idx)]
    elif op == "swap_space":
        k = rng.choice(space_idx)
        s[k] = rng.choice([x for x in SPACES if x != s[k]])
    elif op == "swap_mod_order":
        # Two adjacent modifiers, never a type: swapping types changes the meaning (cvt.f32.s32).
        ks = [k for k in range(len(s) - 1) if s[k] not in TYPE_SET and s[k + 1] not in TYPE_SET]
        if not ks:
            return None
        k = rng.choice(ks)
        s[k], s[k + 1] = s[k + 1], s[k]
        if s == suffixes:
            return None
    elif op == "drop_mod":
        del s[rng.randrange(len(s))]
    elif op == "add_mod":
        s.insert(rng.randrange(len(s) + 1), rng.choice(MODS))
    new_mn = ".".join([head] + s)
    new = rebuild(m, new_mn, o)
    if new.strip() == rebuild(m, mnemonic, operands).strip():
        return None
    return op, new


def make_mutants(files, count, seed):
    rng = random.Random(seed)
    texts = {}
    cands = []
    for f in files:
        with open(f, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        lines, instrs = instruction_lines(text)
        if instrs:
            texts[f] = lines
            cands.append((f, instrs))
    mutants = []
    seen = set()
    tries = 0
    while len(mutants) < count and tries < count * 20:
        tries += 1
        f, instrs = rng.choice(cands)
        i, m = rng.choice(instrs)
        r = mutate(rng, m)
        if not r:
            continue
        op, new = r
        key = (f, i, new)
        if key in seen:
            continue
        seen.add(key)
        mutants.append(Mutant(f, i + 1, texts[f][i].strip(), new.strip(), op))
    return texts, mutants


def ptxas_target(lines):
    for l in lines:
        m = re.match(r"\s*\.target\s+([a-z0-9_]+)", l)
        if m:
            return m.group(1)
    return None


def run_ptxas(ptxas, mt, target):
    # -O0: legality is checked before optimisation; -O0 only makes the runs faster.
    p = subprocess.run([ptxas, f"-arch={target}", "-O0", mt.file, "-o", os.devnull],
                       capture_output=True, text=True, errors="replace")
    msg = " ".join((p.stderr or p.stdout).split())
    return p.returncode == 0, msg


def run_tcsim(tcsim, batch):
    p = subprocess.run([tcsim, "check-ptx"] + [m.file for m in batch], capture_output=True, text=True,
                       errors="replace")
    verdict = {}
    for line in p.stdout.splitlines():
        if line.startswith("ACCEPT "):
            verdict[line[7:]] = (True, "")
        elif line.startswith("REJECT "):
            rest = line[7:]
            for m in batch:
                if rest.startswith(m.file + ": "):
                    verdict[m.file] = (False, rest[len(m.file) + 2:])
                    break
    for m in batch:
        m.tcsim = verdict.get(m.file, (False, f"no verdict (tcsim exit {p.returncode}: {p.stderr.strip()[:300]})"))


def load_exceptions(path):
    """Rules: `DIRECTION FIELD /REGEX/  # argument` (FIELD: mutated, ptxas, tcsim, op, file)."""
    rules = []
    if not path or not os.path.exists(path):
        return rules
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            m = re.match(r"^(accepts-bad|rejects-good)\s+(mutated|ptxas|tcsim|op|file)\s+/(.*)/\s*(#.*)?$", s)
            if not m:
                raise SystemExit(f"{path}:{n}: not a rule (DIRECTION FIELD /REGEX/ # argument): {s}")
            if not m.group(4) or len(m.group(4).strip("# ")) < 10:
                raise SystemExit(f"{path}:{n}: every exception needs its argument after '#'")
            rules.append((m.group(1), m.group(2), re.compile(m.group(3)), n))
    return rules


def excepted(rules, direction, mt):
    fields = {"mutated": mt.mutated, "ptxas": mt.ptxas[1], "tcsim": mt.tcsim[1], "op": mt.op,
              "file": os.path.relpath(mt.path, REPO)}
    for d, field, rx, n in rules:
        if d == direction and rx.search(fields[field]):
            return n
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tcsim", required=True)
    ap.add_argument("--ptxas", default=os.path.join(os.environ.get("CUDA_ROOT", "/usr/local/cuda"), "bin", "ptxas"))
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-file-bytes", type=int, default=400_000,
                    help="mutate only corpus files up to this size (ptxas time grows with the file)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--exceptions", default=os.path.join(REPO, "tests", "ptxas_diff", "exceptions.txt"))
    ap.add_argument("--keep", help="keep the mutant files in this directory")
    ap.add_argument("--report", help="write every mutant's verdicts here (TSV)")
    ap.add_argument("--corpus-list", help="mutate only the repo-relative PTX files listed here (one per line, "
                    "'#' comments): the CTest's sample then does not move when kernels are added")
    a = ap.parse_args()
    if not (os.path.isfile(a.ptxas) and os.access(a.ptxas, os.X_OK)):
        print(f"SKIPPED: no ptxas at {a.ptxas}: the ptxas differential needs CUDA 13")
        return SKIP
    files = []
    for root, _, names in os.walk(os.path.join(REPO, "kernels")):
        for n in sorted(names):
            p = os.path.join(root, n)
            if n.endswith(".ptx") and os.path.relpath(p, REPO) not in NOT_VALID and os.path.getsize(p) <= a.max_file_bytes:
                files.append(p)
    files.sort()
    if a.corpus_list:
        with open(a.corpus_list) as fh:
            listed = [l.split("#")[0].strip() for l in fh]
        listed = [os.path.join(REPO, l) for l in listed if l]
        missing = [os.path.relpath(l, REPO) for l in listed if not os.path.isfile(l)]
        if missing:
            raise SystemExit(f"{a.corpus_list}: listed but absent: {', '.join(missing)}")
        files = sorted(listed)
    rules = load_exceptions(a.exceptions)
    texts, mutants = make_mutants(files, a.count, a.seed)
    work = a.keep or tempfile.mkdtemp(prefix="tcsim-ptxas-diff-")
    os.makedirs(work, exist_ok=True)
    try:
        for k, mt in enumerate(mutants):
            lines = list(texts[mt.path])
            lines[mt.lineno - 1] = mt.mutated
            mt.file = os.path.join(work, f"m{k:06d}_{os.path.basename(mt.path)}")
            with open(mt.file, "w", encoding="utf-8") as fh:
                fh.write("\n".join(lines))
        targets = {p: ptxas_target(texts[p]) for p in texts}
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
            futs = {ex.submit(run_ptxas, a.ptxas, mt, targets[mt.path]): mt for mt in mutants}
            for fu in concurrent.futures.as_completed(futs):
                futs[fu].ptxas = fu.result()
            batches = [mutants[i:i + 40] for i in range(0, len(mutants), 40)]
            list(ex.map(lambda b: run_tcsim(a.tcsim, b), batches))
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)

    agree = {"both accept": 0, "both reject": 0}
    dis = {"accepts-bad": [], "rejects-good": []}
    exc = {"accepts-bad": 0, "rejects-good": 0}
    for mt in mutants:
        pa, ta = mt.ptxas[0], mt.tcsim[0]
        if pa == ta:
            agree["both accept" if pa else "both reject"] += 1
            continue
        d = "accepts-bad" if ta else "rejects-good"
        if excepted(rules, d, mt):
            exc[d] += 1
        else:
            dis[d].append(mt)
    if a.report:
        with open(a.report, "w", encoding="utf-8") as fh:
            fh.write("file\tline\top\tmutated\tptxas\ttcsim\tptxas_msg\ttcsim_msg\n")
            for mt in mutants:
                fh.write("\t".join([os.path.relpath(mt.path, REPO), str(mt.lineno), mt.op, mt.mutated,
                                    "accept" if mt.ptxas[0] else "reject", "accept" if mt.tcsim[0] else "reject",
                                    mt.ptxas[1][:300], mt.tcsim[1][:300]]) + "\n")
    for d in ("rejects-good", "accepts-bad"):
        for mt in dis[d]:
            print(f"DISAGREE {d} {os.path.relpath(mt.path, REPO)}:{mt.lineno} [{mt.op}]")
            print(f"    original: {mt.original}")
            print(f"    mutant:   {mt.mutated}")
            print(f"    ptxas:    {'accepts' if mt.ptxas[0] else 'rejects: ' + mt.ptxas[1][:400]}")
            print(f"    tcsim:    {'accepts' if mt.tcsim[0] else 'rejects: ' + mt.tcsim[1][:400]}")
    n = len(mutants)
    bad = len(dis["accepts-bad"]) + len(dis["rejects-good"])
    print(f"ptxas differential: {n} mutants of {len(texts)} files (seed {a.seed}): "
          f"{agree['both accept'] + agree['both reject']} agree ({agree['both accept']} both accept, "
          f"{agree['both reject']} both reject), {exc['accepts-bad'] + exc['rejects-good']} excepted "
          f"({exc['accepts-bad']} accepts-bad, {exc['rejects-good']} rejects-good), {bad} disagree "
          f"({len(dis['accepts-bad'])} accepts-bad, {len(dis['rejects-good'])} rejects-good)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
