#!/usr/bin/env python3
"""Generates and checks the committed PTX of every kernel corpus (kernels/*), path-independently.

One tool, one approach for every corpus (the table CORPORA below holds what differs: sources,
targets, flags, file naming):

  ptx_tool.py gen   CORPUS... [--only NAME] [--out ROOT]   regenerate the committed PTX
  ptx_tool.py check CORPUS... [--cuda ROOT]                the CTest judge (kernels_<corpus>_ptx)
  ptx_tool.py list                                         the corpora and their sources
  common options: --nvcc PATH (default $NVCC, else CUDA_ROOT/bin/nvcc), --jobs N (default: the
  CPUs this process may use, $JOBS), --cache DIR (default $PTX_CACHE_DIR; none when empty),
  --attempts N (check: nvcc runs per mismatching file, default 8)

Why a canonical location. With -lineinfo nvcc writes the names of internal-linkage functions and
of anonymous namespaces into the PTX (`_ZN43_INTERNAL_6b8d9fa2_12_tma_store_cu_...`,
`_GLOBAL__N__6b8d9fa2_...`), in `.debug_str` byte lists and in plain text. The first hash in
those names is a hash of the source file's absolute path; -frandom-seed=<name> only fixes the
second (random) part. So every source is compiled from a fixed place: its corpus folder is copied
(source files only) to CANON/kernels/<folder>/ and nvcc runs there. The PTX is then identical
whatever the checkout path, without editing nvcc's output beyond the `.file` lines:
  * `.file` paths under CANON become relative to the source's folder (where the PTX lives too):
    "reduce_sum.cu", "../async_util.cuh", "../tma/async_util.cuh";
  * paths under the CUDA root (as named and as resolved) become /usr/local/cuda/..., normalised
    (no "bin/../");
  * every other path is kept as nvcc wrote it.
The staging and the compiles hold an exclusive lock (flock on CANON/.lock-<group>), so concurrent
runs from different checkouts (ctest -j, several worktrees) cannot mix their sources; corpora that
share sources (tma, cluster) share a group.

Per source, nvcc runs as   nvcc -arch=<arch> -ptx <corpus flags> -frandom-seed=<name>
<header flags> <name>.cu   in the source's canonical folder. A source may set its target and
add flags with header lines (one each, anywhere before the code):
  // nvcc-arch: sm_100a        (corpora with one PTX per source)
  // nvcc-flags: -ftz=true

check, per corpus:
  1. pairing: every source has its PTX (per target), every PTX its source, and each PTX's
     `.target` is the one its source asks for (files in `must_fail` are the exception);
  2. ptxas assembles every committed PTX for its `.target` (a file in `must_fail` must NOT);
  3. drift: every committed PTX is byte for byte what nvcc generates from the sources today.
     When the local nvcc is another release than the one the PTX came from (the version line in
     the PTX header), this step says SKIPPED and 1-2 still run. nvcc 13.0 is not fully
     deterministic (now and then it numbers virtual registers differently, seen on
     basic/local_arrays.cu, two register numberings about 2:1): a mismatching file is compiled
     again, up to --attempts runs in all, before it counts as drift (when more than 3 files
     differ on the first run, which variance has never done, each gets 2 runs); real drift never
     matches.

The cache (--cache; CTest passes one in the build tree) only saves work, it never decides a
verdict that a fresh run could decide otherwise: it records, per input key, the SHA-256 of outputs
nvcc was seen to produce (drift) and of PTX files ptxas accepted (ptxas). The key covers this
file, the toolchain (nvcc --version; path, size and mtime of nvcc, cicc, cudafe++, ptxas,
nvcc.profile, the host compiler and every header under the CUDA and host include folders), the
NVCC_* / include-path environment, the corpus, target and flags, and the contents of the source
and of every file it includes from the repository (found by following #include lines; a source
with a computed #include is never cached). A committed file passes from the cache only when it is
byte-identical to an output recorded for exactly these inputs. A clean build tree (CI) has an
empty cache, so it checks everything.
"""
import argparse
import concurrent.futures
import contextlib
import difflib
import fcntl
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

