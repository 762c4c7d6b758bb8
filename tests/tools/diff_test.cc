// Output comparison (tools/spec/diff.h) and output directories (output_dir.h). ULP distances are
// worked out from the encodings by hand in the comments.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "tests/tools/test_util.h"
#include "tools/spec/diff.h"
#include "tools/spec/npy.h"
#include "tools/spec/output_dir.h"
#include "tools/spec/spec_error.h"

using namespace tcsim::spec;

namespace {

template <class T>
OutputArray array(const std::string& name, SpecDType t, std::vector<uint64_t> shape, const std::vector<T>& v) {
  OutputArray a{name, t, std::move(shape), {}};
  a.data.resize(v.size() * sizeof(T));
  std::memcpy(a.data.data(), v.data(), a.data.size());
  return a;
}

}  // namespace

TEST_CASE("diff: ULP distance per format") {
  // f32: 1.0 = 0x3f800000 and its successor 0x3f800001.
  CHECK(ulp_distance(SpecDType::F32, 0x3f800000, 0x3f800001) == 1);
  // +0 and -0: different bits, 0 ulp apart.
  CHECK(ulp_distance(SpecDType::F32, 0x00000000, 0x80000000) == 0);
  // smallest positive and negative subnormals: keys +1 and -1.
  CHECK(ulp_distance(SpecDType::BF16, 0x0001, 0x8001) == 2);
  // largest finite f16 (0x7bff) to +inf (0x7c00): 1.
  CHECK(ulp_distance(SpecDType::F16, 0x7bff, 0x7c00) == 1);
  // -1.0 (0xbff0...) to +1.0 (0x3ff0...) in f64: 2 * 0x3ff0000000000000.
  CHECK(ulp_distance(SpecDType::F64, 0xbff0000000000000ull, 0x3ff0000000000000ull) == 2 * 0x3ff0000000000000ull);
  // NaN on either side: undefined.
  CHECK(!ulp_distance(SpecDType::F32, 0x7fc00000, 0x3f800000));
  CHECK(!ulp_distance(SpecDType::E4M3, 0x7e, 0x7f));  // 448 vs e4m3's NaN code
  CHECK(ulp_distance(SpecDType::E4M3, 0x7e, 0xfe) == 2 * 0x7e);
  // e2m1x2: the larger of the nibbles' distances: low 0x1 vs 0x3 (keys 1, 3): 2; high 0x2 (+1.0)
  // vs 0xa (-1.0) (keys 2, -2): 4.
  CHECK(ulp_distance(SpecDType::E2M1X2, 0x21, 0xa3) == 4);
  CHECK(ulp_distance(SpecDType::UE8M0, 0x7f, 0x81) == 2);  // unsigned: plain code distance
  CHECK(!ulp_distance(SpecDType::UE8M0, 0xff, 0x81));      // 0xff is ue8m0's NaN
  CHECK(!ulp_distance(SpecDType::I32, 1, 2));              // integers: no ulp
}

TEST_CASE("diff: values are printed in their logical type") {
  CHECK(format_value(SpecDType::I8, 0xff) == "-1");
  CHECK(format_value(SpecDType::U8, 0xff) == "255");
  CHECK(format_value(SpecDType::BF16, 0x3fc0) == "1.5");
  CHECK(format_value(SpecDType::E4M3, 0x7f) == "nan");
  CHECK(format_value(SpecDType::F16, 0xfc00) == "-inf");
  CHECK(format_value(SpecDType::E2M1X2, 0x3a) == "(-1, 1.5)");  // low nibble 0xa = -1, high 0x3 = 1.5
  CHECK(unflatten(7, {2, 3, 4}) == std::vector<uint64_t>{0, 1, 3});
}

TEST_CASE("diff: identical, differing, NaN, and the first few shown with multi-dim indices") {
  const float one_up = std::bit_cast<float>(0x3f800001u);
  const auto a = array<float>("C", SpecDType::F32, {2, 3}, {0, 1, 2, 3, 4, 1});
  auto b = array<float>("C", SpecDType::F32, {2, 3}, {0, 1, 2, 3, 4, one_up});
  DiffReport same = diff_outputs({a}, {a});
  CHECK(same.identical());
  CHECK(format_report(same, "x", "y") == "C: identical (6 elements)\nidentical\n");

  DiffReport r = diff_outputs({a}, {b});
  REQUIRE(r.outputs.size() == 1);
  CHECK(!r.identical());
  CHECK(r.outputs[0].differing == 1);
  REQUIRE(r.outputs[0].first.size() == 1);
  CHECK(r.outputs[0].first[0].index == std::vector<uint64_t>{1, 2});
  CHECK(r.outputs[0].first[0].ulp == 1);
  CHECK(r.outputs[0].max_ulp == 1);
  const std::string text = format_report(r, "sim", "hw");
  CHECK(text.find("C: 1 of 6 elements differ, max 1 ulp") != std::string::npos);
  CHECK(text.find("[1, 2]  sim: 1 (0x3f800000)  hw: 1.0000001 (0x3f800001)  1 ulp") != std::string::npos);
  CHECK(text.find("DIFFERENT") != std::string::npos);

  // Many differences: max_shown are listed, the rest counted; NaN mismatches counted.
  std::vector<float> many(100, 1.0f), other(100, 2.0f);
  other[50] = std::nanf("");
  DiffReport m = diff_outputs({array<float>("X", SpecDType::F32, {100}, many)},
                              {array<float>("X", SpecDType::F32, {100}, other)}, 3);
  CHECK(m.outputs[0].differing == 100);
  CHECK(m.outputs[0].first.size() == 3);
  CHECK(m.outputs[0].nan_mismatches == 1);
  CHECK(m.outputs[0].max_ulp == 0x800000);  // 1.0 -> 2.0: one binade of 2^23 codes
  CHECK(format_report(m, "a", "b").find("... 97 more") != std::string::npos);
}

