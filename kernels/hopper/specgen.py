"""Shared helpers of the kernels/hopper generators: launch-spec writing (shared/LAUNCH_SPEC.md,
version 1) with stable formatting, and the buffer-init vocabulary. Standard library only."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def dumps(obj, indent=0):
    """JSON with one key per line at the top two levels and short lists/objects inline, so specs
    diff line by line."""
    pad = " " * indent
    if isinstance(obj, dict) and indent < 4 and any(isinstance(v, (dict, list)) for v in obj.values()):
        items = [f'{pad}  {json.dumps(k)}: {dumps(v, indent + 2).lstrip()}' for k, v in obj.items()]
        return pad + "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list) and indent < 2 and any(isinstance(v, dict) for v in obj):
        items = [pad + "  " + json.dumps(v) for v in obj]
        return pad + "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return pad + json.dumps(obj)


def write_spec(path, spec):
    """Writes spec to path (creating folders); returns the path relative to HERE."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    text = dumps(spec) + "\n"
    with open(path, "w") as f:
        f.write(text)
    return os.path.relpath(path, HERE)


def clean_dir(folder, keep=()):
    """Removes the generated .json files of folder (so a case dropped from a table disappears)."""
    if not os.path.isdir(folder):
        return
    for name in os.listdir(folder):
        if name.endswith(".json") and name not in keep:
            os.remove(os.path.join(folder, name))


def uniform(seed, low, high):
    return {"random": {"seed": seed, "dist": "uniform", "low": low, "high": high}}


def bits(seed):
    return {"random": {"seed": seed, "dist": "bits"}}


def fill(v):
    return {"fill": v}


def buf(dtype, shape, init):
    return {"dtype": dtype, "shape": list(shape), "init": init}
