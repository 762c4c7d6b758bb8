# The full replay of the H200 differential for the mma.sync fp8 rows (80M outputs, ~25 s on two
# cores): a doctest case that the suite run of tcsim_models_tests skips (tests/models/
# mma_h200_results_test.cc), run here on its own.
if(TARGET tcsim_models_tests)
  add_test(NAME mma_dot_h200_differential_full
           COMMAND tcsim_models_tests "--test-case=H200 differential: all 10M*" --no-skip)
  set_tests_properties(mma_dot_h200_differential_full PROPERTIES TIMEOUT 900)
endif()

# The structure Structure::F16Halves models is ptxas's code for mma.sync fp8 on sm_90a and sm_100a
# (kernels/probes/results/h200-2026-11-30/sass_mma_sync_fp8.txt). The kernels that show it must
# keep compiling; where a cuobjdump is found, their SASS must still be that emulation (a newer
# ptxas emitting something else would make the rows stale).
if(TCSIM_HAVE_NVCC)
  foreach(_arch 90a 100a)
    add_test(NAME mma_dot_fp8_emulation_sass_sm${_arch}
             COMMAND ${CMAKE_COMMAND} -DNVCC=${TCSIM_CUDA_ROOT}/bin/nvcc -DARCH=${_arch}
                     -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/../kernels/probes/sm90/fp8_emulation_sass.cu
                     -DOUT=${CMAKE_CURRENT_BINARY_DIR}/fp8_emulation_sm${_arch}.cubin
                     -DCUDA_ROOT=${TCSIM_CUDA_ROOT}
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/mma_dot/fp8_emulation_sass.cmake)
    # Without a cuobjdump only the compile runs: CTest reports the test as skipped.
    set_tests_properties(mma_dot_fp8_emulation_sass_sm${_arch} PROPERTIES TIMEOUT 300
                         LABELS "nvcc" SKIP_REGULAR_EXPRESSION "SKIPPED the SASS check")
  endforeach()
endif()
