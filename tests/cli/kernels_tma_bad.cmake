# Broken kernels of kernels/tma/bad (kernels/tma/README.md "The broken kernels") whose report comes
# from the TMA engine or the proxy checker: each `tcsim run` must end with the exit code and a
# message naming the fault (kernels/basic/bad/expect_error.cmake does the run and the checks).
#  * tma_box_outside_smem: an 8 KiB box into 4 KiB of dynamic shared memory -> error (exit 2) at the
#    cp.async.bulk.tensor naming the destination range and the CTA's window (the H200 faults).
#  * missing_expect_tx: arrive instead of arrive.expect_tx -> the consumers read the TMA destination
#    while the copy is in flight: the proxy checker's race warning naming both lines (exit 0).
#  * missing_fence_proxy_async: st.shared, __syncthreads, TMA store, no fence.proxy.async -> the
#    kernel completes (exit 0) with the proxy checker's finding naming both PTX lines.
#  * each of the two race kernels under --strict: the same finding, and exit 2 (findings are errors).
set(_kt ${PROJECT_SOURCE_DIR}/kernels/tma/bad)
add_test(NAME kernels_tma_bad_tma_box_outside_smem
         COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_kt}/tma_box_outside_smem.json
                 -DEXPECT_RC=2 "-DEXPECT_REGEX=cp\\.async\\.bulk\\.tensor.*outside the CTA's shared memory"
                 -P ${PROJECT_SOURCE_DIR}/kernels/basic/bad/expect_error.cmake)
add_test(NAME kernels_tma_bad_missing_fence_proxy_async
         COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_kt}/missing_fence_proxy_async.json
                 -DEXPECT_RC=0 "-DEXPECT_REGEX=proxy-fence-missing x1 at .*proxy race: the async-proxy .* no fence\\.proxy\\.async"
                 -P ${PROJECT_SOURCE_DIR}/kernels/basic/bad/expect_error.cmake)
add_test(NAME kernels_tma_bad_missing_expect_tx
         COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_kt}/missing_expect_tx.json
                 -DEXPECT_RC=0 "-DEXPECT_REGEX=async-access-in-flight x512 at .*race: .* reads 4 bytes of shared::cta .* while the cp\\.async\\.bulk\\.tensor \\(global -> shared\\) issued at .* is in flight"
                 -P ${PROJECT_SOURCE_DIR}/kernels/basic/bad/expect_error.cmake)
add_test(NAME kernels_tma_bad_missing_fence_proxy_async_strict
         COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_kt}/missing_fence_proxy_async.json
                 -DEXTRA=--strict -DEXPECT_RC=2
                 "-DEXPECT_REGEX=proxy-fence-missing x1 at .*error: .*1 finding and --strict makes findings errors"
                 -P ${PROJECT_SOURCE_DIR}/kernels/basic/bad/expect_error.cmake)
add_test(NAME kernels_tma_bad_missing_expect_tx_strict
         COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_kt}/missing_expect_tx.json
                 -DEXTRA=--strict -DEXPECT_RC=2 "-DEXPECT_REGEX=513 findings and --strict makes findings errors"
                 -P ${PROJECT_SOURCE_DIR}/kernels/basic/bad/expect_error.cmake)