KERNELS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(KERNELS)
# Fixed on purpose (not $TMPDIR): nvcc hashes this path into the internal names of the PTX.
CANON = "/tmp/tcsim-ptx-canon"
# What is staged to CANON: the files a compile can read.
SOURCE_EXT = (".cu", ".cuh", ".h", ".hpp", ".hh", ".inc", ".inl", ".def")

# The corpora. sources / ptx: globs relative to kernels/. archs: the targets, one PTX each named
# NAME.<arch>.ptx when per_arch, else one NAME.ptx for archs[0] (or the source's nvcc-arch line).
# stage: folders (relative to the repository) copied to CANON; group: the lock (corpora that
# stage the same folder must share it). include_root: -I<canonical repository root>.
# must_fail: PTX files without a source that ptxas must reject (parse-error test inputs).
CORPORA = {
    "basic": dict(sources=["basic/*.cu", "basic/bad/*.cu"], ptx=["basic/*.ptx", "basic/bad/*.ptx"],
                  archs=["sm_90a"], per_arch=False, flags=["-lineinfo"], stage=["kernels/basic"],
                  group="basic", include_root=False, must_fail=["basic/bad/malformed.ptx"]),
    "hopper": dict(sources=["hopper/*.cu"], ptx=["hopper/*.ptx"], archs=["sm_90a"], per_arch=False,
                   flags=["-lineinfo"], stage=["kernels/hopper"], group="hopper", include_root=False,
                   must_fail=[]),
    "tcgen05": dict(sources=["tcgen05/*.cu"], ptx=["tcgen05/*.ptx"], archs=["sm_100a"], per_arch=False,
                    flags=["-std=c++17", "-lineinfo"], stage=["kernels/tcgen05"], group="tcgen05",
                    include_root=False, must_fail=[]),
    "tma": dict(sources=["tma/*.cu", "tma/bad/*.cu"], ptx=["tma/*.ptx", "tma/bad/*.ptx"],
                archs=["sm_90a", "sm_100a"], per_arch=True, flags=["-lineinfo", "-Werror", "all-warnings"],
                stage=["kernels/tma", "kernels/cluster"], group="async", include_root=False, must_fail=[]),
    "cluster": dict(sources=["cluster/*.cu", "cluster/bad/*.cu"], ptx=["cluster/*.ptx", "cluster/bad/*.ptx"],
                    archs=["sm_90a", "sm_100a"], per_arch=True, flags=["-lineinfo", "-Werror", "all-warnings"],
                    stage=["kernels/tma", "kernels/cluster"], group="async", include_root=False, must_fail=[]),
    # Launch-spec forms (by-value structs holding pointers and tensor maps, __constant__ tables) and
    # device printf: sm_90a for the H200, sm_100a for Blackwell.
    "launch": dict(sources=["launch/*.cu"], ptx=["launch/*.ptx"], archs=["sm_90a", "sm_100a"], per_arch=True,
                   flags=["-std=c++17", "-lineinfo"], stage=["kernels/launch"], group="launch",
                   include_root=False, must_fail=[]),
    # The tcgen05 probe tile (the other probe sources are host programs built on the device).
    "probes": dict(sources=["probes/tcgen05/tcgen05_tile.cu"], ptx=["probes/tcgen05/*.ptx"], archs=["sm_100a"],
                   per_arch=False, flags=[], stage=["kernels/probes"], group="probes", include_root=True,
                   must_fail=[]),
}

# Mismatching files on a first nvcc run beyond which the check stops retrying them 8 times.
MAX_VARYING_FILES = 3

