# `tcsim mma-dot` on small inputs: block-scaled and integer kinds in the published file format
# (B200 words turned into vector files), and bad input -> one clear error, exit code 2.
set(_d ${CMAKE_CURRENT_SOURCE_DIR}/cli/mma_dot)
set(_run ${CMAKE_CURRENT_SOURCE_DIR}/cli/mma_dot/run.cmake)

function(tcsim_mma_cli name)
  cmake_parse_arguments(T "" "EXPECTED;MATCH;RC;REGEX" "ARGS" ${ARGN})
  string(REPLACE ";" "|" args "${T_ARGS}")
  set(defs "-DTCSIM=$<TARGET_FILE:tcsim>" "-DARGS=${args}")
  if(T_RC)
    list(APPEND defs -DEXPECT_RC=${T_RC} "-DSTDERR_REGEX=${T_REGEX}")
  else()
    list(APPEND defs -DEXPECTED=${T_EXPECTED} -DMATCH=${T_MATCH})
  endif()
  add_test(NAME mma_dot_cli_${name} COMMAND ${CMAKE_COMMAND} ${defs} -P ${_run})
endfunction()

macro(_files stem)
  set(_f --a ${_d}/${stem}_a.txt --b ${_d}/${stem}_b.txt --c ${_d}/${stem}_c.txt)
endmacro()
macro(_scales stem)
  set(_s --scale-a ${_d}/${stem}_sa.txt --scale-b ${_d}/${stem}_sb.txt)
endmacro()

set(_t --arch sm_100a --path tcgen05)
_files(nvfp4)
_scales(nvfp4)
tcsim_mma_cli(nvfp4_ue4m3 EXPECTED ${_d}/nvfp4_d.txt MATCH 2 ARGS ${_t} --kind mxf4nvf4
              --atype e2m1 --btype e2m1 --dtype f32 --scale-type ue4m3 --scale-vec 4 ${_s} ${_f})
_files(mxf4nvf4_ue8m0_4x)
_scales(mxf4nvf4_ue8m0_4x)
tcsim_mma_cli(mxf4nvf4_ue8m0_4x EXPECTED ${_d}/mxf4nvf4_ue8m0_4x_d.txt MATCH 1 ARGS ${_t}
              --kind mxf4nvf4 --atype e2m1 --btype e2m1 --dtype f32 --scale-type ue8m0
              --scale-vec 4 ${_s} ${_f})
_files(mxf8f6f4_e2m1)
_scales(mxf8f6f4_e2m1)
tcsim_mma_cli(mxf8f6f4_e2m1 EXPECTED ${_d}/mxf8f6f4_e2m1_d.txt MATCH 2 ARGS ${_t} --kind mxf8f6f4
              --atype e2m1 --btype e2m1 --dtype f32 --scale-type ue8m0 --scale-vec 1 ${_s} ${_f})
_files(mxf4_2x)
_scales(mxf4_2x)
tcsim_mma_cli(mxf4_2x EXPECTED ${_d}/mxf4_2x_d.txt MATCH 1 ARGS ${_t} --kind mxf4 --atype e2m1
              --btype e2m1 --dtype f32 --scale-vec 2 ${_s} ${_f})
_files(i8_u8_s8_wrap)
tcsim_mma_cli(i8_u8_s8_wrap EXPECTED ${_d}/i8_u8_s8_wrap_d.txt MATCH 1 ARGS ${_t} --kind i8
              --atype u8 --btype s8 --dtype s32 ${_f})
_files(i8_s8_s8_sat)
tcsim_mma_cli(i8_s8_s8_sat EXPECTED ${_d}/i8_s8_s8_sat_d.txt MATCH 1 ARGS ${_t} --kind i8
              --atype s8 --btype s8 --dtype s32 --saturate ${_f})
# 32 * (-128 * -128) = 524288 added to C = 0x7fffff9b: wraps without --saturate, clamps with it
set(_f --a ${_d}/i8_overflow_a.txt --b ${_d}/i8_overflow_b.txt --c ${_d}/i8_overflow_c.txt)
tcsim_mma_cli(i8_overflow_wrap EXPECTED ${_d}/i8_overflow_d_wrap.txt MATCH 1 ARGS ${_t} --kind i8
              --atype s8 --btype s8 --dtype s32 ${_f})
tcsim_mma_cli(i8_overflow_saturate EXPECTED ${_d}/i8_overflow_d_sat.txt MATCH 1 ARGS ${_t}
              --kind i8 --atype s8 --btype s8 --dtype s32 --saturate ${_f})

