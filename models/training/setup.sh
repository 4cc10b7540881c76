#!/usr/bin/env bash
# Installs what the training pipeline needs from Debian's packages (no PyPI here): torch, Pillow, OpenCV, NumPy,
# and the font families the synthetic tiles are rendered with. Idempotent: does nothing when all are present.
set -euo pipefail
packages=(python3-torch python3-pil python3-opencv python3-numpy python3-onnx
  fonts-dejavu-core fonts-dejavu-extra fonts-liberation2 fonts-freefont-ttf fonts-noto-core fonts-roboto
  fonts-open-sans fonts-lato fonts-cantarell fonts-urw-base35 fonts-league-spartan)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
fi
# Debian's torch is importable only from the system python, whatever python3 comes first on PATH.
/usr/bin/python3 -c "import torch, PIL, cv2, numpy, onnx" || { echo "the training packages did not install" >&2; exit 1; }
