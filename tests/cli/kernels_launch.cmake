# kernels/launch — launch-spec argument forms and device printf (README.md there). Included by
# tests/CMakeLists.txt (every tests/cli/*.cmake is).
#   kernels_launch_ptx                  ptxas on every committed PTX, no drift from nvcc (SKIPPED without)
#   kernels_launch_params_struct[_sm100] the by-value Params struct (pointers, nested struct, bytes,
#                                       scalars, a tensor map at 64 used by a TMA load) and the
#                                       __constant__ table from a file: Y and info exactly as
#                                       check.py computes them from the spec alone (exact arithmetic)
#   kernels_launch_golden_<flood spec>  H200 goldens (outputs and the GPU's printf.txt), bit for bit
#   kernels_launch_golden_printf_formats  H200 golden; printf lines compared with the 4 fields the GPU
#                                       prints from an uninitialised register normalised (README.md)
#   kernels_launch_printf_stdout        `tcsim run` prints the kernel's printf output on stdout
#   kernels_launch_bad_<name>           bad specs: exit 2 and the named rule
set(_kl ${PROJECT_SOURCE_DIR}/kernels/launch)
include(${PROJECT_SOURCE_DIR}/kernels/ptx_tool.cmake)
tcsim_add_ptx_check(launch TIMEOUT 900)

if(TARGET tcsim)
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    foreach(_s params_struct params_struct_sm100)
      add_test(NAME kernels_launch_${_s}
               COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_kl}/${_s}.json
                       -DDIR=${CMAKE_CURRENT_BINARY_DIR}/kernels_launch_${_s}
                       "-DCHECK=${Python3_EXECUTABLE};${_kl}/check.py;${_kl}/${_s}.json;%DIR%"
                       -P ${_kl}/run_check.cmake)
      set_tests_properties(kernels_launch_${_s} PROPERTIES LABELS "kernels")
    endforeach()
    add_test(NAME kernels_launch_golden_printf_formats
             COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_kl}/printf_formats.json
                     -DDIR=${CMAKE_CURRENT_BINARY_DIR}/kernels_launch_printf_formats
                     "-DCHECK=${Python3_EXECUTABLE};${_kl}/compare_h200.py;${_kl}/golden/h200/printf_formats;%DIR%;--undefined; l=[0-9]+ t"
                     -P ${_kl}/run_check.cmake)
    set_tests_properties(kernels_launch_golden_printf_formats PROPERTIES LABELS "tcsim-golden")
  else()
    add_test(NAME kernels_launch_checks_SKIPPED
             COMMAND ${CMAKE_COMMAND} -E echo "SKIPPED: no python3: kernels/launch exact-model and printf golden checks not run")
    set_tests_properties(kernels_launch_checks_SKIPPED PROPERTIES SKIP_RETURN_CODE 0)
  endif()
  foreach(_s printf_flood_int printf_flood_noargs printf_flood_four printf_flood_str40 printf_flood_longfmt
             printf_flood_str2)
    tcsim_add_golden_test(kernels_launch_golden_${_s} ${_kl}/${_s}.json ${_kl}/golden/h200/${_s})
  endforeach()
  add_test(NAME kernels_launch_printf_stdout COMMAND $<TARGET_FILE:tcsim> run ${_kl}/printf_formats.json)
  set_tests_properties(kernels_launch_printf_stdout PROPERTIES PASS_REGULAR_EXPRESSION
    "^t=0 b=0 w=0 lane=00 neg=0 oct=0 X=0 v=39.751\n.*strings in shared and local memory: \\[sh0\\] \\[loca\\] t0\n.*t=127 b=1 w=1 lane=31 neg=-127 oct=2167 X=553AB3 v=1.988\n.*kernels/launch/printf_formats.json: kernel _Z14printf_formatsPiPKf on sm_90a: [0-9]+ cycles")

  # One test per bad spec: exit 2 and the message (bracket arguments keep the regexes literal).
  function(_kl_bad name regex)
    add_test(NAME kernels_launch_bad_${name}
             COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_kl}/bad/${name}.json
                     -DEXPECT_RC=2 "-DEXPECT_REGEX=${regex}"
                     -P ${PROJECT_SOURCE_DIR}/kernels/basic/bad/expect_error.cmake)
  endfunction()
  _kl_bad(bytes_malformed [=[args\[0\]\.struct\.fields\[6\]\.bytes: character 7 \('g'\) is not a hex digit]=])
  _kl_bad(struct_misaligned_tensor_map [=[args\[0\]\.struct\.fields\[8\]: the field \{"tensor_map": "tmA"\} at offset 96 is not 64-byte aligned]=])
  _kl_bad(struct_overlap [=[args\[0\]\.struct\.fields\[10\]: the field \{"u32": 0x1\} at bytes \[12, 16\) overlaps args\[0\]\.struct\.fields\[1\] \{"buffer": "Y"\} at bytes \[8, 16\)]=])
  _kl_bad(struct_param_u64 [=[args\[2\]: kernel '_Z13params_struct6Paramsj5ShapePm' parameter 2 '_Z13params_struct6Paramsj5ShapePm_param_2' \(8 bytes\) is aligned to 4 bytes, but \{"u64": 0x600000005\} needs 8-byte alignment]=])
  _kl_bad(struct_past_size [=[args\[0\]\.struct\.fields\[10\]: the field \{"u64": 0x1\} \(8 bytes at offset 252\) ends at byte 260, past the aggregate's size 256]=])
  _kl_bad(struct_wrong_size [=[args\[0\]: kernel '_Z13params_struct6Paramsj5ShapePm' parameter 0 '_Z13params_struct6Paramsj5ShapePm_param_0' is 256 bytes, but \{"struct": \{"size": 200, 10 fields\}\} is 200 bytes]=])
  _kl_bad(symbol_file_size [=[symbols\.kTable\.init\.file: ktable_31\.npy holds 124 bytes \(31 elements of 4 bytes, '<f4', shape \(31\)\), but the variable is declared with 128 bytes]=])
endif()
