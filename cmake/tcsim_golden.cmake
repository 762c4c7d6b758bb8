# tcsim_add_golden_test(NAME SPEC GOLDEN_DIR [TCSIM <exe>] [ARGS <extra tcsim run args>...])
#
# Registers a CTest that runs the launch spec SPEC in the simulator and compares every output bit
# for bit with GOLDEN_DIR (an output directory of `tcsim run --out` or `tcsim-hw run --out`, e.g.
# outputs captured on a GPU and committed):
#     tcsim run SPEC --golden GOLDEN_DIR [ARGS...]
# The test passes when tcsim exits 0: the kernel ran and every output matches. It fails on a
# mismatch (exit 1; the log shows which elements, their values, bits and ULP distance) and on bad
# input or an error in the simulated kernel (exit 2). Relative SPEC and GOLDEN_DIR are taken
# relative to the calling CMakeLists.txt's directory.
#
# The tcsim executable: TCSIM <exe> if given, else the `tcsim` target when it is part of the build
# (tcsim's own tree, or add_subdirectory(tcsim)), else `tcsim` found on the PATH.
#
# Usage in a project that includes tcsim (include(path/to/tcsim/cmake/tcsim_golden.cmake)):
#     tcsim_add_golden_test(gemm_bf16_golden kernels/gemm.json kernels/golden/gemm_h200)
#     tcsim_add_golden_test(gemm_perturbed kernels/gemm.json kernels/golden/gemm_h200 ARGS --seed 7)
# The test carries the CTest label "tcsim-golden" (ctest -L tcsim-golden runs only these).
function(tcsim_add_golden_test name spec golden_dir)
  cmake_parse_arguments(ARG "" "TCSIM" "ARGS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tcsim_add_golden_test(${name}): unexpected arguments ${ARG_UNPARSED_ARGUMENTS} "
                        "(usage: NAME SPEC GOLDEN_DIR [TCSIM exe] [ARGS args...])")
  endif()
  if(ARG_TCSIM)
    set(exe ${ARG_TCSIM})
  elseif(TARGET tcsim)
    set(exe $<TARGET_FILE:tcsim>)
  else()
    find_program(TCSIM_EXECUTABLE tcsim)
    if(NOT TCSIM_EXECUTABLE)
      message(FATAL_ERROR "tcsim_add_golden_test(${name}): no tcsim target in this build and no tcsim "
                          "on the PATH; pass TCSIM <path/to/tcsim>")
    endif()
    set(exe ${TCSIM_EXECUTABLE})
  endif()
  get_filename_component(spec_abs "${spec}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(golden_abs "${golden_dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${spec_abs}")
    message(FATAL_ERROR "tcsim_add_golden_test(${name}): spec ${spec_abs} does not exist")
  endif()
  add_test(NAME ${name} COMMAND ${exe} run "${spec_abs}" --golden "${golden_abs}" ${ARG_ARGS})
  set_tests_properties(${name} PROPERTIES LABELS "tcsim-golden")
endfunction()

# tcsim_add_golden_suite(NAME SPEC_DIR GOLDEN_DIR [MATCH <regex>] [TCSIM <exe>] [ARGS <args>...])
#
# One CTest for a whole folder of launch specs: `tcsim golden SPEC_DIR GOLDEN_DIR [--match REGEX]`
# runs every SPEC_DIR/*.json whose name matches REGEX and compares it bit for bit with
# GOLDEN_DIR/<spec name>/, parsing each PTX file once for all the specs that share it (a corpus of
# hundreds of small kernels in a few large PTX files costs seconds instead of minutes). Passes when
# every spec ran and matched; the log has one PASS/DIFF/ERROR line per spec. Label "tcsim-golden".
function(tcsim_add_golden_suite name spec_dir golden_dir)
  cmake_parse_arguments(ARG "" "MATCH;TCSIM" "ARGS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tcsim_add_golden_suite(${name}): unexpected arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(ARG_TCSIM)
    set(exe ${ARG_TCSIM})
  elseif(TARGET tcsim)
    set(exe $<TARGET_FILE:tcsim>)
  else()
    find_program(TCSIM_EXECUTABLE tcsim REQUIRED)
    set(exe ${TCSIM_EXECUTABLE})
  endif()
  get_filename_component(spec_abs "${spec_dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(golden_abs "${golden_dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  set(match_args)
  if(ARG_MATCH)
    set(match_args --match "${ARG_MATCH}")
  endif()
  add_test(NAME ${name} COMMAND ${exe} golden "${spec_abs}" "${golden_abs}" ${match_args} ${ARG_ARGS})
  set_tests_properties(${name} PROPERTIES LABELS "tcsim-golden")
endfunction()
