#!/bin/sh
# Regenerates the PTX of kernels.cu with CUDA 13 (run from this folder).
set -e
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
$NVCC -arch=sm_100a -ptx -lineinfo kernels.cu -o kernels_sm_100a.ptx
$NVCC -arch=sm_90a -ptx kernels.cu -o kernels_sm_90a.ptx
$NVCC -arch=sm_100a -ptx -G kernels.cu -o kernels_sm_100a_G.ptx