TEST_CASE("diff: same bits are equal even for NaN; +0 and -0 differ") {
  const auto a = array<uint16_t>("H", SpecDType::F16, {2}, {0x7e01, 0x0000});
  const auto b = array<uint16_t>("H", SpecDType::F16, {2}, {0x7e01, 0x8000});
  DiffReport r = diff_outputs({a}, {b});
  CHECK(r.outputs[0].differing == 1);
  CHECK(r.outputs[0].first[0].index == std::vector<uint64_t>{1});
  CHECK(r.outputs[0].first[0].ulp == 0);
}

TEST_CASE("diff: outputs on one side only, and type or shape mismatches") {
  const auto a = array<int32_t>("A", SpecDType::I32, {2}, {1, 2});
  const auto b = array<int32_t>("B", SpecDType::I32, {2}, {1, 2});
  const auto a2 = array<int32_t>("A", SpecDType::U32, {2}, {1, 2});
  const auto a3 = array<int32_t>("A", SpecDType::I32, {1, 2}, {1, 2});
  DiffReport r = diff_outputs({a, b}, {b});
  CHECK(!r.identical());
  CHECK(r.only_a == std::vector<std::string>{"A"});
  CHECK(format_report(r, "d1", "d2").find("A: only in d1") != std::string::npos);
  DiffReport t = diff_outputs({a}, {a2});
  CHECK(!t.identical());
  CHECK(format_report(t, "d1", "d2").find("A: DIFFERENT type or shape: i32 [2] vs u32 [2]") != std::string::npos);
  CHECK(!diff_outputs({a}, {a3}).identical());
}

TEST_CASE("output dir: write, read back, manifest fields") {
  test::TempDir dir;
  RunInfo info;
  info.tool = "tcsim";
  info.arch = "sm_100a";
  info.spec = "k.json";
  info.kernel = "_Z1kPf";
  info.cycles = 1234;
  info.seed = 0;
  info.approx_ops = {"ex2.approx.f32"};
  const auto c = array<uint16_t>("C", SpecDType::BF16, {2, 2}, {0x3f80, 0x4000, 0x4040, 0x4080});
  const auto n = array<uint8_t>("N", SpecDType::E4M3, {3}, {1, 2, 3});
  write_output_dir(dir / "out", info, {c, n});
  const OutputDir d = read_output_dir(dir / "out");
  CHECK(d.has_manifest);
  CHECK(d.run.tool == "tcsim");
  CHECK(d.run.arch == "sm_100a");
  CHECK(d.run.cycles == 1234);
  CHECK(d.run.seed == 0);
  CHECK(d.run.approx_ops == std::vector<std::string>{"ex2.approx.f32"});
  REQUIRE(d.outputs.size() == 2);
  CHECK(d.outputs[0].name == "C");
  CHECK(d.outputs[0].dtype == SpecDType::BF16);
  CHECK(d.outputs[0].shape == std::vector<uint64_t>{2, 2});
  CHECK(d.outputs[0].data == c.data);
  CHECK(d.outputs[1].dtype == SpecDType::E4M3);
  CHECK(diff_outputs({c, n}, d.outputs).identical());
  // bf16 is stored as raw <u2 bits.
  CHECK(read_npy_header(dir / "out/C.npy").descr == "<u2");
  std::ifstream mf(dir / "out/manifest.json");
  const std::string m((std::istreambuf_iterator<char>(mf)), {});
  CHECK(m.find("\"dtype\": \"bf16\"") != std::string::npos);
  CHECK(m.find("\"cycles\": 1234") != std::string::npos);
}

TEST_CASE("output dir: without a manifest, types come from the .npy storage") {
  test::TempDir dir;
  const float x[2] = {1, 2};
  write_npy(dir / "Y.npy", "<f4", {2}, x, 8);
  const OutputDir d = read_output_dir(dir.str());
  CHECK(!d.has_manifest);
  REQUIRE(d.outputs.size() == 1);
  CHECK(d.outputs[0].name == "Y");
  CHECK(d.outputs[0].dtype == SpecDType::F32);
}