VERSION_LINE = re.compile(r"^// Cuda compilation tools, (.*)$", re.M)
TARGET_LINE = re.compile(r"^\.target\s+(\w+)", re.M)
FILE_LINE = re.compile(r'^(\s*\.file\s+\d+\s+")([^"]*)(".*)$', re.M)
HEADER_ARCH = re.compile(r"^// nvcc-arch:\s*([a-z0-9_]+)", re.M)
HEADER_FLAGS = re.compile(r"^// nvcc-flags:\s*(.*)$", re.M)
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)
COMPUTED_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]+[^<"\s]', re.M)


def fail_usage(msg):
    print(f"ptx_tool: {msg}", file=sys.stderr)
    sys.exit(2)


def sha256_bytes(b):
    return hashlib.sha256(b).hexdigest()


def sha256_file(path):
    with open(path, "rb") as f:
        return sha256_bytes(f.read())


def read_text(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


# ----------------------------------------------------------------------------------------------
# Jobs: one (source, target) -> one committed PTX


class Job:
    def __init__(self, corpus, src_rel, arch, out_rel):
        self.corpus = corpus          # name
        self.src_rel = src_rel        # relative to kernels/, e.g. "tma/bad/wrong_parity.cu"
        self.arch = arch
        self.out_rel = out_rel        # relative to kernels/
        text = read_text(os.path.join(KERNELS, src_rel))
        m = HEADER_FLAGS.search(text)
        self.header_flags = m.group(1).split() if m else []
        self.name = os.path.basename(src_rel)[:-3]
        self.key = None

    def flags(self):
        c = CORPORA[self.corpus]
        inc = ["-I" + CANON] if c["include_root"] else []
        return [f"-arch={self.arch}", "-ptx"] + c["flags"] + [f"-frandom-seed={self.name}"] + self.header_flags + inc


def corpus_jobs(name):
    c = CORPORA[name]
    jobs = []
    for pattern in c["sources"]:
        for src in sorted(glob.glob(os.path.join(KERNELS, pattern))):
            rel = os.path.relpath(src, KERNELS)
            base = rel[:-3]
            if c["per_arch"]:
                for arch in c["archs"]:
                    jobs.append(Job(name, rel, arch, f"{base}.{arch}.ptx"))
            else:
                m = HEADER_ARCH.search(read_text(src))
                jobs.append(Job(name, rel, m.group(1) if m else c["archs"][0], f"{base}.ptx"))
    return jobs


def corpus_ptx(name):
    out = []
    for pattern in CORPORA[name]["ptx"]:
        out += [os.path.relpath(p, KERNELS) for p in sorted(glob.glob(os.path.join(KERNELS, pattern)))]
    return out


# ----------------------------------------------------------------------------------------------
# Cache keys


def repo_deps(src_abs, include_root):
    """[(path relative to the repository, sha256)] of the source and every repository file it
    includes, transitively; None when a computed #include makes the set unknowable."""
    inc_dirs = [REPO] if include_root else []
    seen, stack = {}, [os.path.normpath(src_abs)]
    while stack:
        f = stack.pop()
        if f in seen:
            continue
        with open(f, "rb") as fh:
            data = fh.read()
        seen[f] = sha256_bytes(data)
        text = data.decode("utf-8", errors="surrogateescape")
        if COMPUTED_INCLUDE.search(text):
            return None
        for kind, inc in INCLUDE.findall(text):
            cands = ([os.path.dirname(f)] if kind == '"' else []) + inc_dirs
            for d in cands:
                p = os.path.normpath(os.path.join(d, inc.strip()))
                if p.startswith(REPO + os.sep) and os.path.isfile(p):
                    stack.append(p)
                    break
    return sorted((os.path.relpath(f, REPO), h) for f, h in seen.items())


def stat_line(path):
    try:
        st = os.stat(path)
        return f"{path} {st.st_size} {st.st_mtime_ns}"
    except OSError:
        return f"{path} missing"


def tree_listing(root):
    lines = []
    root = os.path.realpath(root)
    for d, dirs, files in os.walk(root, followlinks=True):
        dirs.sort()
        for f in sorted(files):
            lines.append(stat_line(os.path.join(d, f)))
    return lines


def toolchain_fingerprint(nvcc):
    """Everything outside the repository that decides nvcc's output (see the module doc)."""
    lines = [subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout]
    bin_dir = os.path.dirname(os.path.realpath(nvcc))
    cuda = os.path.dirname(bin_dir)
    for p in [nvcc, os.path.join(bin_dir, "nvcc.profile"), os.path.join(bin_dir, "cudafe++"),
              os.path.join(bin_dir, "ptxas"), os.path.join(cuda, "nvvm", "bin", "cicc")]:
        lines.append(stat_line(os.path.realpath(p)))
    inc_roots = [os.path.join(cuda, "include")] + sorted(glob.glob(os.path.join(cuda, "targets", "*", "include")))
    seen = set()
    for r in inc_roots:
        rr = os.path.realpath(r)
        if rr not in seen and os.path.isdir(rr):
            seen.add(rr)
            lines += tree_listing(rr)
    host = shutil.which("g++") or shutil.which("c++") or ""
    if host:
        lines.append(stat_line(os.path.realpath(host)))
        lines.append(subprocess.run([host, "--version"], capture_output=True, text=True).stdout)
        gcc_inc = subprocess.run([host, "-print-file-name=include"], capture_output=True, text=True).stdout.strip()
        for r in ["/usr/include", gcc_inc]:
            if r and os.path.isdir(r):
                lines += tree_listing(r)
    for v in ["NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "NVCC_CCBIN", "CPATH", "C_INCLUDE_PATH",
              "CPLUS_INCLUDE_PATH", "PATH"]:
        lines.append(f"{v}={os.environ.get(v, '')}")
    return sha256_bytes("\n".join(lines).encode("utf-8", errors="surrogateescape"))


def ptxas_fingerprint(ptxas):
    ver = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout
    return sha256_bytes((ver + stat_line(os.path.realpath(ptxas))).encode())


class Cache:
    """key -> the set of output SHA-256s recorded for it, one small file per key."""

    def __init__(self, root):
        self.root = root or None
        self.hits = 0

    def _path(self, key):
        return os.path.join(self.root, key[:2], key)

    def known(self, key):
        if not self.root or key is None:
            return set()
        try:
            with open(self._path(key)) as f:
                return {ln.strip() for ln in f if ln.strip()}
        except OSError:
            return set()

    def add(self, key, digest):
        if not self.root or key is None:
            return
        have = self.known(key)
        if digest in have:
            return
        p = self._path(key)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(p))
        with os.fdopen(fd, "w") as f:
            f.write("\n".join(sorted(have | {digest})) + "\n")
        os.replace(tmp, p)


TOOL_VERSION = sha256_file(os.path.abspath(__file__))


def job_key(job, toolchain):
    deps = repo_deps(os.path.join(KERNELS, job.src_rel), CORPORA[job.corpus]["include_root"])
    if deps is None:
        return None
    c = CORPORA[job.corpus]
    payload = [TOOL_VERSION, toolchain, CANON, job.corpus, job.src_rel, job.out_rel, job.flags(), c["stage"], deps]
    return sha256_bytes(json.dumps(payload).encode())


# ----------------------------------------------------------------------------------------------
# Staging and compiling at the canonical location


@contextlib.contextmanager
def group_lock(group):
    os.makedirs(CANON, exist_ok=True)
    path = os.path.join(CANON, f".lock-{group}")
    fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"ptx_tool: waiting for {path} (another PTX build of this group is running)", flush=True)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def stage(corpora):
    """Copies the source files of every folder the corpora stage to CANON (under the lock)."""
    folders = sorted({d for c in corpora for d in CORPORA[c]["stage"]})
    for d in folders:
        shutil.rmtree(os.path.join(CANON, d), ignore_errors=True)
    n = 0
    for d in folders:
        for root, dirs, files in os.walk(os.path.join(REPO, d)):
            dirs[:] = sorted(x for x in dirs if not x.startswith("."))
            for f in files:
                if f.endswith(SOURCE_EXT):
                    rel = os.path.relpath(os.path.join(root, f), REPO)
                    dst = os.path.join(CANON, rel)
                    os.makedirs(os.path.dirname(dst), exist_ok=True)
                    shutil.copyfile(os.path.join(REPO, rel), dst)
                    n += 1
    return n


