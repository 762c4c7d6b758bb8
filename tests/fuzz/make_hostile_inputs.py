#!/usr/bin/env python3
"""Writes the hand-made hostile inputs of issue 16 into tests/fuzz/<target>/hostile_*.

Each becomes a replay input of its fuzz target (tests/fuzz/README.md): the examples the issue
lists (100k nested parentheses or unary operators in a PTX operand, a JSON value nested 100k deep,
a 100k-character identifier, raw control bytes, absurd register counts and array sizes, a .npy
header that promises more than it holds, ...). Re-run after changing it; the files are committed.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

HEAD = ".version 8.0\n.target sm_90a\n.address_size 64\n"


def kernel(body, decls=""):
    return (HEAD + decls + ".visible .entry k(.param .u64 k_p0)\n{\n  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n"
            "  .reg .b64 %rd<4>;\n  .reg .f32 %f<4>;\n" + body + "  ret;\n}\n")


def put(target, name, data):
    d = os.path.join(HERE, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "hostile_" + name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def main():
    n = 100_000
    ptx = {
        "deep_parens.ptx": kernel("  mov.u32 %r1, " + "(" * n + "1" + ")" * n + ";\n"),
        "deep_minus.ptx": kernel("  mov.u32 %r1, " + "-" * n + "1;\n"),
        "deep_tilde.ptx": kernel("  mov.u32 %r1, " + "~" * n + "1;\n"),
        "deep_not.ptx": kernel("  mov.u32 %r1, " + "!" * n + "1;\n"),
        "deep_vector.ptx": kernel("  mov.b64 %rd1, " + "{" * n + "%r1" + "}" * n + ";\n"),
        "deep_pred_not.ptx": kernel("  selp.b32 %r1, 1, 0, " + "!" * n + "%p1;\n"),
        "deep_pairs.ptx": kernel("  setp.eq.s32 " + "|".join(["%p1"] * n) + ", %r1, %r2;\n"),
        "deep_initializer.ptx": HEAD + ".global .align 4 .b32 g[4] = " + "{" * n + "1" + "}" * n + ";\n",
        "long_identifier.ptx": kernel("  mov.u32 %r1, " + "x" * 70_000 + ";\n"),
        "long_label.ptx": kernel("  bra " + "L" * 70_000 + ";\n"),
        "control_bytes.ptx": kernel("  mov.u32 %r1, \x1b[31m\x07\x00\x7f\xff;\n"),
        "huge_reg_count.ptx": kernel("  .reg .b32 %big<16777216>;\n  .reg .b32 %big2<16777216>;\n"),
        "huge_array.ptx": HEAD + ".global .align 1 .b8 g[1099511627776][1099511627776];\n",
        "huge_initialized_array.ptx": HEAD + ".global .align 1 .b8 g[68719476736] = {1};\n",
        "huge_shared.ptx": HEAD + ".shared .align 1 .b8 s[8589934592];\n" + kernel("  ret;\n")[len(HEAD):],
        "float_in_int_mov.ptx": kernel("  mov.u32 %r1, 1.5;\n"),
        "extra_store_operand.ptx": kernel("  ld.param.u64 %rd1, [k_p0];\n  st.global.u32 [%rd1], %r1, %r2;\n"),
        "generic_param_load.ptx": kernel("  ld.u64 %rd1, [k_p0];\n"),
        "add_two_types.ptx": kernel("  add.s32.s32 %r1, %r2, %r3;\n"),
        "and_two_types.ptx": kernel("  and.b32.b8 %r1, %r2, %r3;\n"),
        "cvt_swapped.ptx": kernel("  cvt.rzi.u32.f32 %f1, %r1;\n"),
        "binary_garbage.ptx": bytes(range(256)) * 64,
        "unterminated_comment.ptx": HEAD + "/* " + "x" * 1000,
        "unterminated_string.ptx": HEAD + '.file 1 "abc\n',
        "empty.ptx": "",
    }
    for k, v in ptx.items():
        put("ptx_front_end", k, v)
    run = {
        "spin_plain.ptx": kernel("  ld.param.u64 %rd1, [k_p0];\n  cvta.to.global.u64 %rd2, %rd1;\n$L:\n"
                                 "  ld.volatile.global.u32 %r1, [%rd2];\n  setp.eq.s32 %p1, %r1, 0;\n  @%p1 bra $L;\n"),
        "spin_nanosleep.ptx": kernel("  ld.param.u64 %rd1, [k_p0];\n  cvta.to.global.u64 %rd2, %rd1;\n$L:\n"
                                     "  nanosleep.u32 1000;\n  ld.volatile.global.u32 %r1, [%rd2];\n"
                                     "  setp.eq.s32 %p1, %r1, 0;\n  @%p1 bra $L;\n"),
        "spin_test_wait.ptx": kernel("  mbarrier.init.shared::cta.b64 [bar], 64;\n"
                                     "  mbarrier.arrive.shared::cta.b64 %rd3, [bar];\n$L:\n"
                                     "  mbarrier.test_wait.shared::cta.b64 %p1, [bar], %rd3;\n  @!%p1 bra $L;\n",
                                     ).replace("{\n", "{\n  .shared .align 8 .b64 bar;\n", 1),
        "recursion.ptx": HEAD + ".func f(.param .b32 a)\n{\n  .reg .b32 %r<2>;\n  ld.param.b32 %r1, [a];\n"
                         "  { .param .b32 p; st.param.b32 [p], %r1; call f, (p); }\n  ret;\n}\n"
                         + kernel("  { .param .b32 p; st.param.b32 [p], 0; call f, (p); }\n")[len(HEAD):],
        "trap.ptx": kernel("  trap;\n"),
        "oob_store.ptx": kernel("  ld.param.u64 %rd1, [k_p0];\n  st.global.u32 [%rd1+1000000], %r1;\n"),
    }
    for k, v in run.items():
        put("run_kernel", k, v)
    deep = '{"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [1,1,1], "comment": ' + "[" * n + "]" * n + "}"
    spec = {
        "deep_comment.json": deep,
        "deep_last_key.json": '{"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [1,1,1], "zz": ' + "{\"a\":" * n + "1" + "}" * n + "}",
        "huge_buffer.json": '{"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [32,1,1], "buffers": '
                            '{"A": {"dtype": "f32", "shape": [1099511627776]}}, "args": [{"buffer": "A"}, {"u32": 1}]}',
        "many_buffers.json": '{"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [32,1,1], "buffers": {'
                             + ", ".join(f'"b{i}": {{"dtype": "u8", "shape": [1]}}' for i in range(20000)) + "}}",
        "missing_init_file.json": '{"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [32,1,1], "buffers": '
                                  '{"A": {"dtype": "f32", "shape": [4], "init": {"file": "nope.npy"}}}}',
        "npy_wrong_count.json": '{"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [32,1,1], "buffers": '
                                '{"A": {"dtype": "f32", "shape": [5], "init": {"file": "a.npy"}}}}',
        "type_confusion.json": '{"ptx": 7, "kernel": [], "grid": "x", "block": {}}',
        "control_bytes.json": '{"ptx": "k\x1b[2J.ptx", "kernel": "\x07k"}',
        "not_json.json": bytes(range(256)),
        "huge_grid.json": '{"ptx": "k.ptx", "kernel": "k", "grid": [2147483647, 65535, 65535], "block": [1024,1,1]}',
        "tensor_map_extreme.json": '{"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [32,1,1], "buffers": '
                                   '{"A": {"dtype": "f32", "shape": [16]}}, "tensor_maps": {"t": {"buffer": "A", '
                                   '"global_dims": [18446744073709551615, 18446744073709551615], "global_strides_bytes": '
                                   '[18446744073709551615], "box_dims": [4294967295, 4294967295]}}}',
    }
    for k, v in spec.items():
        put("spec_loader", k, v)
    magic = b"\x93NUMPY"
    npy = {
        "truncated.npy": magic + b"\x01",
        "huge_header_len.npy": magic + b"\x02\x00" + struct.pack("<I", 0xFFFFFFFF),
        "huge_shape.npy": magic + b"\x01\x00" + struct.pack("<H", 70) + b"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296), }",
        "promises_more.npy": magic + b"\x01\x00" + struct.pack("<H", 54) + b"{'descr': '<f4', 'fortran_order': False, 'shape': (1000,), }" + b"\x00" * 8,
        "bad_descr.npy": magic + b"\x01\x00" + struct.pack("<H", 60) + b"{'descr': '<f99999999999', 'fortran_order': False, 'shape': (1,), }",
        "unterminated_dict.npy": magic + b"\x01\x00" + struct.pack("<H", 20) + b"{'descr': '<f4', 'sh",
        "garbage.npy": bytes(range(256)) * 4,
    }
    for k, v in npy.items():
        put("npy_reader", k, v)
    put("descriptors", "zeros.bin", bytes(160))
    put("descriptors", "ones.bin", b"\xff" * 160)
    put("descriptors", "pattern.bin", bytes((i * 37) & 0xFF for i in range(160)))
    put("descriptors", "short.bin", b"\x01\x02\x03")
    put("mma_dot", "no_options.txt", "\n---\n\n---\n\n---\n")
    put("mma_dot", "bad_kind.txt", "--arch sm_100a --path tcgen05 --kind nope --atype e4m3 --btype e4m3 --dtype f32\n---\n1\n---\n1\n---\n0\n")
    put("mma_dot", "garbage_vectors.txt", "--arch sm_90a --path wgmma --kind f16 --atype f16 --btype f16 --dtype f32\n---\n"
        + "zz " * 1000 + "\n---\n" + "ffffffff " * 3000 + "\n---\n" + "1" * 100 + "\n")
    put("mma_dot", "block_scaled_no_scales.txt", "--arch sm_100a --path tcgen05 --kind mxf8f6f4 --atype e4m3 --btype e4m3 --dtype f32 --scale-type ue8m0 --scale-vec 1\n---\n3f800000\n---\n3f800000\n---\n" + "0" * 32 + "\n")


if __name__ == "__main__":
    main()
