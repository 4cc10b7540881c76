"""Training cells cut from seat views (seat.py) the way the vision cuts them from a photo.

The vision straightens the board through the plane of the tiles' faces, `TILE_HEIGHT` squares above the board found
(vision/pose.ts), onto a 680×680 board of 40-pixel cells with a cell's margin (vision/warp.ts `warpBoard`), and
crops each cell grown by 0.2 of a cell, as the mean of 2×2 samples a pixel (`cellCrops`). Here the same is done with
the scene's own camera, the grid's corners off by about what the grid finder misses by, so the model sees what it
will see from a player's seat: tall and narrow far tiles, a tile's side below its face, the next row's face over
the top of a square, printed premium words, the rack's shadow, an arm.
"""
import math

import cv2
import numpy as np

import render
import seat

TILE_HEIGHT = 0.22  # vision/pose.ts TILE_HEIGHT
CELL = 40  # vision/warp.ts CELL and MARGIN
WARPED = 15 * CELL + 2 * CELL
SIZES = ((1280, 960), (960, 720), (800, 600))
PREMIUM = {(r, c) for r in range(15) for c in range(15) if render.LAYOUT[r][c] != "."}


def crop_offsets(size, margin):
    step = CELL * (1 + 2 * margin) / size
    return np.array([math.floor((i + 0.25) * step) for i in range(size)]), np.array(
        [math.floor((i + 0.75) * step) for i in range(size)])


def straighten(img, corners):
    """The photo warped onto the straightened board, as warpBoard draws it (bilinear, edges replicated)."""
    dst = np.array([[CELL, CELL], [CELL + 15 * CELL, CELL], [CELL + 15 * CELL, CELL + 15 * CELL], [CELL, CELL + 15 * CELL]],
                   np.float32)
    H = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    return cv2.warpPerspective(img, H, (WARPED, WARPED), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def cell_crop(board, r, c, size, margin, offsets, dx=0.0, dy=0.0):
    """Cell (r, c)'s crop as cellCrops takes it: the mean of 2×2 samples under each output pixel."""
    a, b = offsets
    x0 = round(CELL + (c - margin + dx) * CELL)
    y0 = round(CELL + (r - margin + dy) * CELL)
    xs_a, xs_b = np.clip(x0 + a, 0, WARPED - 1), np.clip(x0 + b, 0, WARPED - 1)
    ys_a, ys_b = np.clip(y0 + a, 0, WARPED - 1), np.clip(y0 + b, 0, WARPED - 1)
    b32 = board.astype(np.uint16)
    s = b32[ys_a][:, xs_a] + b32[ys_a][:, xs_b] + b32[ys_b][:, xs_a] + b32[ys_b][:, xs_b]
    return np.floor(s / 4 + 0.5).astype(np.uint8)  # MEAN[sum] = sum / 1020 in [0, 1]: the same byte scale


def scene_cells(rng, fonts, size=32, margin=0.2, empty_plain=0.12, empty_premium=0.45):
    """Renders one training seat view and returns (crops N×size×size×3 uint8, class indices N). Every tile and
    every square under the arm is kept, with a share of the empty squares (premium ones, printed words and all,
    more often); squares hidden by the rack or a cup are left out (the model has no class for them)."""
    w, h = rng.choice(SIZES)
    if rng.random() < 1 / 6:
        w, h = h, w
    img, rows, meta, cam = seat.render_scene(rng, fonts, size=(w, h), training=True, camera=True)
    photo = np.asarray(img, np.uint8)
    # The lift the vision makes is its TILE_HEIGHT, whatever the set's true height; the corners found are off by
    # up to about a pixel and a few hundredths of a square.
    z = TILE_HEIGHT + rng.gauss(0, 0.015)
    corners, _ = cam.project(np.array([[0, 0, z], [15, 0, z], [15, 15, z], [0, 15, z]], np.float64), ss=False)
    side = max(np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)) / 15
    corners = corners + np.array([[rng.gauss(0, 0.5 + 0.03 * side) for _ in range(2)] for _ in range(4)])
    board = straighten(photo, corners)
    offsets = crop_offsets(size, margin)
    hand = {tuple(seat_square(n)) for n in meta["hidden_by_hand"]}
    skip = {tuple(seat_square(n)) for n in meta["hidden_by_rack"] + meta["hidden_by_cups"]}
    xs, ys = [], []
    for r in range(15):
        for c in range(15):
            if (r, c) in skip:
                continue
            ch = rows[r][c]
            if (r, c) in hand:
                label = "#"
            elif ch == ".":
                if rng.random() >= (empty_premium if (r, c) in PREMIUM else empty_plain):
                    continue
                label = "."
            else:
                label = "?" if ch == "?" or ch.islower() else ch
            crop = cell_crop(board, r, c, size, margin, offsets, rng.uniform(-0.06, 0.06), rng.uniform(-0.06, 0.06))
            k = rng.randrange(4)
            crop = np.ascontiguousarray(np.rot90(crop, -k))  # k quarter turns clockwise, as render_cell's
            xs.append(crop)
            ys.append(render.CLASSES.index(label if label in ".?#" else f"{label}{k}"))
    return np.stack(xs) if xs else np.empty((0, size, size, 3), np.uint8), np.array(ys, np.int64)


def seat_square(name):
    """'12C' → (11, 2)."""
    return int(name[:-1]) - 1, seat.COLS.index(name[-1])
