
TEST_CASE("spec: struct and bytes arguments") {
  const LaunchSpec s = parse_spec(R"({"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [1,1,1],
    "buffers": {"A": {"dtype": "f32", "shape": [64]}, "Q": {"dtype": "u8", "shape": [256]}},
    "tensor_maps": {"tm": {"buffer": "Q", "global_dims": [256], "box_dims": [16]}},
    "args": [{"bytes": "0a0B0c0D"},
             {"struct": {"size": 256, "fields": [
                {"offset": 0, "buffer": "A", "offset_bytes": 16},
                {"offset": 8, "struct": {"size": 8, "fields": [{"offset": 0, "u16": 7}, {"offset": 4, "f32": 1.0}]}},
                {"offset": 17, "bytes": "ff"},
                {"offset": 64, "tensor_map": "tm"},
                {"offset": 192, "i64": -1}]}}]})", "s.json");
  REQUIRE(s.args.size() == 2);
  const ArgSpec& b = s.args[0];
  CHECK(b.kind == ArgKind::Bytes);
  CHECK(b.bytes == std::vector<uint8_t>{0x0a, 0x0b, 0x0c, 0x0d});  // memory order; either case
  CHECK(b.size() == 4);
  CHECK(b.align() == 1);
  CHECK(b.json_path == "args[0]");
  const ArgSpec& st = s.args[1];
  CHECK(st.kind == ArgKind::Struct);
  CHECK(st.size() == 256);
  CHECK(st.align() == 64);  // the tensor map's
  REQUIRE(st.fields.size() == 5);
  CHECK(st.fields[0].kind == ArgKind::Buffer);
  CHECK(st.fields[0].offset_bytes == 16);
  CHECK(st.fields[1].kind == ArgKind::Struct);
  CHECK(st.fields[1].field_offset == 8);
  CHECK(st.fields[1].align() == 4);
  CHECK(st.fields[1].fields[1].scalar_bits == 0x3f800000);
  CHECK(st.fields[1].json_path == "args[1].struct.fields[1]");
  CHECK(st.fields[2].field_offset == 17);
  CHECK(st.fields[3].kind == ArgKind::TensorMap);
  CHECK(st.fields[3].size() == 128);
  CHECK(st.fields[4].scalar_bits == 0xffffffffffffffffull);
  // Nesting is bounded (the recursion): 16 levels parse, 17 are refused.
  auto nested = [](int levels) {
    std::string inner = R"({"offset": 0, "u8": 1})";
    for (int i = 1; i < levels; ++i) inner = R"({"offset": 0, "struct": {"size": 1, "fields": [)" + inner + "]}}";
    return R"([{"struct": {"size": 1, "fields": [)" + inner + "]}}]";
  };
  CHECK(error_of(with("args", nested(16))) == "(no error)");
  CHECK(error_of(with("args", nested(17))).find("aggregates nested more than 16 deep") != std::string::npos);
}
