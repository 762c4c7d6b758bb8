# The committed tcgen05 probe-tile PTX (kernels/probes/tcgen05/tcgen05_tile.ptx) assembles for
# sm_100a (ptxas is the first judge of legality, DESIGN.md). Skipped without CUDA.
if(TCSIM_HAVE_NVCC)
  add_test(NAME probes_tcgen05_tile_ptxas
           COMMAND ${TCSIM_CUDA_ROOT}/bin/ptxas -arch=sm_100a
                   ${CMAKE_CURRENT_SOURCE_DIR}/../kernels/probes/tcgen05/tcgen05_tile.ptx -o
                   ${CMAKE_CURRENT_BINARY_DIR}/tcgen05_tile.cubin)
else()
  tcsim_add_skipped_test(probes_tcgen05_tile_ptxas_SKIPPED "no nvcc/ptxas at ${TCSIM_CUDA_ROOT}")
endif()
