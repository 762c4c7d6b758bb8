# The fuzz targets and what each links (fuzz/README.md). Included by fuzz/CMakeLists.txt (libFuzzer
# builds, TCSIM_FUZZ=ON) and tests/CMakeLists.txt (the replay tests of tests/fuzz/, every build).
set(TCSIM_FUZZ_TARGETS ptx_front_end spec_loader npy_reader descriptors mma_dot run_kernel)
set(TCSIM_FUZZ_LIBS_ptx_front_end tcsim_sim tcsim_spec tcsim_isa)
set(TCSIM_FUZZ_LIBS_spec_loader tcsim_spec tcsim_isa)
set(TCSIM_FUZZ_LIBS_npy_reader tcsim_spec)
set(TCSIM_FUZZ_LIBS_descriptors tcsim_isa)
set(TCSIM_FUZZ_LIBS_mma_dot tcsim_spec tcsim_models tcsim_isa)
set(TCSIM_FUZZ_LIBS_run_kernel tcsim_spec tcsim_sim tcsim_isa)
set(TCSIM_FUZZ_EXTRA_mma_dot ${PROJECT_SOURCE_DIR}/tools/tcsim/cmd_mma_dot.cc ${PROJECT_SOURCE_DIR}/fuzz/cli_stub.cc)
