#!/usr/bin/env bash
# `npm run train [-- --samples N --epochs E]`: installs the training packages if needed, renders synthetic cells,
# trains on 2 CPU threads and writes models/cells.onnx (with its features output) and models/cells.json. A developer step, never run by
# install or tests.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bash "$here/setup.sh"
/usr/bin/python3 "$here/train.py" "$@"
# The exported model also gives each cell's penultimate features (vision/adapt.ts compares a game's squares by them).
source "$here/out-path.sh"
out="$(out_path "$here/../cells.onnx" "$@")"
cd "$here/../.." && npx tsx models/training/features.ts "$out"