def normalize(text, src_dir, cuda_roots):
    """The `.file` paths made independent of CANON and of the CUDA installation (module doc)."""

    def fix(m):
        p = m.group(2)
        if os.path.isabs(p):
            q = os.path.normpath(p)
            if q.startswith(CANON + "/"):
                q = os.path.relpath(q, src_dir)
            else:
                for r in cuda_roots:
                    if q == r or q.startswith(r + "/"):
                        q = "/usr/local/cuda" + q[len(r):]
                        break
            p = q
        else:
            p = os.path.normpath(p)
        return m.group(1) + p + m.group(3)

    return FILE_LINE.sub(fix, text)


class Compiler:
    def __init__(self, nvcc):
        self.nvcc = nvcc
        bin_dir = os.path.dirname(nvcc)
        named = os.path.normpath(os.path.join(os.path.abspath(bin_dir), ".."))
        real = os.path.normpath(os.path.join(os.path.realpath(bin_dir), ".."))
        self.cuda_roots = sorted({named, real}, key=len, reverse=True)
        self.warned = []

    def compile(self, job):
        """(normalised PTX text, None) or (None, error message)."""
        src_dir = os.path.join(CANON, "kernels", os.path.dirname(job.src_rel))
        with tempfile.TemporaryDirectory(prefix="ptx_tool.") as tmp:
            out = os.path.join(tmp, "out.ptx")
            cmd = [self.nvcc] + job.flags() + [job.name + ".cu", "-o", out]
            r = subprocess.run(cmd, cwd=src_dir, capture_output=True, text=True)
            if r.returncode != 0 or not os.path.exists(out):
                return None, f"nvcc failed on {job.src_rel} (-arch={job.arch}):\n  {' '.join(cmd)}\n{r.stderr}"
            if r.stderr.strip():
                self.warned.append((job.src_rel, r.stderr))
            return normalize(read_text(out), src_dir, self.cuda_roots), None


