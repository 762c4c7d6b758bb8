# CLI tests over the basic corpus (kernels/basic).
#  * kernels_basic_bad_<case>: every bad input of kernels/basic/bad/README.md ends with exit code 2
#    and an error naming the essential fact (expect_error.cmake), never a hang or a crash;
#    args_ok is the positive control (exit 0).
#  * kernels_basic_golden_<spec>: tcsim_add_golden_test for every spec whose hardware golden is
#    committed under kernels/basic/golden/h200/<spec>/ (from `tcsim-hw run SPEC --out DIR` on the
#    H200); approx_math is left out (its outputs are not bit-exact by construction).
#  * kernels_basic_ref_<spec> (option TCSIM_CORPUS_REFERENCE_TESTS, off by default): runs each
#    corpus spec in the simulator and compares the outputs with reference.py's independent model.
set(_kb ${PROJECT_SOURCE_DIR}/kernels/basic)
set(_bad_cases
    "infinite_loop|livelock"
    "barrier_deadlock|[Bb]arrier"
    "oob_store|[Oo]ut[- ]of[- ]bounds"
    "misaligned|[Mm]isaligned"
    "trap|[Tt]rap"
    "wrong_arg_count|[Aa]rgument"
    "wrong_arg_size|copy_u64_param_2"
    "unknown_kernel|copy_u32"
    "ambiguous_kernel|[Aa]mbiguous"
    "unknown_symbol|scale_tabel"
    "unknown_buffer|outt"
    "malformed|malformed\\.ptx:26")
foreach(_case ${_bad_cases})
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _regex)
  add_test(NAME kernels_basic_bad_${_name}
           COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_kb}/bad/${_name}.json
                   -DEXPECT_RC=2 "-DEXPECT_REGEX=${_regex}" "-DEXTRA=--max-steps 2000000"
                   -P ${_kb}/bad/expect_error.cmake)
endforeach()
add_test(NAME kernels_basic_bad_args_ok
         COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_kb}/bad/args_ok.json
                 -DEXPECT_RC=0 "-DEXPECT_REGEX=.*" -P ${_kb}/bad/expect_error.cmake)

file(GLOB _specs ${_kb}/*.json)
foreach(_spec ${_specs})
  get_filename_component(_stem ${_spec} NAME_WE)
  set(_golden ${_kb}/golden/h200/${_stem})
  if(EXISTS ${_golden}/manifest.json AND NOT _stem STREQUAL "approx_math" AND NOT _stem STREQUAL "cvt_nan")
    tcsim_add_golden_test(kernels_basic_golden_${_stem} ${_spec} ${_golden})
  endif()
endforeach()
# cvt_nan: bit for bit except add.f64 of two NaNs, whose winner ptxas's operand order decides
# (kernels/basic/cvt_nan_check.py says why and checks both sides of it).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME kernels_basic_golden_cvt_nan
           COMMAND ${Python3_EXECUTABLE} ${_kb}/cvt_nan_check.py $<TARGET_FILE:tcsim> ${_kb}/cvt_nan.json
                   ${_kb}/golden/h200/cvt_nan ${CMAKE_BINARY_DIR}/kernels_basic_cvt_nan)
  set_tests_properties(kernels_basic_golden_cvt_nan PROPERTIES LABELS "tcsim-golden")
else()
  tcsim_add_skipped_test(kernels_basic_golden_cvt_nan "python3 not found: the cvt_nan golden is not compared")
endif()

option(TCSIM_CORPUS_REFERENCE_TESTS "Compare simulator runs of kernels/basic with reference.py" OFF)
if(TCSIM_CORPUS_REFERENCE_TESTS AND Python3_Interpreter_FOUND)
  foreach(_spec ${_specs})
    get_filename_component(_stem ${_spec} NAME_WE)
    set(_out ${CMAKE_BINARY_DIR}/kernels_basic_ref/${_stem})
    add_test(NAME kernels_basic_ref_${_stem}
             COMMAND sh -c "\"$1\" run \"$2\" --out \"$3\" && \"$4\" \"$5\" \"$3\" \"$2\""
                     sh $<TARGET_FILE:tcsim> ${_spec} ${_out} ${Python3_EXECUTABLE} ${_kb}/reference.py)
  endforeach()
endif()
