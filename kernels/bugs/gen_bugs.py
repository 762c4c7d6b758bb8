#!/usr/bin/env python3
"""The seeded bug corpus (docs/checker.md "The bug corpus"): one-bug variants of the project's own
kernels, each made by one textual mutation of the committed PTX (our PTX is generated from our
source, so its variants are ours too).

For every variant this writes, next to this script:
  NAME.ptx          the PTX header, the one mutated .entry, and the .file table of the original
  NAME.json         the launch spec (the original kernel's spec, pointing at NAME.ptx)
  NAME.expect.json  what `tcsim run` must report: the rule id and PTX line that must fire (or, for a
                    kernel that faults or hangs, the error it must end with), the other rules the
                    same bug may also trip (each with why), and whether a GPU would give wrong results
and kernels/bugs/README.md (the table). tests/cli/kernels_bugs.cmake runs each variant
(kernels/bugs/check_bug.cmake). Run from anywhere: python3 kernels/bugs/gen_bugs.py
The expectations are written by hand below from the PTX ISA rule each mutation breaks; the
generator only locates lines.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def rel(p):
    return os.path.join(ROOT, p)


# ---- the original kernels -------------------------------------------------------------------------
def spec_tc1():
    """gemm_bf16_f32 (1 CTA, warp-specialised, 4-stage ring, double-buffered TMEM accumulator) on
    M=128 N=1024 K=256: 4 tiles of 128x256 through one CTA, so both accumulator buffers are reused
    and the smem ring wraps (16 k-blocks over 4 stages)."""
    s = json.load(open(rel("kernels/tcgen05/specs/gemm/bf16_f32_random.json")))
    s["buffers"]["A"]["shape"] = [128, 256]
    s["buffers"]["B"]["shape"] = [1024, 256]
    s["buffers"]["D"]["shape"] = [128, 1024]
    s["tensor_maps"]["tmA"]["global_dims"] = [256, 128]
    s["tensor_maps"]["tmA"]["global_strides_bytes"] = [512]
    s["tensor_maps"]["tmB"]["global_dims"] = [256, 1024]
    s["tensor_maps"]["tmB"]["global_strides_bytes"] = [512]
    s["args"][3:6] = [{"u32": 128}, {"u32": 1024}, {"u32": 256}]
    return s


def spec_tc2():
    """gemm_bf16_f32_2cta (a CTA pair, cta_group::2) on M=256 N=1024 K=256: 4 tiles per pair."""
    s = json.load(open(rel("kernels/tcgen05/specs/gemm/bf16_f32_2cta_random.json")))
    s["buffers"]["A"]["shape"] = [256, 256]
    s["buffers"]["B"]["shape"] = [1024, 256]
    s["buffers"]["D"]["shape"] = [256, 1024]
    s["tensor_maps"]["tmA"]["global_dims"] = [256, 256]
    s["tensor_maps"]["tmA"]["global_strides_bytes"] = [512]
    s["tensor_maps"]["tmB"]["global_dims"] = [256, 1024]
    s["tensor_maps"]["tmB"]["global_strides_bytes"] = [512]
    s["args"][3:6] = [{"u32": 256}, {"u32": 1024}, {"u32": 256}]
    return s


def spec_plain(path):
    return lambda: json.load(open(rel(path)))


BASES = {
    "tc1": dict(ptx="kernels/tcgen05/gemm.ptx", entry="gemm_bf16_f32", spec=spec_tc1,
                what="tcgen05 GEMM, 1 CTA (kernels/tcgen05/gemm.cu)"),
    "tc2": dict(ptx="kernels/tcgen05/gemm.ptx", entry="gemm_bf16_f32_2cta", spec=spec_tc2,
                what="tcgen05 GEMM, 2-SM CTA pair (kernels/tcgen05/gemm.cu)"),
    "hw": dict(ptx="kernels/hopper/gemm_bf16.ptx", entry="gemm_bf16_ws",
               spec=spec_plain("kernels/hopper/specs/gemm/gemm_bf16_ws__512x384x512.json"),
               what="Hopper TMA + wgmma warp-specialised GEMM (kernels/hopper/gemm_bf16.cu)"),
    "mm": dict(ptx="kernels/basic/matmul_tiled.ptx", entry="matmul_tiled",
               spec=spec_plain("kernels/basic/matmul_tiled.json"),
               what="shared-memory tiled SGEMM, 16x16 tiles staged by every thread (kernels/basic/matmul_tiled.cu)"),
    "fh": dict(ptx="kernels/basic/forward_progress.ptx", entry="flag_handoff",
               spec=spec_plain("kernels/basic/flag_handoff.json"),
               what="warp-to-warp handoff through shared memory with release/acquire flags "
                    "(kernels/basic/forward_progress.cu)"),
    "nb": dict(ptx="kernels/race/named_barrier.ptx", entry="named_barrier_handoff",
               spec=spec_plain("kernels/race/named_barrier.json"),
               what="producer/consumer handoff through shared memory on a named barrier (kernels/race/named_barrier.cu)"),
    "gt": dict(ptx="kernels/race/global_tiles.ptx", entry="global_tiles",
               spec=spec_plain("kernels/race/global_tiles.json"),
               what="every CTA writes its own global output tile (kernels/race/global_tiles.cu)"),
    "gf": dict(ptx="kernels/race/global_flag.ptx", entry="global_flag",
               spec=spec_plain("kernels/race/global_flag.json"),
               what="CTA-to-CTA handoff of a global row through a release/acquire flag (kernels/race/global_flag.cu)"),
    "gs": dict(ptx="kernels/race/global_semaphore.ptx", entry="global_semaphore",
               spec=spec_plain("kernels/race/global_semaphore.json"),
               what="split-K serial reduction through a global semaphore (kernels/race/global_semaphore.cu)"),
    "gsf": dict(ptx="kernels/race/global_semaphore.ptx", entry="global_semaphore_fenced",
                spec=spec_plain("kernels/race/global_semaphore_fenced.json"),
                what="split-K serial reduction through a global semaphore, __threadfence + atomicAdd "
                     "(kernels/race/global_semaphore.cu)"),
    "tp": dict(ptx="kernels/tma/tma_pipeline.sm_90a.ptx", entry="tma_pipeline",
               spec=spec_plain("kernels/tma/tma_pipeline.json"),
               what="TMA + mbarrier producer/consumer ring (kernels/tma/tma_pipeline.cu)"),
}


def split_ptx(path, entry):
    """(header lines, entry lines, trailer .file lines) of one .entry of a PTX file."""
    lines = open(rel(path)).read().split("\n")
    starts = [i for i, l in enumerate(lines) if re.match(r"\.visible \.entry ", l)]
    first = starts[0]
    header = [l for l in lines[:first] if "has been demoted" not in l and not l.startswith("\t// .globl")]
    begin = next(i for i in starts if re.match(r"\.visible \.entry %s\(" % re.escape(entry), lines[i]))
    end, depth, opened = begin, 0, False  # the entry's closing brace (inline-asm blocks nest braces)
    while True:
        code = lines[end].split("//")[0]
        depth += code.count("{") - code.count("}")
        opened = opened or depth > 0
        if opened and depth == 0:
            break
        end += 1
    files = [l for l in lines if re.match(r"\t\.file\t", l)]
    # The .debug_str section defines the $L__info_string labels that .loc's function_name names:
    # without it ptxas (and the driver's JIT) rejects the file ("Unresolved label").
    sec = next((i for i, l in enumerate(lines) if re.match(r"\t\.section\t\.debug_str", l)), None)
    if sec is not None:
        files = files + lines[sec:]
    return header, lines[begin:end + 1], files


def find(body, pat, k=0):
    hits = [i for i, l in enumerate(body) if re.search(pat, l)]
    if len(hits) <= k:
        sys.exit(f"gen_bugs: /{pat}/ #{k}: {len(hits)} matches in the entry (the committed PTX changed?)")
    return hits[k]


# ---- mutations ---------------------------------------------------------------------------------------
# op: ("delete", pat, k[, n])          delete the k-th line matching pat (and the n - 1 lines after it)
#     ("sub", pat, k, old, new)        replace old by new (regex) in the k-th line matching pat
#     ("insert_after", pat, k, text)   insert a line after the k-th line matching pat
#     []                               no PTX change (the bug is the spec's: see bug(spec=...))
# expect: {"rule": id, "at": (pat, k)}  the rule must fire at that line of the mutated entry;
#         {"error": regex}              the launch must end with an error matching regex
# also: other rules the bug may trip too ({id: why}); gpu: what a GPU does with it.
BUGS = []


def bug(name, base, what, ops, expect, gpu, also=None, spec=None):
    """spec: a function that edits the variant's launch spec (a host-side bug, or the host setup the
    bug needs: a buffer left uninitialised as cudaMalloc leaves it); the PTX ops may then be []."""
    BUGS.append(dict(name=name, base=base, what=what, ops=ops, expect=expect, gpu=gpu, also=also or {}, spec=spec))


def apply(body, ops):
    body = list(body)
    for op in ops:
        if op[0] == "delete":
            i = find(body, op[1], op[2])
            n = op[3] if len(op) > 3 else 1
            del body[i:i + n]
        elif op[0] == "sub":
            i = find(body, op[1], op[2])
            new = re.sub(op[3], op[4], body[i], count=1)
            if new == body[i]:
                sys.exit(f"gen_bugs: /{op[3]}/ not in line {body[i]!r}")
            body[i] = new
        elif op[0] == "delete_next":  # ("delete_next", anchor pat, anchor k, pat): the first pat after the anchor
            a = find(body, op[1], op[2])
            i = next((j for j in range(a + 1, len(body)) if re.search(op[3], body[j])), None)
            if i is None:
                sys.exit(f"gen_bugs: no /{op[3]}/ after /{op[1]}/")
            del body[i]
        elif op[0] == "insert_after":
            i = find(body, op[1], op[2])
            body.insert(i + 1, op[3])
        else:
            sys.exit(f"gen_bugs: unknown op {op[0]}")
    return body


# Register names below are those of the committed PTX (kernels/*/gen_ptx.sh regenerates it; the
# generator stops if a pattern no longer matches).
WAIT_LOOP = r"@!done bra TCK_WAIT;"


def tcgen05_bugs(b, regs):
    """The same bug classes for the 1-CTA and the 2-SM tcgen05 GEMM; `regs` names their registers."""
    tfull, tempty = regs["tfull"], regs["tempty"]
    ld0 = r"tcgen05\.ld\.sync\.aligned"
    mma0 = r"tcgen05\.mma\.cta_group"
    tma0 = r"cp\.async\.bulk\.tensor\.2d"
    bug(f"{b}_epilogue_no_tfull_wait", b, "the epilogue does not wait on the accumulator-full barrier",
        [("delete", r"try_wait.*\[%s\]" % tfull, 0, 2)],
        {"rule": "tcgen05-stale-read", "at": (ld0, "all")},
        "wrong results or a hang: the epilogue reads the accumulator while the MMAs still write it and arrives "
        "on the accumulator-empty barrier phases ahead of the MMA warp's waits (lapped)",
        also={"tcgen05-missing-fence-after": "the fence after the (dropped) wait orders nothing",
              "tcgen05-missing-fence-before": "the MMAs of the next tile overwrite cells read too early",
              "tcgen05-war-ld": "an MMA overwrites cells of an ld not yet waited for",
              "mbarrier-lapped": "the epilogue arrives on accumulator-empty phases ahead of the MMA warp's waits"})
    bug(f"{b}_epilogue_waits_wrong_barrier", b, "the epilogue waits on a smem full barrier instead of the "
        "accumulator-full barrier", [("sub", r"mov\.u32\s+%s, \S*9tfull_bar;" % regs["tfull_sym"], 0, "9tfull_bar", "8full_bar")],
        {"rule": "tcgen05-stale-read", "at": (ld0, "all")},
        "wrong results or a hang: that barrier completes when the operands land, before the MMAs finish",
        also={"tcgen05-missing-fence-before": "the next tile's MMAs overwrite cells read too early",
              "mbarrier-stale-parity": "the parity of the accumulator ring does not fit the smem ring's phases",
              "mbarrier-lapped": "the smem full barrier's phases advance unobserved by the epilogue",
              "tcgen05-war-ld": "an MMA overwrites cells of an ld not yet waited for"})
    bug(f"{b}_epilogue_parity_flipped", b, "the epilogue's accumulator-full wait uses the wrong parity",
        [("insert_after", r"and\.b32\s+%s, %s, 1;" % (regs["tpar"], regs["tpar_src"]), 0,
          "\txor.b32 \t%s, %s, 1;" % (regs["tpar"], regs["tpar"]))],
        {"rule": "tcgen05-stale-read", "at": (ld0, "all")},
        "wrong results: a wait on the preceding phase's parity passes at once",
        also={"mbarrier-stale-parity": "later waits are satisfied by phases already observed",
              "tcgen05-war-ld": "an MMA overwrites cells of an ld not yet waited for",
              "tcgen05-missing-fence-before": "the next tile's MMAs overwrite cells read too early",
              "tcgen05-missing-fence-after": "the read is not ordered after the MMAs"})
    bug(f"{b}_epilogue_no_fence_after", b, "no tcgen05.fence::after_thread_sync after the accumulator-full wait",
        [("delete_next", r"try_wait.*\[%s\]" % tfull, 0, r"tcgen05\.fence::after_thread_sync")],
        {"rule": "tcgen05-missing-fence-after", "at": (ld0, "all")},
        "may give wrong results: the ld is not ordered after the MMA's writes (timing usually hides it)")
    bug(f"{b}_epilogue_no_fence_before", b, "no tcgen05.fence::before_thread_sync before the epilogue releases "
        "the accumulator", [("delete_next", ld0, 0, r"tcgen05\.fence::before_thread_sync")],
        {"rule": "tcgen05-missing-fence-before", "at": (mma0, "all")},
        "may give wrong results: the next tile's MMA is not ordered after the epilogue's reads")
    bug(f"{b}_mma_no_tempty_wait", b, "the MMA warp does not wait on the accumulator-empty barrier",
        [("delete", r"try_wait.*\[%s\]" % tempty, 0, 2)],
        {"rule": "tcgen05-war-ld", "at": (mma0, "all")},
        "may give wrong results: the MMA warp runs up to two tiles ahead and overwrites an accumulator the "
        "epilogue still reads; tcsim reports the MMA's overwrite of cells the epilogue's loads read",
        also={"tcgen05-stale-read": "the epilogue reads cells the next tile's MMAs write",
              "tcgen05-missing-fence-after": "the MMA warp's fence no longer follows the hand-over",
              "tcgen05-war-ld": "an MMA overwrites cells of an ld not yet waited for",
              "tcgen05-missing-fence-before": "an MMA overwrites cells the epilogue read and has not yet handed over",
              "mbarrier-lapped": "the epilogue's arrivals on the empty barrier are never waited for"})
    bug(f"{b}_mma_no_full_wait", b, "the MMA warp does not wait on the smem full barrier",
        [("delete", r"try_wait.*\[%s\]" % regs["full_wait_reg"], 0, 2)],
        {"rule": "async-access-in-flight", "at": (mma0, "all")},
        "wrong results: the MMA reads operands the TMA is still writing",
        also={"async-write-while-read": "the producer refills stages the early MMAs still read",
              "mbarrier-lapped": "the full barriers complete phases nobody waits for",
              "tcgen05-missing-fence-after": "the fence after the dropped wait orders nothing",
              "mbarrier-arrive-overflow": "the MMA warp's commits arrive on empty barriers whose phase is complete"})
    bug(f"{b}_producer_no_empty_wait", b, "the TMA producer does not wait on the smem empty barrier",
        [("delete", r"try_wait.*\[%s\]" % regs["empty_wait_reg"], 0, 2)],
        regs.get("no_empty_wait_expect") or {"rule": "async-write-while-read", "at": (tma0, "all")},
        "wrong results: TMA overwrites a stage the MMA still reads",
        also={"mbarrier-lapped": "arrivals on the full barrier's next phase before its wait",
              "async-access-in-flight": "an MMA reads a stage TMA is rewriting",
              "mbarrier-tx-mismatch": "two copies land on one phase"})
    bug(f"{b}_expect_tx_too_small", b, "expect_tx announces half the bytes the stage's copies write",
        [("sub", r"mov\.b32\s+%r\d+, {};".format(regs["tx"]), 0, str(regs["tx"]), str(regs["tx"] // 2))],
        regs.get("tx_small_expect") or
        {"error": r"mbarrier-tx-mismatch.*expect-tx announced {} bytes, but {} bytes have landed".format(
            regs["tx"] // 2, regs["tx"])},
        "hangs or wrong results: phases complete when half the bytes landed (the MMA may read the rest in flight)",
        also={"async-access-in-flight": "an MMA reads operand bytes still landing",
              "mbarrier-tx-mismatch": "the surplus lands on a phase whose arrivals are all in"})
    bug(f"{b}_expect_tx_too_large", b, "expect_tx announces 16 KiB more than the stage's copies write",
        [("sub", r"mov\.b32\s+%r\d+, {};".format(regs["tx"]), 0, str(regs["tx"]), str(regs["tx"] + 16384))],
        {"error": r"deadlock.*expect-tx announced {} bytes, {} bytes completed".format(regs["tx"] + 16384, regs["tx"])},
        "hangs: the phase waits for 16 KiB that never come")
    bug(f"{b}_tempty_init_count_1", b, "the accumulator-empty barrier is initialised for 1 arrival instead of "
        "%d" % regs["tempty_n"],
        [("sub", r"mov\.b32\s+%s, %d;" % (regs["tempty_count"], regs["tempty_n"]), 0, r", %d;" % regs["tempty_n"],
          ", 1;")],
        {"rule": "mbarrier-lapped", "at": (r"mbarrier\.arrive\.release\.\S+ _, \[%s\]" % regs["tempty_arrive"], 0)},
        "wrong results: the first epilogue warp's arrival releases the accumulator the other three still read",
        also={"tcgen05-missing-fence-before": "the MMA overwrites cells the other warps read",
              "tcgen05-stale-read": "the epilogue reads cells the next tile's MMAs write",
              "mbarrier-stale-parity": "the empty barrier's phases run ahead of its waiter"})
    bug(f"{b}_desc_sbo_512", b, "the smem descriptors' stride byte offset is 512 instead of 1024",
        [("sub", r"selp\.b64\s+%s" % regs["sbo_reg"], 0, "70643622084608", str(0x4000_0000_0000 | (512 >> 4) << 32))],
        {"rule": "tcgen05-descriptor-misread", "at": (mma0, "all")},
        "wrong results: the MMA reads the 8-row groups 512 bytes apart instead of 1024")
    bug(f"{b}_desc_swizzle_64b", b, "the smem descriptors say SWIZZLE_64B for a SWIZZLE_128B tile",
        [("sub", r"selp\.b64\s+%s" % regs["swz_reg"], 0, "4611686018427387904", str(4 << 61))],
        {"rule": "tcgen05-descriptor-misread", "at": (mma0, "all")},
        "wrong results: the MMA unswizzles with the wrong pattern")
    bug(f"{b}_desc_base_offset", b, "the smem descriptors carry matrix base offset 1 for 1024-aligned tiles",
        [("sub", r"selp\.b64\s+%s" % regs["sbo_reg"], 0, "70643622084608", str(0x4040_0000_0000 | 1 << 49))],
        {"rule": "tcgen05-descriptor-misread", "at": (mma0, "all")},
        "wrong results: the swizzle pattern is taken as starting one 128-byte row later")
    bug(f"{b}_early_dealloc", b, "the Tensor Memory is freed before the final barrier (the epilogue still reads it)",
        [("delete", regs["final_sync"], regs["final_sync_k"], regs["final_sync_n"])],
        {"error": r"tcgen05\.ld at TMEM address 0x[0-9a-f]+"},
        "wrong results or a fault: the epilogue reads freed Tensor Memory")
    bug(f"{b}_lane_quarter_dropped", b, "the epilogue warps drop their lane-quarter offset from the taddr (every "
        "warp addresses TMEM lanes 0-31)",
        [("sub", r"and\.b32\s+%r\d+, %r\d+, 6291456;", 0, "6291456", "0")],
        {"rule": "tcgen05-lane-quarter", "at": (ld0, "all")},
        "right results: the hardware takes the taddr lane modulo 32 inside the warp's own quarter "
        "(docs/hardware_tolerance.md); the finding is tolerated")
    bug(f"{b}_no_stage_commit", b, "the MMA warp never commits the first stage of its ring (tcgen05.commit dropped)",
        [("delete", r"tcgen05\.commit\.", 0)],
        {"error": r"deadlock.*mbarrier\.try_wait"},
        "hangs once the ring wraps: the stage's empty barrier never completes")
    bug(f"{b}_no_accumulator_commit", b, "the MMA warp never commits the accumulator (the last tcgen05.commit dropped)",
        [("delete", r"tcgen05\.commit\.", -1)],
        {"error": r"deadlock.*mbarrier\.try_wait"},
        "hangs: the epilogue waits for an accumulator-full phase that never completes")
    if b == "tc1":  # the 2-SM kernel's commit multicasts to the peer; a local arrive would hang it
        bug(f"{b}_accumulator_arrive_not_commit", b, "the MMA warp signals accumulator-full with a plain "
            "mbarrier.arrive instead of tcgen05.commit (the arrive does not wait for the MMAs)",
            [("sub", r"tcgen05\.commit\.", -1, r"tcgen05\.commit\.cta_group::1\.mbarrier::arrive::one\.shared::cluster\.b64 ",
              "mbarrier.arrive.shared::cta.b64 _, ")],
            {"rule": "tcgen05-stale-read", "at": (ld0, "all")},
            "wrong results by luck of timing: the epilogue's wait passes when the MMAs are issued, not done",
            also={"tcgen05-missing-fence-before": "the next tile's MMAs overwrite cells read too early",
                  "tcgen05-war-ld": "an MMA overwrites cells of an ld not yet waited for"})
    bug(f"{b}_epilogue_other_buffer", b, "the epilogue reads the other accumulator buffer of the double buffer",
        [("insert_after", r"and\.b32\s+%s, %s, 256;" % (regs["bufsel"], regs["bufsel_src"]), 0,
          "\txor.b32 \t%s, %s, 256;" % (regs["bufsel"], regs["bufsel"]))],
        {"rule": "tcgen05-stale-read", "at": (ld0, "all")},
        "wrong results: the tile's output comes from the other tile's accumulator, read while its MMAs run",
        also={"tcgen05-missing-fence-before": "the MMAs overwrite the buffer the epilogue read without a hand-over",
              "tcgen05-missing-fence-after": "the read is not ordered after the MMAs of that buffer",
              "tcgen05-war-ld": "an MMA overwrites cells of an ld not yet waited for"})
    bug(f"{b}_mma_tempty_parity_flipped", b, "the MMA warp waits on the accumulator-empty barrier with the wrong "
        "parity", [("insert_after", r"and\.b32\s+%s, %s, 1;" % (regs["tepar"], regs["tepar_src"]), 0,
                    "\txor.b32 \t%s, %s, 1;" % (regs["tepar"], regs["tepar"]))],
        {"error": r"deadlock.*mbarrier\.try_wait"},
        "hangs: the first wait on the accumulator-empty barrier's phase 0 never completes")
    bug(f"{b}_no_dealloc", b, "the Tensor Memory is never freed (tcgen05.dealloc dropped)",
        [("delete", r"tcgen05\.dealloc\.", 0)],
        {"rule": "tcgen05-columns-leaked", "at": (r"^\s*ret;", "all")},
        "undefined: the columns stay allocated after the CTA exits; later CTAs on the SM may wait for them forever")
    bug(f"{b}_alloc_after_relinquish", b, "a second tcgen05.alloc after tcgen05.relinquish_alloc_permit",
        [("insert_after", r"tcgen05\.relinquish_alloc_permit\.", 0, regs["second_alloc"])],
        {"error": r"deadlock.*tcgen05-alloc-after-relinquish"},
        "undefined: the CTA gave up its right to allocate; here all 512 columns are taken, so the alloc waits")


tcgen05_bugs("tc1", dict(no_empty_wait_expect={"error": r"mbarrier-arrive-overflow"}, tfull_sym="%r773", tfull="%r498", tempty="%r123", tpar="%r499", tpar_src="%r764",
                         full_wait_reg="%r134", empty_wait_reg="%r354", tx=49152, tempty_count="%r118", tempty_n=4,
                         tempty_arrive="%r776", sbo_reg="%rd11", swz_reg="%rd10", bufsel="%r775",
                         bufsel_src="%r774", tepar="%r124", tepar_src="%r126",
                         second_alloc="\ttcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r119], %r120;",
                         final_sync=r"bar\.sync\s+0;", final_sync_k=1, final_sync_n=1))
tcgen05_bugs("tc2", dict(tfull_sym="%r857", tfull="%r582", tempty="%r160", tpar="%r583", tpar_src="%r848",
                         full_wait_reg="%r171", empty_wait_reg="%r396", tx=65536, tempty_count="%r153", tempty_n=8,
                         tx_small_expect={"rule": "mbarrier-tx-at-exit", "at": (r"^\s*ret;", "all")},
                         tempty_arrive="%r860", sbo_reg="%rd13", swz_reg="%rd12", bufsel="%r859",
                         bufsel_src="%r858", tepar="%r161", tepar_src="%r163",
                         second_alloc="\ttcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%r154], %r155;",
                         final_sync=r"barrier\.cluster\.arrive\.release\.aligned;", final_sync_k=1, final_sync_n=2))


def hopper_bugs():
    b = "hw"
    wg = r"wgmma\.mma_async"
    tma = r"cp\.async\.bulk\.tensor\.2d"
    acc = r"%f9[0-9][0-9]\b"
    bug("hw_consumer_test_wait_once", b, "the consumers test the smem full barrier once (test_wait) instead of "
        "looping on try_wait",
        [("sub", r"mbarrier\.try_wait\.parity\.shared::cta\.b64 p, \[%r82\]", 0, "try_wait", "test_wait"),
         ("delete", r"@%p20 bra\s+\$L__BB0_12;", 0)],
        {"rule": "async-access-in-flight", "at": (wg, "all")},
        "wrong results: wgmma reads operands TMA is still writing",
        also={"async-write-while-read": "the producer refills stages early wgmmas still read",
              "mbarrier-lapped": "the full barriers complete phases nobody waits for",
              "mbarrier-stale-parity": "a later wait is satisfied by an already observed phase",
              "mbarrier-arrive-overflow": "the consumers release stages whose phase already completed"})
    bug("hw_consumer_parity_flipped", b, "the consumers start on parity 1 of the smem full barriers",
        [("sub", r"mov\.u32\s+%r223, 0;", 0, ", 0;", ", 1;")],
        {"rule": "async-access-in-flight", "at": (wg, "all")},
        "wrong results or a hang: a parity-1 wait on phase 0 passes at once, before the operands land",
        also={"async-write-while-read": "the producer refills stages early wgmmas still read",
              "mbarrier-lapped": "the full barriers complete phases nobody waits for",
              "mbarrier-stale-parity": "later waits are satisfied by phases already observed",
              "mbarrier-arrive-overflow": "the consumers release stages whose phase already completed (under "
                                          "the calibrated timing the launch stops here rather than deadlocking)"})
    bug("hw_no_wgmma_fence", b, "no wgmma.fence before the first wgmma.mma_async of a tile",
        [("delete", r"wgmma\.fence\.sync\.aligned;", 0)],
        {"rule": "wgmma-fence-missing", "at": (wg, 0)},
        "may give wrong results: the accumulator registers written before are not ordered before the wgmma")
    bug("hw_no_wait_group_0", b, "the epilogue reads the accumulators without wgmma.wait_group 0",
        [("delete", r"wgmma\.wait_group\.sync\.aligned 0;", 0)],
        {"rule": "wgmma-register-in-flight", "at": (acc, "all")},
        "wrong results: the epilogue reads accumulator registers the last wgmmas still write",
        also={"async-write-while-read": "the stage is released while its wgmmas still read it"})
    bug("hw_producer_test_wait_once", b, "the TMA producer tests the smem empty barrier once (test_wait) instead "
        "of looping on try_wait",
        [("sub", r"mbarrier\.try_wait\.parity\.shared::cta\.b64 p, \[%r31\]", 0, "try_wait", "test_wait"),
         ("delete", r"@%p35 bra\s+\$L__BB0_26;", 0)],
        {"error": r"mbarrier-arrive-overflow"},
        "wrong results: TMA overwrites a stage a wgmma still reads",
        also={"mbarrier-lapped": "arrivals on a full barrier's next phase before its wait",
              "async-access-in-flight": "a wgmma reads a stage TMA is rewriting",
              "mbarrier-tx-mismatch": "two stages' copies land on one phase"})
    bug("hw_expect_tx_too_small", b, "expect_tx announces 16 KiB of the stage's 32 KiB",
        [("sub", r"mov\.u32\s+%r197, 32768;", 0, "32768", "16384")],
        {"error": r"deadlock.*mbarrier-tx-mismatch"},
        "hangs or wrong results: phases complete when half the bytes landed; the surplus carries to the next phase")
    bug("hw_expect_tx_too_large", b, "expect_tx announces 48 KiB for the stage's 32 KiB",
        [("sub", r"mov\.u32\s+%r197, 32768;", 0, "32768", "49152")],
        {"error": r"deadlock.*expect-tx announced 49152 bytes, 32768 bytes completed"},
        "hangs: the phase waits for bytes that never come")
    bug("hw_empty_init_count_small", b, "the smem empty barriers are initialised for 4 arrivals instead of 8",
        [("sub", r"mov\.u32\s+%r70, 8;", 0, ", 8;", ", 4;")],
        {"error": r"mbarrier-arrive-overflow"},
        "wrong results or a hang: one consumer warpgroup's release frees a stage the other still reads",
        also={"async-write-while-read": "TMA refills a stage the other warpgroup's wgmmas still read",
              "async-access-in-flight": "a wgmma reads a stage TMA is refilling",
              "mbarrier-stale-parity": "the producer's waits run behind the lapped phases"})
    bug("hw_full_init_count_2", b, "the smem full barriers are initialised for 2 arrivals (only the producer arrives)",
        [("sub", r"mov\.u32\s+%r68, 1;", 0, ", 1;", ", 2;")],
        {"error": r"deadlock.*1 of 2 arrivals pending"},
        "hangs: every full barrier waits for an arrival that never comes")
    bug("hw_no_wgmma_commit", b, "the consumers never commit their wgmma groups (wgmma.commit_group dropped)",
        [("delete", r"wgmma\.commit_group\.sync\.aligned;", 0)],
        {"rule": "wgmma-register-in-flight", "at": (acc, "all")},
        "wrong results: wgmma.wait_group waits for no group, and the accumulators are read in flight",
        also={"async-write-while-read": "the stage is released while its wgmmas still read it"})
    bug("hw_no_consumer_release", b, "the consumers never arrive on the smem empty barrier",
        [("delete", r"mbarrier\.arrive\.shared::cta\.b64 _, \[%r128\];", 0)],
        {"error": r"deadlock.*mbarrier\.try_wait"},
        "hangs once the ring wraps")


def pipeline_bugs():
    b = "tp"
    lds = r"ld\.shared\.u32"
    bug("tp_consumer_test_wait_once", b, "the test_wait consumer does not loop until the phase completes",
        [("delete", r"@%p10 bra\s+\$L__BB0_15;", 0)],
        {"rule": "async-access-in-flight", "at": (lds, "all")},
        "wrong results: test_wait returns False at once and the consumer reads a tile in flight",
        also={"mbarrier-stale-parity": "a later wait is satisfied by an already observed phase",
              "mbarrier-lapped": "the consumer arrives on the empty barrier's next phase early"})
    bug("tp_expect_tx_too_small", b, "expect_tx announces 2 KiB of the tile's 4 KiB",
        [("sub", r"mov\.u32\s+%r179, 4096;", 0, "4096", "2048")],
        {"error": r"mbarrier-tx-mismatch.*expect-tx announced 2048 bytes, but 4096 bytes have landed"},
        "hangs or wrong results: the phase's tx-count goes negative")
    bug("tp_expect_tx_too_large", b, "expect_tx announces 8 KiB for the tile's 4 KiB",
        [("sub", r"mov\.u32\s+%r179, 4096;", 0, "4096", "8192")],
        {"error": r"deadlock.*expect-tx announced 8192 bytes, 4096 bytes completed"},
        "hangs: the phase waits for bytes that never come")
    bug("tp_empty_init_count_2", b, "the empty barriers are initialised for 2 arrivals instead of 4 (consumer warps)",
        [("sub", r"mov\.u32\s+%r55, 4;", 0, ", 4;", ", 2;")],
        {"rule": "async-access-in-flight", "at": (lds, "all")},
        "wrong results or a hang: the producer refills a tile two consumers still read",
        also={"async-access-in-flight": "a consumer reads a tile TMA is rewriting",
              "mbarrier-stale-parity": "a wait is satisfied by an already observed phase",
              "mbarrier-tx-mismatch": "two tiles' bytes land on one phase",
              "mbarrier-lapped": "the empty barriers complete phases before the producer waits"})
    bug("tp_full_init_count_2", b, "the full barriers are initialised for 2 arrivals (only the producer arrives)",
        [("sub", r"mov\.u32\s+%r53, 1;", 0, ", 1;", ", 2;")],
        {"error": r"deadlock.*1 of 2 arrivals pending"},
        "hangs: every full barrier waits for an arrival that never comes")
    bug("tp_producer_parity_flipped", b, "the producer waits on the empty barrier with the wrong parity",
        [("delete", r"not\.b32\s+%r171, %r170;", 0),
         ("sub", r"and\.b32\s+%r33, %r171, 1;", 0, "%r171", "%r170")],
        {"error": r"deadlock.*mbarrier\.try_wait"},
        "hangs: the first wait on the empty barrier's phase 0 never completes (nothing arrives before the first fill)")
    bug("tp_no_mbarrier_init", b, "the first full barrier is never initialised",
        [("delete", r"mbarrier\.init\.shared\.b64 \[%r40\], %r53;", 0)],
        {"error": r"mbarrier-uninitialised.*holds no initialised mbarrier"},
        "undefined: the hardware works on whatever the 8 bytes hold (a hang or garbage)")
    bug("tp_no_consumer_release", b, "the consumers never arrive on the empty barrier",
        [("delete", r"mbarrier\.arrive\.shared\.b64\s+%rd22,\s+\[%r155\];", 0)],
        {"error": r"deadlock.*mbarrier\.try_wait"},
        "hangs once the ring wraps")


def race_bugs():
    """Shared-memory data races between warps (shared-data-race, sim/checker/race.h)."""
    lds, sts = r"ld\.shared\.f32", r"st\.shared\.f32"
    bug("mm_no_sync_after_staging", "mm", "the __syncthreads between staging the tiles and reading them is gone",
        [("delete", r"bar\.sync\s+0;", 0)],
        {"rule": "shared-data-race", "at": (lds, "all")},
        "wrong results: threads read tile elements other warps have not stored yet",
        also={"uninitialised-read": "the first tile's reads come before other warps stored it"})
    bug("mm_no_sync_after_compute", "mm", "the __syncthreads after the tile's products is gone: the next "
        "tile's stores overwrite elements other warps still read",
        [("delete", r"bar\.sync\s+0;", 1)],
        {"rule": "shared-data-race", "at": (sts, "all")},
        "wrong results: a fast warp overwrites the tiles while slower warps still multiply them")
    ldd = r"ld\.shared\.u32"
    bug("fh_flag_acquire_relaxed", "fh", "the consumer's flag loads are relaxed instead of acquire (no fence after)",
        [("sub", r"ld\.acquire\.cta\.b32", 0, r"ld\.acquire", "ld.relaxed"),
         ("sub", r"ld\.acquire\.cta\.b32", 0, r"ld\.acquire", "ld.relaxed")],
        {"rule": "shared-data-race", "at": (ldd, "all")},
        "may give wrong results: the data load is not ordered after the flag (PTX ISA §8.8: a relaxed load "
        "synchronises only with a fence after it); shared memory usually hides it")
    bug("fh_flag_release_relaxed", "fh", "the producer's flag store is relaxed instead of release (no fence before)",
        [("sub", r"st\.release\.cta\.b32", 0, r"st\.release", "st.relaxed")],
        {"rule": "shared-data-race", "at": (ldd, "all")},
        "may give wrong results: the row's stores are not ordered before the flag (PTX ISA §8.8)")
    bug("fh_no_flag_init", "fh", "the flags are never cleared (ready[warp] = 0 before the __syncthreads is gone)",
        [("delete", r"st\.shared\.u32\s+\[%r10\], %r11;", 0)],
        {"rule": "uninitialised-read", "at": (r"ld\.acquire\.cta\.b32", "all")},
        "wrong results or a hang: the flags hold whatever an earlier kernel left in shared memory, so a consumer "
        "may pass its wait before the producer published (tcsim's shared memory starts zeroed, so it runs right)")
    bug("nb_count_too_small", "nb", "the named barrier counts 64 threads instead of the producers' and consumers' 128",
        [("sub", r"bar\.arrive 1, 128;", 0, "128", "64"), ("sub", r"bar\.sync 1, 128;", 0, "128", "64")],
        {"rule": "shared-data-race", "at": (r"st\.shared\.u32", "all")},
        "wrong results: the two consumer warps complete the barrier by themselves and read the row before the "
        "producers store it (the producers' stores then race with those reads)",
        also={"uninitialised-read": "the consumers read the row before anything stored it"})


def uninitialised(*names):
    """The spec edit: buffers `names` are allocated and never written by the host (docs/launch_spec.md
    `{"uninitialised": true}`: a cudaMalloc without a copy or memset)."""
    def edit(spec):
        for n in names:
            spec["buffers"][n]["init"] = {"uninitialised": True}
    return edit


def initcheck_bugs():
    """Reads of global memory nothing wrote (uninitialised-global-read, sim/checker/global_init.h) and
    intra-warp write conflicts (warp-write-conflict, sim/checker/warp_conflict.h)."""
    bug("mm_a_never_copied", "mm", "the host never copies A to the device (cudaMalloc without cudaMemcpy; C, "
        "which the kernel only writes, is not initialised either)",
        [], {"rule": "uninitialised-global-read", "at": (r"ld\.global\.nc\.f32", 0)},
        "wrong results: the kernel multiplies whatever the allocation held (tcsim's fresh memory is zero)",
        spec=uninitialised("A", "C"))
    bug("tp_input_never_copied", "tp", "the host never copies the TMA source tensor to the device (the outputs, "
        "which the kernel only writes, are not initialised either)",
        [], {"rule": "uninitialised-global-read", "at": (r"cp\.async\.bulk\.tensor", 0)},
        "wrong results: the tiles hold whatever the allocation held",
        spec=uninitialised("a", "copy", "sums"))
    bug("mm_as_store_drops_tx", "mm", "the A tile's shared-memory store drops threadIdx.x from its index: the 16 "
        "threads of a row store their different elements to As[ty][0]",
        [("sub", r"add\.s32\s+%r6, %r44, %r45;", 0, r"%r45;", "0;")],
        {"rule": "warp-write-conflict", "at": (r"st\.shared\.f32\s+\[%r6\]", 0)},
        "wrong results: As[ty][0] holds one lane's element (which one is undefined) and the rest of the row is "
        "never written",
        also={"uninitialised-read": "the rest of each A-tile row is never written, and the products read it"})


def global_race_bugs():
    """Races between CTAs on global memory (global-data-race, sim/checker/global_race.h)."""
    def tile_mask(m):
        def edit(spec):
            spec["args"][2] = {"u32": m}
        return edit
    bug("gt_overlapping_tiles", "gt", "the tile index is masked to bit 1 (mask 2): CTAs 0 and 1 write tile 0, CTAs 2 "
        "and 3 tile 2", [], {"rule": "global-data-race", "at": (r"st\.global\.u32", "all")},
        "wrong results: two CTAs store different values to the same output words; which one remains is undefined",
        spec=tile_mask(2))
    ld_row = r"ld\.global\.u32"
    bug("gf_flag_release_relaxed", "gf", "the producer's flag store is relaxed instead of release (no fence before)",
        [("sub", r"st\.release\.gpu\.global\.u32", 0, r"st\.release", "st.relaxed")],
        {"rule": "global-data-race", "at": (ld_row, "all")},
        "may give wrong results: the row's stores are not ordered before the flag (PTX ISA §8.8), the consumer may "
        "read the old row")
    bug("gf_flag_acquire_relaxed", "gf", "the consumer's flag load is relaxed instead of acquire (no fence after)",
        [("sub", r"ld\.acquire\.gpu\.global\.u32", 0, r"ld\.acquire", "ld.relaxed")],
        {"rule": "global-data-race", "at": (ld_row, "all")},
        "may give wrong results: the row's loads are not ordered after the flag (PTX ISA §8.8: a relaxed load "
        "synchronises only with a fence after it)")
    bug("gs_semaphore_relaxed", "gs", "the semaphore's increment is red.relaxed instead of red.release (no fence "
        "before): the tile is handed on without a release",
        [("sub", r"red\.release\.gpu\.global\.add\.u32", 0, r"red\.release", "red.relaxed")],
        {"rule": "global-data-race", "at": (r"(ld|st)\.global\.u32", "all")},
        "may give wrong results: the next CTA may read the partial sums before this CTA's stores reach them")
    bug("gsf_no_threadfence", "gsf", "the __threadfence before the semaphore's atomicAdd is gone (a relaxed atomic "
        "with no fence hands the tile on)",
        [("delete", r"membar\.gl;", 0)],
        {"rule": "global-data-race", "at": (r"(ld|st)\.global\.u32", "all")},
        "may give wrong results: the next CTA may read the partial sums before this CTA's stores reach them")


hopper_bugs()
pipeline_bugs()
race_bugs()
global_race_bugs()
initcheck_bugs()


def main():
    out_rows = []
    for b in BUGS:
        base = BASES[b["base"]]
        header, body, files = split_ptx(base["ptx"], base["entry"])
        mutated = apply(body, b["ops"])
        banner = "// kernels/bugs/gen_bugs.py: %s with one bug: %s" % (base["ptx"], b["what"])
        lines = [banner] + header + mutated + files
        first_body = 1 + len(header)
        exp = dict(b["expect"])
        if "at" in exp:
            pat, k = exp.pop("at")
            if k == "all":  # the rule must fire at one of these lines (the bug's sites)
                exp["lines"] = [first_body + i + 1 for i, l in enumerate(mutated) if re.search(pat, l)]
            else:
                exp["lines"] = [first_body + find(mutated, pat, k) + 1]
        exp["also"] = b["also"]
        exp["gpu"] = b["gpu"]
        exp["bug"] = b["what"]
        exp["kernel"] = base["what"]
        name = b["name"]
        with open(os.path.join(HERE, name + ".ptx"), "w") as f:
            f.write("\n".join(lines) + "\n")
        spec = base["spec"]()
        if b["spec"]:
            b["spec"](spec)
        spec.pop("case", None)
        spec.pop("comment", None)
        spec["description"] = "seeded bug (kernels/bugs/gen_bugs.py): %s: %s" % (base["what"], b["what"])
        spec["ptx"] = name + ".ptx"
        with open(os.path.join(HERE, name + ".json"), "w") as f:
            json.dump(spec, f, indent=1)
            f.write("\n")
        with open(os.path.join(HERE, name + ".expect.json"), "w") as f:
            json.dump(exp, f, indent=1)
            f.write("\n")
        out_rows.append((name, b["what"], exp.get("rule") or exp["error"].replace("|", "\\|"), exp.get("lines", []),
                         b["gpu"]))
    # The "H200" column: what the variant did on an H200 (kernels/bugs/h200_run.sh, compared with
    # compare_runs.py), one "variant<TAB>result" line per variant in results/h200.tsv; "#" lines
    # are the column's caption (date, driver).
    h200, h200_note = {}, []
    h200_path = os.path.join(HERE, "results", "h200.tsv")
    if os.path.exists(h200_path):
        for l in open(h200_path):
            l = l.rstrip("\n")
            if l.startswith("#"):
                h200_note.append(l.lstrip("# "))
            elif l:
                k, v = l.split("\t", 1)
                h200[k] = v
    with open(os.path.join(HERE, "README.md"), "w") as f:
        f.write("# The seeded bug corpus\n\n"
                "Generated by `gen_bugs.py` (do not edit by hand; docs/checker.md \"The bug corpus\"): one-bug variants "
                "of the project's own kernels, each one textual mutation of the committed PTX (or, for a host-side bug, of "
                "its launch spec). `tests/cli/"
                "kernels_bugs.cmake` runs every variant and checks `NAME.expect.json` (check_bug.cmake): the rule "
                "must fire at one of the listed PTX lines and no rule outside the listed ones may fire; or the "
                "launch must end with the listed error. \"GPU\" says what a GPU does with the bug (from the PTX "
                "ISA rule). \"H200\" says what the sm_90a variants did on an H200 (h200_run.sh): %s\n\n"
                "| variant | bug | tcsim must report | GPU | H200 |\n|---|---|---|---|---|\n"
                % " ".join(h200_note or ["not run."]))
        for name, what, rule, lines, gpu in out_rows:
            where = ("`%s` at line %s" % (rule, lines[0]) if len(lines) == 1 else
                     "`%s` at one of %d lines" % (rule, len(lines))) if lines else "an error (%s)" % rule
            hw = h200.get(name, "not run" if name.startswith(("hw_", "tp_", "gt_", "gf_", "gs_", "gsf_")) else "— (sm_100a: no Blackwell GPU)")
            f.write("| %s | %s | %s | %s | %s |\n" % (name, what, where, gpu, hw))
    with open(os.path.join(HERE, "variants.txt"), "w") as f:
        for r in out_rows:
            f.write(r[0] + "\n")
    print(f"gen_bugs: {len(out_rows)} variants")


if __name__ == "__main__":
    main()