# bad input -> exit code 2 and a line naming the problem
set(_h --arch sm_90a --path wgmma --kind f16 --atype bf16 --btype bf16 --dtype f32)
tcsim_mma_cli(err_wrong_k RC 2 REGEX "K=8 is not legal for sm_90a wgmma kind::f16 bf16: K must be 16"
              ARGS ${_h} --a ${_d}/bad_k_a.txt --b ${_d}/bad_k_b.txt --c ${_d}/one_c.txt)
tcsim_mma_cli(err_not_representable RC 2 REGEX "bf16_unrep_a.txt:1: 3f800001 .* is not representable in bf16"
              ARGS ${_h} --a ${_d}/bf16_unrep_a.txt --b ${_d}/bf16_ok_b.txt --c ${_d}/one_c.txt)
tcsim_mma_cli(err_e4m3_has_no_inf RC 2 REGEX "7f800000 .* is not representable in e4m3"
              ARGS --arch sm_90a --path wgmma --kind f8f6f4 --atype e4m3 --btype e4m3 --dtype f32
                   --a ${_d}/e4m3_inf_a.txt --b ${_d}/e4m3_ok_b.txt --c ${_d}/one_c.txt)
tcsim_mma_cli(err_line_counts RC 2 REGEX "vector counts differ"
              ARGS ${_h} --a ${_d}/bf16_ok_b.txt --b ${_d}/bf16_ok_b.txt --c ${_d}/two_c.txt)
tcsim_mma_cli(err_bad_c RC 2 REGEX "bad_c.txt:1: expected one 32-character binary string"
              ARGS ${_h} --a ${_d}/bf16_ok_b.txt --b ${_d}/bf16_ok_b.txt --c ${_d}/bad_c.txt)
tcsim_mma_cli(err_i8_value RC 2 REGEX "'200' is not a s8 value"
              ARGS ${_t} --kind i8 --atype s8 --btype s8 --dtype s32
                   --a ${_d}/i8_bad_a.txt --b ${_d}/i8_ok_b.txt --c ${_d}/one_c.txt)
tcsim_mma_cli(err_no_datapath RC 2 REGEX "no sm_90a wgmma kind::f8f6f4 datapath for e2m1 x e2m1 -> f32; legal types: e4m3xe4m3->f32"
              ARGS --arch sm_90a --path wgmma --kind f8f6f4 --atype e2m1 --btype e2m1 --dtype f32
                   --a ${_d}/e4m3_ok_b.txt --b ${_d}/e4m3_ok_b.txt --c ${_d}/one_c.txt)
tcsim_mma_cli(err_tcgen05_on_hopper RC 2 REGEX "--path tcgen05 needs --arch sm_100a"
              ARGS --arch sm_90a --path tcgen05 --kind f16 --atype f16 --btype f16 --dtype f32
                   --a x --b y --c z)
tcsim_mma_cli(err_scale_vec RC 2 REGEX "--scale-vec 2 is not legal for kind::mxf4nvf4 with ue4m3"
              ARGS ${_t} --kind mxf4nvf4 --atype e2m1 --btype e2m1 --dtype f32 --scale-type ue4m3
                   --scale-vec 2 ${_s} ${_f})
tcsim_mma_cli(err_missing_option RC 2 REGEX "missing required option --c"
              ARGS ${_h} --a x --b y)
tcsim_mma_cli(err_unknown_option RC 2 REGEX "unknown option '--frobnicate'"
              ARGS ${_h} --frobnicate --a x --b y --c z)
tcsim_mma_cli(err_missing_file RC 2 REGEX "cannot read '/nonexistent/a.txt': it does not exist"
              ARGS ${_h} --a /nonexistent/a.txt --b y --c z)
tcsim_mma_cli(err_bad_set RC 2 REGEX "unknown datapath parameter 'nonsense'"
              ARGS ${_h} --set nonsense=1 --a ${_d}/bf16_ok_b.txt --b ${_d}/bf16_ok_b.txt
                   --c ${_d}/one_c.txt)

# Every published B200 word, in the containers it is given in (--codes, --bf16-as-f32, tf32 words
# with their low 13 bits set).
add_test(NAME mma_dot_cli_b200_words
         COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim>
                 -DWORDS=${CMAKE_CURRENT_SOURCE_DIR}/data/tcgen05-b200-words/b200_tcgen05_words.json
                 -DWORK=${CMAKE_CURRENT_BINARY_DIR}/mma_dot_b200_words -P ${_d}/b200_words.cmake)
