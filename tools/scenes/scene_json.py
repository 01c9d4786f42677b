"""JSON text of a scene as the shipped scenes are written: 2-space indent, arrays of numbers on
one line (the layout of `pivot check`'s resolved form)."""
import json


def dump(value, indent=0):
    pad = " " * indent
    if isinstance(value, dict) and value:
        items = [f'{pad}  {json.dumps(k)}: {dump(v, indent + 2)}' for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and value and any(isinstance(v, (dict, list)) for v in value):
        items = [pad + "  " + dump(v, indent + 2) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    if isinstance(value, list):
        return "[" + ", ".join(json.dumps(v) for v in value) + "]"
    return json.dumps(value)


def write(path, scene):
    with open(path, "w") as f:
        f.write(dump(scene) + "\n")
    print("wrote", path)
