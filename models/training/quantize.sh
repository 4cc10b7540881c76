#!/usr/bin/env bash
# `npm run quantize [-- --samples N --epochs E --model PATH --out PATH]`: installs the training packages if needed, then
# writes the int8 quick copy of the model (quantize.py) and its metadata, formatted as the repository's JSON is. A developer step,
# never run by install or tests.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bash "$here/setup.sh"
# quantize.py prints the JSON files it wrote (the copy's metadata, and the model's when the copy became its quick one).
# (Captured first: a failing quantize.py stops the script with its status.)
written="$(/usr/bin/python3 "$here/quantize.py" "$@")"
mapfile -t files <<<"$written"
[ -n "$written" ] || { echo "quantize.py named no file it wrote" >&2; exit 1; }
cd "$here/../.." && npx biome format --write "${files[@]}" >/dev/null
