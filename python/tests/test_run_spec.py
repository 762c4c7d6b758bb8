"""tcsim.run_spec: a launch spec, run like `tcsim run`, its outputs as numpy arrays — checked against
the H200's own outputs for the same spec (kernels/basic/golden/h200, recorded with tcsim-hw)."""
import json

import numpy as np
import pytest

import tcsim


@pytest.mark.parametrize("name", ["int_arith", "bitonic_sort", "warp_shuffle"])
def test_run_spec_equals_the_h200(source_dir, name):
    spec = source_dir / f"kernels/basic/{name}.json"
    golden = source_dir / f"kernels/basic/golden/h200/{name}"
    if not spec.exists() or not (golden / "manifest.json").exists():
        pytest.skip(f"no H200 golden for {name}")
    r = tcsim.run_spec(str(spec))
    manifest = json.loads((golden / "manifest.json").read_text())
    assert set(r["outputs"]) == set(manifest["outputs"])
    for out, meta in manifest["outputs"].items():
        hw = np.load(golden / meta["file"])
        assert r["outputs"][out].tobytes() == hw.tobytes(), out
    assert r["cycles"] > 0 and r["arch"] == "sm_90a"


def test_run_spec_bad_input(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text('{"ptx": "missing.ptx", "kernel": "k", "grid": [1,1,1], "block": [1,1,1], "buffers": {}, "args": [], "outputs": []}')
    with pytest.raises(ValueError, match="missing.ptx"):
        tcsim.run_spec(str(p))
