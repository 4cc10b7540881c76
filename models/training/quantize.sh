#!/usr/bin/env bash
# `npm run quantize [-- --samples N --epochs E --out PATH]`: installs the training packages if needed, then writes the
# int8 copy of the model (quantize.py) and its metadata, formatted as the repository's JSON is. A developer step,
# never run by install or tests.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bash "$here/setup.sh"
/usr/bin/python3 "$here/quantize.py" "$@"
source "$here/out-path.sh"
out="$(out_path "$here/../cells.int8.onnx" "$@")"
files=("${out%.onnx}.json")
# Written beside the default model, the copy is named in that model's metadata too (quantize.py).
[ "$(cd "$(dirname "$out")" && pwd)" = "$(cd "$here/.." && pwd)" ] && files+=("$here/../cells.json")
cd "$here/../.." && npx biome format --write "${files[@]}" >/dev/null
