#!/usr/bin/env bash
# Installs what the training pipeline needs from Debian's packages (no PyPI here): torch, Pillow, OpenCV, NumPy with
# apt; and the font families the synthetic tiles are rendered with, unpacked into models/training/.fonts rather than
# installed: fonts installed for the whole machine change how the browser lays out tilecam's pages, and the page
# tests measure that layout (four of them failed once Noto, Roboto and Lato were installed). render.py reads the
# fonts from there. Idempotent: does nothing when all are present.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
packages=(python3-torch python3-pil python3-opencv python3-numpy python3-onnx)
fonts=(fonts-dejavu-core fonts-dejavu-extra fonts-liberation2 fonts-freefont-ttf fonts-noto-core fonts-roboto
  fonts-roboto-unhinted fonts-open-sans fonts-lato fonts-cantarell fonts-urw-base35 fonts-league-spartan)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
updated=""
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  $sudo apt-get update -qq && updated=1
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
fi
# The fonts: each package's files unpacked under .fonts (its usr/share/fonts is what render.py reads).
store="$here/.fonts"
mkdir -p "$store/debs"
for f in "${fonts[@]}"; do
  [ -e "$store/unpacked/$f" ] && continue
  if ! ls "$store/debs/${f}_"*.deb >/dev/null 2>&1; then
    [ -n "$updated" ] || { $sudo apt-get update -qq && updated=1; }
    (cd "$store/debs" && apt-get download -qq "$f" >&2)
  fi
  dpkg -x "$store/debs/${f}_"*.deb "$store"
  mkdir -p "$store/unpacked" && touch "$store/unpacked/$f"
done
# Debian's torch is importable only from the system python, whatever python3 comes first on PATH.
/usr/bin/python3 -c "import torch, PIL, cv2, numpy, onnx" || { echo "the training packages did not install" >&2; exit 1; }