TEST_CASE("output dir: bad directories are bad input") {
  test::TempDir dir;
  auto err = [](const std::string& p) -> std::string {
    try {
      read_output_dir(p);
    } catch (const SpecError& e) {
      return e.what();
    }
    return "(no error)";
  };
  CHECK(err(dir / "nope").find("not a directory") != std::string::npos);
  std::filesystem::create_directories(dir / "m");
  test::write_text(dir / "m/manifest.json", R"({"outputs": {"C": {"dtype": "f32", "shape": [2], "file": "C.npy"}}})");
  CHECK(err(dir / "m").find("missing") != std::string::npos);
  const float x[3] = {1, 2, 3};
  write_npy(dir / "m/C.npy", "<f4", {3}, x, 12);
  CHECK(err(dir / "m").find("holds 3 elements of 4 bytes ('<f4'), but the manifest says f32 [2]") != std::string::npos);
  test::write_text(dir / "m/manifest.json", R"({"outputs": {"C": {"dtype": "f33", "shape": [3]}}})");
  CHECK(err(dir / "m").find("unknown dtype \"f33\"") != std::string::npos);
  test::write_text(dir / "m/manifest.json", "{");
  CHECK(err(dir / "m").find("not valid JSON") != std::string::npos);
}

TEST_CASE("diff: printf output is compared as a multiset of lines") {
  // The GPU writes records in FIFO order; tcsim in (CTA, warp, lane, call) order: the same lines
  // in another order are the same output.
  const PrintfDiff same = diff_printf("a\nb\nb\n", "b\na\nb\n");
  CHECK(same.identical());
  CHECK_FALSE(same.same_order);
  CHECK(same.lines_a == 3);
  const PrintfDiff d = diff_printf("a\nb\nb\nc", "b\na\nd\nd\n");
  CHECK_FALSE(d.identical());
  CHECK(d.only_a_total == 2);  // one "b" more, and "c" (a last line without '\n' counts)
  CHECK(d.only_b_total == 2);  // "d" twice
  REQUIRE(d.only_a.size() == 2);
  CHECK(d.only_a[0] == std::pair<std::string, uint64_t>{"b", 1});
  CHECK(d.only_a[1] == std::pair<std::string, uint64_t>{"c", 1});
  CHECK(d.only_b[0] == std::pair<std::string, uint64_t>{"d", 2});
  DiffReport r;
  add_printf_diff(r, PrintfCapture{"x\ny\n", 2, 0, 0}, PrintfCapture{"y\nx\n", {}, {}, {}}, "tcsim", "gpu");
  CHECK(r.identical());
  CHECK(format_report(r, "tcsim", "gpu").find("printf: identical (2 lines, in another order") != std::string::npos);
  DiffReport r2;
  add_printf_diff(r2, PrintfCapture{"x\n", {}, {}, {}}, PrintfCapture{"z\n", {}, {}, {}}, "tcsim", "gpu");
  CHECK_FALSE(r2.identical());
  CHECK(format_report(r2, "tcsim", "gpu").find("printf: 1 of 1 lines only in tcsim, 1 of 1 only in gpu\n  tcsim: \"x\"\n"
                                                "  gpu: \"z\"\n") != std::string::npos);
  // One side without a capture (an older golden): not compared, and said so.
  DiffReport r3;
  add_printf_diff(r3, PrintfCapture{"x\n", {}, {}, {}}, std::nullopt, "tcsim", "old");
  CHECK(r3.identical());
  CHECK(r3.printf_note == "printf: only tcsim captured printf output (1 lines); not compared");
}

TEST_CASE("output dir: printf.txt and its manifest entry round-trip") {
  test::TempDir d;
  RunInfo info;
  info.tool = "tcsim";
  info.printf_output = PrintfCapture{std::string("t=0\nnul\0byte\n", 13), 2, 1, 524288};
  write_output_dir(d / "out", info, {});
  const OutputDir o = read_output_dir(d / "out");
  REQUIRE(o.run.printf_output);
  CHECK(o.run.printf_output->text == std::string("t=0\nnul\0byte\n", 13));
  CHECK(o.run.printf_output->records == 2u);
  CHECK(o.run.printf_output->dropped == 1u);
  CHECK(o.run.printf_output->fifo_bytes == 524288u);
  // An empty capture writes no file, and a stale one is removed.
  info.printf_output = PrintfCapture{"", 0, 0, 524288};
  write_output_dir(d / "out", info, {});
  CHECK_FALSE(std::filesystem::exists(d / "out/printf.txt"));
  CHECK(read_output_dir(d / "out").run.printf_output->text.empty());
  // A file that disagrees with the manifest is bad input.
  info.printf_output = PrintfCapture{"abc\n", 1, 0, 524288};
  write_output_dir(d / "out", info, {});
  test::write_text(d / "out/printf.txt", "abcdef\n");
  try {
    read_output_dir(d / "out");
    FAIL("no error");
  } catch (const SpecError& e) {
    CHECK(std::string(e.what()).find("printf.txt: holds 7 bytes, but the manifest says 4") != std::string::npos);
  }
}
