# tcsim_add_ptx_check(CORPUS [TIMEOUT s] [LABELS ...]): the CTest kernels_<CORPUS>_ptx, the same
# judge for every corpus: kernels/<CORPUS>/check_ptx.sh -> kernels/ptx_tool.py check <CORPUS>
# (pairing, ptxas on every committed .ptx, no drift from what nvcc makes of the sources today,
# compiled at the canonical location so the checkout path does not matter). Without nvcc/ptxas or
# python3 it is ..._SKIPPED, which CTest reports as skipped.
# TCSIM_PTX_CHECK_CACHE: where the checks record what nvcc/ptxas were seen to produce for exact
# inputs (ptx_tool.py's module doc), so a re-run skips the unchanged sources; empty = no cache.
include_guard(GLOBAL)
set(TCSIM_PTX_CHECK_CACHE "${CMAKE_BINARY_DIR}/ptx-check-cache" CACHE STRING
    "Cache of the kernels_*_ptx checks (ptx_tool.py --cache); empty: check everything every time")

function(tcsim_add_ptx_check corpus)
  cmake_parse_arguments(A "" "TIMEOUT" "LABELS" ${ARGN})
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 1800)
  endif()
  set(_labels kernels nvcc ${A_LABELS})
  find_package(Python3 COMPONENTS Interpreter QUIET)  # in the function's scope: callers differ
  if(TCSIM_HAVE_NVCC AND Python3_Interpreter_FOUND)
    add_test(NAME kernels_${corpus}_ptx
             COMMAND ${CMAKE_COMMAND} -E env "PYTHON=${Python3_EXECUTABLE}"
                     "PTX_CACHE_DIR=${TCSIM_PTX_CHECK_CACHE}"
                     bash ${PROJECT_SOURCE_DIR}/kernels/${corpus}/check_ptx.sh ${TCSIM_CUDA_ROOT})
    set_tests_properties(kernels_${corpus}_ptx PROPERTIES TIMEOUT ${A_TIMEOUT} LABELS "${_labels}"
                         FAIL_REGULAR_EXPRESSION "FAIL:")
  else()
    tcsim_add_skipped_test(kernels_${corpus}_ptx_SKIPPED
                           "nvcc/ptxas (under ${TCSIM_CUDA_ROOT}) or python3 not found: the PTX of kernels/${corpus} is neither assembled nor checked for drift")
  endif()
endfunction()
