# Optional CUDA: nothing of the simulator needs it. Found -> CUDA-backed tests run; absent -> skipped
# with a visible message (the tests themselves print why).
set(TCSIM_HAVE_CUDA_HEADERS OFF)
set(TCSIM_HAVE_NVCC OFF)
set(TCSIM_HAVE_CUDA_DRIVER OFF)
if(EXISTS "${TCSIM_CUDA_ROOT}/include/cuda_fp8.h" AND EXISTS "${TCSIM_CUDA_ROOT}/include/cuda_fp4.h")
  set(TCSIM_HAVE_CUDA_HEADERS ON)
endif()
if(EXISTS "${TCSIM_CUDA_ROOT}/bin/nvcc" AND EXISTS "${TCSIM_CUDA_ROOT}/bin/ptxas")
  set(TCSIM_HAVE_NVCC ON)
endif()
find_library(TCSIM_LIBCUDA NAMES cuda
             HINTS "${TCSIM_CUDA_ROOT}/lib64" "${TCSIM_CUDA_ROOT}/lib64/stubs" NO_CACHE)
if(EXISTS "${TCSIM_CUDA_ROOT}/include/cuda.h" AND TCSIM_LIBCUDA)
  set(TCSIM_HAVE_CUDA_DRIVER ON)
endif()
message(STATUS "tcsim: CUDA headers ${TCSIM_HAVE_CUDA_HEADERS}, nvcc/ptxas ${TCSIM_HAVE_NVCC}, "
               "driver API ${TCSIM_HAVE_CUDA_DRIVER} (root ${TCSIM_CUDA_ROOT})")
if(NOT TCSIM_HAVE_CUDA_HEADERS)
  message(STATUS "tcsim: CUDA not found: tests against CUDA's conversion code and ptxas are SKIPPED")
endif()