def run_parallel(fn, items, jobs):
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        return list(ex.map(fn, items))


# ----------------------------------------------------------------------------------------------
# Commands


def default_jobs():
    if os.environ.get("JOBS"):
        return int(os.environ["JOBS"])
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def nvcc_release(nvcc):
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    m = VERSION_LINE.search("\n".join("// " + ln for ln in out.splitlines()))
    return m.group(1) if m else None


def cmd_gen(args):
    compiler = Compiler(args.nvcc)
    cache = Cache(args.cache)
    toolchain = toolchain_fingerprint(args.nvcc) if cache.root else None
    selected = [j for c in args.corpus for j in corpus_jobs(c)
                if not args.only or args.only in (j.name, j.src_rel, j.src_rel[:-3])]
    if not selected:
        fail_usage(f"no source named '{args.only}' in {', '.join(args.corpus)}")
    todo = []
    for job in selected:
        out = os.path.join(args.out, job.out_rel)
        job.key = job_key(job, toolchain) if cache.root else None
        if os.path.exists(out) and sha256_file(out) in cache.known(job.key):
            cache.hits += 1
            continue
        todo.append(job)
    failed = 0
    if todo:
        groups = sorted({CORPORA[j.corpus]["group"] for j in todo})
        for g in groups:
            gjobs = [j for j in todo if CORPORA[j.corpus]["group"] == g]
            with group_lock(g):
                stage(sorted({j.corpus for j in gjobs}))
                results = run_parallel(compiler.compile, gjobs, args.jobs)
            for job, (text, err) in zip(gjobs, results):
                if err:
                    print(f"FAIL: {err}", file=sys.stderr)
                    failed += 1
                    continue
                out = os.path.join(args.out, job.out_rel)
                os.makedirs(os.path.dirname(out), exist_ok=True)
                with open(out, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(text)
                cache.add(job.key, sha256_bytes(text.encode("utf-8", errors="surrogateescape")))
    if args.verbose:
        for src, msg in compiler.warned:
            print(f"nvcc said about {src}:\n{msg}", file=sys.stderr)
    print(f"gen_ptx: {len(todo) - failed} PTX files written under {args.out}"
          + (f", {cache.hits} already current (cache)" if cache.hits else "")
          + (f", {failed} FAILED" if failed else ""))
    return 1 if failed else 0


def cmd_check(args):
    ptxas = os.path.join(os.path.dirname(args.nvcc), "ptxas")
    for tool in (args.nvcc, ptxas):
        if not os.access(tool, os.X_OK):
            fail_usage(f"{tool} not found or not executable (pass --cuda ROOT)")
    compiler = Compiler(args.nvcc)
    cache = Cache(args.cache)
    toolchain = toolchain_fingerprint(args.nvcc) if cache.root else None
    ptxas_fp = ptxas_fingerprint(ptxas) if cache.root else None
    local = nvcc_release(args.nvcc)
    fail = 0

    def bad(msg):
        nonlocal fail
        print(f"FAIL: {msg}")
        fail = 1

    for c in args.corpus:
        conf = CORPORA[c]
        t0 = time.time()
        print(f"== kernels/{c}")
        jobs = corpus_jobs(c)
        ptx = corpus_ptx(c)
        # 1. pairing and targets
        made = {j.out_rel: j for j in jobs}
        for j in jobs:
            if not os.path.exists(os.path.join(KERNELS, j.out_rel)):
                bad(f"{j.src_rel} has no committed {j.out_rel} (run kernels/{c}/gen_ptx.sh)")
        for p in conf["must_fail"]:
            if p not in ptx:
                bad(f"{p} is missing (a committed test input ptxas must reject)")
        texts = {}
        for p in ptx:
            texts[p] = read_text(os.path.join(KERNELS, p))
            if p in conf["must_fail"]:
                continue
            if p not in made:
                bad(f"{p} has no source (expected one of: {', '.join(conf['sources'])})")
                continue
            m = TARGET_LINE.search(texts[p])
            if not m or m.group(1) != made[p].arch:
                bad(f"{p} says .target {m.group(1) if m else '(none)'}, its source asks for {made[p].arch}")
        print(f"pairing: {len(jobs)} sources' PTX and {len(ptx)} committed files checked")

        # 2. ptxas
        def assemble(p):
            m = TARGET_LINE.search(texts[p])
            target = m.group(1) if m else "sm_90a"
            key = sha256_bytes(json.dumps([TOOL_VERSION, ptxas_fp, target]).encode()) if ptxas_fp else None
            digest = sha256_bytes(texts[p].encode("utf-8", errors="surrogateescape"))
            if p not in conf["must_fail"] and digest in cache.known(key):
                return p, True, "", True
            r = subprocess.run([ptxas, f"-arch={target}", os.path.join(KERNELS, p), "-o", os.devnull],
                               capture_output=True, text=True)
            if r.returncode == 0 and p not in conf["must_fail"]:
                cache.add(key, digest)
            log = "\n".join(ln for ln in (r.stdout + r.stderr).splitlines() if "ptxas info" not in ln)
            return p, r.returncode == 0, log, False

        n_ok = n_cached = 0
        for p, ok, log, cached in run_parallel(assemble, ptx, args.jobs):
            if p in conf["must_fail"]:
                if ok:
                    bad(f"{p} assembles, but it must be malformed (it is a parse-error test input)")
                continue
            if ok:
                n_ok += 1
                n_cached += cached
            else:
                bad(f"ptxas rejects {p}:\n{log[:2000]}")
        print(f"ptxas: {n_ok} of {len(ptx) - len(conf['must_fail'])} files assemble for their targets"
              + (f" ({n_cached} known from the cache)" if n_cached else ""))

        # 3. drift
        present = [j for j in jobs if j.out_rel in texts]
        versions = {}
        for j in present:
            m = VERSION_LINE.search(texts[j.out_rel])
            versions.setdefault(m.group(1) if m else "(no version line)", []).append(j.out_rel)
        if not present:
            print("drift: no committed PTX")
        elif set(versions) != {local}:
            if local not in versions:
                print(f"SKIPPED drift check: the committed PTX comes from nvcc '{', '.join(versions)}', "
                      f"this nvcc is '{local}'")
            else:
                others = [f"{v}: {', '.join(fs[:3])}" for v, fs in versions.items() if v != local]
                bad(f"the committed PTX mixes nvcc releases (this nvcc is '{local}'; {'; '.join(others)}): "
                    f"regenerate all of it with one nvcc")
        else:
            hits = 0
            misses = []
            for j in present:
                j.key = job_key(j, toolchain) if cache.root else None
                digest = sha256_bytes(texts[j.out_rel].encode("utf-8", errors="surrogateescape"))
                if digest in cache.known(j.key):
                    hits += 1
                else:
                    misses.append(j)
            matched_at = {}
            last = {}
            runs = {}
            if misses:
                with group_lock(conf["group"]):
                    stage([c])
                    pending = misses
                    limit = args.attempts
                    attempt = 0
                    while pending and attempt < limit:
                        attempt += 1
                        results = run_parallel(compiler.compile, pending, args.jobs)
                        nxt = []
                        for j, (text, err) in zip(pending, results):
                            runs[j.out_rel] = attempt
                            if err:
                                last[j.out_rel] = (None, err)
                                continue  # a compile error does not go away on a retry
                            last[j.out_rel] = (text, None)
                            if text == texts[j.out_rel]:
                                matched_at[j.out_rel] = attempt
                                cache.add(j.key, sha256_bytes(text.encode("utf-8", errors="surrogateescape")))
                            else:
                                nxt.append(j)
                        pending = nxt
                        if attempt == 1 and len(pending) > MAX_VARYING_FILES and limit > 2:
                            # nvcc's run-to-run variance has only ever touched single files: this
                            # many mismatches is a real change, so do not spend 8 runs on each.
                            limit = 2
                            print(f"note: {len(pending)} files differ on the first nvcc run: each gets one "
                                  f"more run, not {args.attempts - 1}")
            for j in misses:
                if j.out_rel in matched_at:
                    if matched_at[j.out_rel] > 1:
                        print(f"note: {j.out_rel} matched on nvcc run {matched_at[j.out_rel]} "
                              f"(nvcc output varies between runs)")
                    continue
                text, err = last[j.out_rel]
                if err:
                    bad(err)
                    continue
                bad(f"{j.out_rel} differs from what nvcc generates from {j.src_rel} today "
                    f"(run kernels/{c}/gen_ptx.sh), after {runs[j.out_rel]} nvcc runs:")
                diff = difflib.unified_diff(texts[j.out_rel].splitlines(), text.splitlines(),
                                            f"committed/{j.out_rel}", f"nvcc/{j.out_rel}", lineterm="", n=1)
                for ln in list(diff)[:20]:
                    print("  " + ln[:200])
            n_same = hits + len(matched_at)
            print(f"drift: {n_same} of {len(present)} committed PTX files equal a fresh nvcc '{local}' build"
                  + (f" ({hits} known from the cache, {len(misses)} compiled)" if cache.root else ""))
        if args.verbose:
            for src, msg in compiler.warned:
                print(f"nvcc said about {src}:\n{msg}")
            compiler.warned.clear()
        print(f"kernels/{c}: {time.time() - t0:.1f} s")
    print("check_ptx: OK" if fail == 0 else "check_ptx: FAILED")
    return fail


def cmd_list(_args):
    for c in CORPORA:
        jobs = corpus_jobs(c)
        print(f"{c}: {len(jobs)} PTX files from {len({j.src_rel for j in jobs})} sources "
              f"(stage {', '.join(CORPORA[c]['stage'])}; lock group {CORPORA[c]['group']})")
    return 0


def main(argv):
    ap = argparse.ArgumentParser(prog="ptx_tool.py", description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=["gen", "check", "list"])
    ap.add_argument("corpus", nargs="*")
    ap.add_argument("--only", help="gen: only this source (name, or path under kernels/ without .cu)")
    ap.add_argument("--out", default=KERNELS, help="gen: the root the PTX goes under (default: kernels/)")
    ap.add_argument("--cuda", default=None, help="the CUDA root (default: /usr/local/cuda)")
    ap.add_argument("--nvcc", default=None)
    ap.add_argument("--jobs", type=int, default=default_jobs())
    ap.add_argument("--cache", default=os.environ.get("PTX_CACHE_DIR", ""))
    ap.add_argument("--attempts", type=int, default=8)
    ap.add_argument("--verbose", action="store_true", default=bool(os.environ.get("PTX_VERBOSE")))
    args = ap.parse_args(argv)
    if args.command == "list":
        return cmd_list(args)
    if not args.corpus:
        fail_usage(f"name a corpus: {', '.join(CORPORA)}")
    for c in args.corpus:
        if c not in CORPORA:
            fail_usage(f"unknown corpus '{c}' (corpora: {', '.join(CORPORA)})")
    # --nvcc, else --cuda's, else $NVCC, else /usr/local/cuda's.
    if args.nvcc is None:
        if args.cuda is not None:
            args.nvcc = os.path.join(args.cuda, "bin", "nvcc")
        else:
            args.nvcc = os.environ.get("NVCC") or "/usr/local/cuda/bin/nvcc"
    args.nvcc = os.path.abspath(args.nvcc)
    args.out = os.path.abspath(args.out)
    if args.attempts < 1:
        fail_usage("--attempts must be at least 1")
    return cmd_gen(args) if args.command == "gen" else cmd_check(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
