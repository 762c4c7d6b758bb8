# kernels/tma and kernels/cluster — the asynchronous-machine corpus (TMA, mbarrier, bulk copies,
# clusters, DSMEM). Included by tests/CMakeLists.txt (every tests/cli/*.cmake is).
#
#   kernels_tma_specs      the launch specs: no drift from gen_specs.py, args against the .entry
#                          parameters, buffers/tensor maps/outputs/cluster/limits, tensor maps valid
#                          under the documented cuTensorMapEncodeTiled rules (check_specs.py)
#   kernels_tma_model      the expected-output model: its layout function against the PTX ISA
#                          swizzle tables, then every golden spec modelled (expect.py)
#   kernels_{tma,cluster}_ptx  ptxas on every committed .sm_90a/.sm_100a.ptx, and the committed PTX
#                          equal to a fresh nvcc build (check_ptx.sh); SKIPPED without nvcc
set(_tk ${PROJECT_SOURCE_DIR}/kernels/tma)

find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME kernels_tma_specs COMMAND ${Python3_EXECUTABLE} ${_tk}/check_specs.py ${PROJECT_SOURCE_DIR}/kernels)
  add_test(NAME kernels_tma_model_selftest COMMAND ${Python3_EXECUTABLE} ${_tk}/expect.py --selftest)
  add_test(NAME kernels_tma_model_all COMMAND ${Python3_EXECUTABLE} ${_tk}/expect.py --all)
  set_tests_properties(kernels_tma_specs kernels_tma_model_selftest kernels_tma_model_all
                       PROPERTIES LABELS "kernels")
else()
  tcsim_add_skipped_test(kernels_tma_specs_SKIPPED "no python3: kernels/tma launch specs and output model not checked")
endif()

include(${PROJECT_SOURCE_DIR}/kernels/ptx_tool.cmake)
tcsim_add_ptx_check(tma TIMEOUT 1800)
tcsim_add_ptx_check(cluster TIMEOUT 1800)
