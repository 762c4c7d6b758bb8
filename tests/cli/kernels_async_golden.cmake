# H200 golden tests of the asynchronous-machine corpora (issue 4): every spec of kernels/tma (and
# kernels/tma/swizzle) and kernels/cluster whose hardware outputs are committed under
# <corpus>/golden/h200/<spec>/ (from `tcsim-hw run SPEC --out DIR` on the H200; see
# kernels/tma/README.md) runs as kernels_<corpus>_golden_<spec>: `tcsim run SPEC --golden DIR`.
# A golden is committed once tcsim reproduces it, so each directory is a passing test.
if(EXISTS ${PROJECT_SOURCE_DIR}/tools/tcsim/cmd_run.cc)
  foreach(_corpus tma cluster)
    set(_dir ${PROJECT_SOURCE_DIR}/kernels/${_corpus})
    file(GLOB _goldens LIST_DIRECTORIES true ${_dir}/golden/h200/*)
    foreach(_golden ${_goldens})
      if(NOT EXISTS ${_golden}/manifest.json)
        continue()
      endif()
      get_filename_component(_stem ${_golden} NAME)
      if(EXISTS ${_dir}/${_stem}.json)
        tcsim_add_golden_test(kernels_${_corpus}_golden_${_stem} ${_dir}/${_stem}.json ${_golden})
      elseif(EXISTS ${_dir}/swizzle/${_stem}.json)
        tcsim_add_golden_test(kernels_${_corpus}_golden_${_stem} ${_dir}/swizzle/${_stem}.json ${_golden})
      endif()
    endforeach()
  endforeach()
endif()
