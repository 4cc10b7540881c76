#!/usr/bin/env bash
# `npm run train [-- --samples N --epochs E]`: installs the training packages if needed, renders synthetic cells,
# trains on 2 CPU threads and writes models/cells.onnx and models/cells.json. A developer step, never run by
# install or tests.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bash "$here/setup.sh"
exec /usr/bin/python3 "$here/train.py" "$@"
