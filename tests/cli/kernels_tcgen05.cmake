# kernels/tcgen05 -- the tcgen05 corpus (README.md there). Included by tests/CMakeLists.txt.
#   kernels_tcgen05_layouts  host check of umma_layout.h, the code the kernels place operands with:
#                            worked descriptor encodings, an independent reading of every
#                            descriptor the kernels build, TMEM data-path and tcgen05.ld maps
#   kernels_tcgen05_ptx      ptxas -arch=sm_100a accepts every committed .ptx, the PTX is what
#                            gen_ptx.sh makes from the .cu today, every spec names an entry of its
#                            PTX and is what gen_specs.py writes (kernels/ptx_tool.py; needs
#                            nvcc/ptxas and python3)
set(_tck_dir ${PROJECT_SOURCE_DIR}/kernels/tcgen05)

add_executable(kernels_tcgen05_layouts ${_tck_dir}/layout_selfcheck.cc)
tcsim_warnings(kernels_tcgen05_layouts)
add_test(NAME kernels_tcgen05_layouts COMMAND kernels_tcgen05_layouts)
set_tests_properties(kernels_tcgen05_layouts PROPERTIES PASS_REGULAR_EXPRESSION "all passed")

# Regenerating the two PTX files takes about half a minute on a small machine.
include(${PROJECT_SOURCE_DIR}/kernels/ptx_tool.cmake)
tcsim_add_ptx_check(tcgen05 TIMEOUT 900)
