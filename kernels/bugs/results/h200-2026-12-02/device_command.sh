# The one device command (run tool, carry build-bugshw) for kernels/bugs/h200_run.sh: build-bugshw/pay.tar.xz
# holds 'git archive' of tools models isa kernels/{bugs,tma} kernels/hopper/{gemm_bf16.ptx,specs/gemm} as src/, and
# fmt + nlohmann headers as src/hdrs (tools/tcsim-hw/build_standalone.sh --pack-headers). The 2026-12-02 call ran
# it without isa/printable.cc (device_build.txt); this is the corrected version.
set -u; S=/tmp/src; tar -xJf build-bugshw/pay.tar.xz -C /tmp; cd $S; C=/usr/local/cuda; L=$C/lib64; [ -e $L/libcuda.so ] || L=$C/lib64/stubs
F="tools/tcsim-hw/main.cc tools/tcsim-hw/cuda_backend.cc $(ls tools/spec/*.cc models/formats/*.cc) models/machine/machine_table.cc isa/descriptors/tensor_map.cc isa/descriptors/bitfield.cc isa/printable.cc"
mkdir -p /tmp/o; echo $F | tr ' ' '\n' | xargs -P16 -I{} sh -c 'g++ -std=c++20 -O2 -ffp-contract=off -DFMT_HEADER_ONLY -DTCSIM_SOURCE_ROOT="\"/tmp/src\"" -I/tmp/src -I/tmp/src/hdrs -isystem /usr/local/cuda/include -c {} -o /tmp/o/$(echo {} | tr / _).o' > $OUT/build.log 2>&1
g++ /tmp/o/*.o -o /tmp/tcsim-hw -L$L -lcuda >> $OUT/build.log 2>&1 || { echo BUILD FAILED; tail -50 $OUT/build.log; exit 3; }
echo built; kernels/bugs/h200_run.sh /tmp/tcsim-hw /tmp/res; cp /tmp/res/runs.tsv /tmp/res/machine.txt $OUT/; cat /tmp/res/runs.tsv /tmp/res/machine.txt
tar -C /tmp -cJf $OUT/res.tar.xz res; ls -la $OUT
