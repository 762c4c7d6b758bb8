#!/bin/sh
# Regenerates the committed PTX from the .cu files here with CUDA 13's nvcc (run from this folder).
# The parser test also recompiles the .cu files at test time when nvcc is present.
set -e
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
for f in basics features async; do
  for a in sm_90a sm_100a; do
    $NVCC -arch=$a -ptx $f.cu -o ${f}_$a.ptx
    $NVCC -arch=$a -ptx -lineinfo $f.cu -o ${f}_${a}_lineinfo.ptx
  done
done
$NVCC -arch=sm_100a -ptx -use_fast_math features.cu -o features_sm_100a_use_fast_math.ptx
$NVCC -arch=sm_90a -ptx -G features.cu -o features_sm_90a_G.ptx
$NVCC -arch=sm_90a -ptx -G basics.cu -o basics_sm_90a_G.ptx
$NVCC -arch=sm_100a -ptx tma_tcgen05.cu -o tma_tcgen05_sm_100a.ptx
