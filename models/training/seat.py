"""Seat views: a Scrabble board on a table photographed from a player's seat, rendered in 3D.

The users' most common camera: a phone leaning at the near edge of the table, 15–40 cm up, looking across the board
(45–75° from straight down), with the player's rack in the foreground and sometimes a hand reaching in. Nothing here
is a 2D warp of a flat picture: a pinhole camera looks at a 3D scene (table, board slab, tiles as boxes with faces,
sides and shadows, a rack with standing tiles, cups, an arm), painted back to front with exact occlusion.

    /usr/bin/python3 models/training/seat.py --out fixtures/seat --count 36 --seed 1

writes NAME.jpg + NAME.txt (board text, row 1 first; the camera is always beyond row 15, so the letters read upright)
and scenes.json (camera, tile height, style, what is in view, the squares a hand or the rack hides, and the four grid
corners' exact positions in the image). The set is for measuring only: never train on it. `render_scene` is the
importable entry point for rendering seat views for training.

World units: one board square = 1. The playing grid spans x ∈ [0, 15] (column A at x ∈ [0, 1]), y ∈ [0, 15] (row 1
at y ∈ [0, 1]) on the plane z = 0, z is up. Image coordinates are pixels with (0, 0) the centre of the top-left pixel.
"""
import argparse
import json
import math
import os
import random
import sys
import time

import cv2
import numpy as np
from PIL import Image, ImageDraw

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import render  # noqa: E402

SQUARE_CM = 1.9
SS = 2  # supersampling: the scene is drawn at SS× the image size, then averaged down
TEX = 96  # board texture pixels per square
COLS = "ABCDEFGHIJKLMNO"
STYLES = ("modern", "vintage", "plain")
BANDS = ((45, 55), (55, 65), (65, 75))
# Corner order of the grid corners in scenes.json: as vision/types.ts Corners (top-left, top-right, bottom-right,
# bottom-left of the board as read upright).
GRID_CORNERS = np.array([[0, 0, 0], [15, 0, 0], [15, 15, 0], [0, 15, 0]], np.float64)

# Common words for the game positions (no lexicon is needed to draw a board; these are all real English words).
WORDS = """
AT TO IN ON OX QI XI ZA JO AX EX OF IT IS BE WE HE ME MY BY GO SO NO DO UP US OR AN AS AM YE YO OH HI
CAT DOG SUN RUN FOX BOX JAM ZIP QUA WAX KEY JOY VOW FIG ICE OAK ELM ASH EAR EYE TOE ARM LEG HAT CAP MAP
NET PEN INK OWL BEE ANT RAT BAT HEN COW PIG YAK EMU GNU ZOO JAR JET JOB KID KIT LID MUD NUT OAT PEA RYE
TEA TAX VAN WEB YAM ZAP DEW HUE RAY SKY SEA BAY ORE GEM TIN TOY TUB RUG RIB GUM HUM HOP HUT
BLUE BIRD CAKE DUCK EDGE FARM GOLD HAND IRON JUMP KING LAMP MOON NOSE OVEN PARK QUIZ RAIN SALT TREE
VASE WIND YARD ZERO ARCH BEAM CORN DAWN ECHO FERN GLOW HAZE IDEA JADE KNOT LAKE MAZE NEST OPAL PINE
QUAY ROSE SNOW TIDE UNIT VINE WOLF YOGA ZONE AXLE BOLT CLAY DUNE EPIC FOAM GRIT HIVE ISLE JOKE KELP
LYNX MINT NOON ONYX PLUM REEF SILK TUSK URGE VETO WREN YOLK ZEAL FIZZ JAZZ QUIT EXAM OXEN WAXY
APPLE BEACH CHAIR DREAM EAGLE FLAME GRAPE HOUSE IVORY JUICE KNIFE LEMON MAPLE NIGHT OCEAN PIANO
QUEEN RIVER STONE TIGER UNCLE VOICE WATER YOUTH ZEBRA AMBER BRICK CLOUD DAISY EMBER FROST GLOBE
HONEY INDEX JOKER KAYAK LIGHT MOUSE NOBLE OLIVE PEARL QUILT ROBIN SHEEP TOAST ULTRA VIVID WHEAT
YEAST WALTZ OXIDE BOXER FJORD QUOTA AZURE CRISP DWARF FUNGI GLYPH HASTE JOLLY KNEEL LATCH MIRTH
NUDGE PLAZA QUICK RHYME SWAMP THYME VAPOR WHISK PIXEL VEXED JUMBO
BASKET CANDLE DONKEY ENGINE FOREST GARDEN HAMMER ISLAND JACKET KITTEN LADDER MARBLE NAPKIN ORANGE
PENCIL RABBIT SADDLE TURTLE VELVET WINDOW YELLOW ZIPPER ANCHOR BRIDGE CASTLE DRAGON FABRIC GINGER
HARBOR INSECT JIGSAW KETTLE LIZARD MEADOW NEEDLE OYSTER PEPPER QUARTZ RIDDLE SPIRAL TICKET UNFOLD
VOYAGE WALNUT OXYGEN ZENITH BAZAAR COFFEE
BLANKET CAPTAIN DIAMOND EMERALD FEATHER GRAVITY HARVEST JOURNEY KITCHEN LANTERN MONSTER NOTEBOOK
ORCHARD PUMPKIN QUARTER RAINBOW SHELTER THUNDER UNICORN VOLCANO WEATHER EXPLAIN JACKPOT ZEPPELIN
""".split()

TILE_SIDE_SHADE = 0.82


def U(rng, a, b):
    return rng.uniform(a, b)


def unit(v):
    v = np.asarray(v, np.float64)
    return v / np.linalg.norm(v)


def square_name(r, c):
    return f"{r + 1}{COLS[c]}"


# ---------------------------------------------------------------- board contents

def tile_bag(set_id="en"):
    data = render.read_data(f"tilesets/{set_id}.json")
    return {letter: count for letter, count, _value in data["letters"]}, data["blanks"]


def game_position(rng, tiles=None):
    """A position as it looks mid-game: words crossing, connected through the centre, `tiles` tiles or so (default
    20–60), within the English set's letter counts (a letter the bag has run out of is a blank, `?`).
    Returns (15 strings of board text, the bag left as {letter: count}, blanks left)."""
    bag, blanks = tile_bag()
    target = tiles if tiles is not None else rng.randint(20, 60)
    grid = [["."] * 15 for _ in range(15)]
    placed = []  # (r, c, direction) of each tile placed, direction of its word

    def fits(word, r, c, down):
        dr, dc = (1, 0) if down else (0, 1)
        er, ec = r + dr * (len(word) - 1), c + dc * (len(word) - 1)
        if not (0 <= r and 0 <= c and er < 15 and ec < 15):
            return None
        br, bc, ar, ac = r - dr, c - dc, er + dr, ec + dc
        if 0 <= br < 15 and 0 <= bc < 15 and grid[br][bc] != ".":
            return None
        if 0 <= ar < 15 and 0 <= ac < 15 and grid[ar][ac] != ".":
            return None
        new, cross = [], 0
        for k, ch in enumerate(word):
            rr, cc = r + dr * k, c + dc * k
            g = grid[rr][cc]
            if g != ".":
                if g.upper() != ch and not (g == "?"):
                    return None
                if g == "?":
                    return None  # a blank stands for a letter we do not track: cross only real letters
                cross += 1
                continue
            # An empty square of the new word must not touch a tile sideways (that would make words not checked).
            for sr, sc in ((rr + dc, cc + dr), (rr - dc, cc - dr)):
                if 0 <= sr < 15 and 0 <= sc < 15 and grid[sr][sc] != ".":
                    return None
            new.append((rr, cc, ch))
        return new if new else None

    def take(new):
        nonlocal blanks
        need = {}
        for _r, _c, ch in new:
            need[ch] = need.get(ch, 0) + 1
        short = sum(max(0, n - bag.get(ch, 0)) for ch, n in need.items())
        if short > blanks:
            return None
        out = []
        for rr, cc, ch in new:
            if bag.get(ch, 0) > 0 and not (blanks > 0 and rng.random() < 0.015):
                bag[ch] -= 1
                out.append((rr, cc, ch))
            else:
                blanks -= 1
                out.append((rr, cc, "?"))
        return out

    first = rng.choice([w for w in WORDS if 4 <= len(w) <= 7])
    down = rng.random() < 0.5
    start = 7 - rng.randrange(len(first))
    new = take(fits(first, 7, start, False) if not down else fits(first, start, 7, True))
    for rr, cc, ch in new:
        grid[rr][cc] = ch
        placed.append((rr, cc, down))
    count = len(new)
    for _attempt in range(3000):
        if count >= target:
            break
        ar, ac, adown = rng.choice(placed)
        letter = grid[ar][ac]
        if letter == "?":
            continue
        down = not adown
        words = [w for w in WORDS if letter in w and len(w) <= 8 + (count > 30) * 0]
        word = rng.choice(words)
        ks = [k for k, ch in enumerate(word) if ch == letter]
        k = rng.choice(ks)
        r, c = (ar - k, ac) if down else (ar, ac - k)
        new = fits(word, r, c, down)
        if not new or count + len(new) > target + 4:
            continue
        new = take(new)
        if not new:
            continue
        for rr, cc, ch in new:
            grid[rr][cc] = ch
            placed.append((rr, cc, down))
        count += len(new)
    return ["".join(row) for row in grid], bag, blanks


# ---------------------------------------------------------------- the camera

class Camera:
    """Pinhole camera at C looking at `target`, rolled by `roll` radians about its axis. `size` is the image's
    (width, height); projections are in the supersampled canvas's pixels unless `ss=False`."""

    def __init__(self, C, target, roll, focal, size):
        self.C = np.asarray(C, np.float64)
        f = unit(np.asarray(target, np.float64) - self.C)
        r = unit(np.cross([0.0, 0.0, 1.0], f))
        d = np.cross(r, f)
        cr, sr = math.cos(roll), math.sin(roll)
        r, d = cr * r + sr * d, -sr * r + cr * d
        self.R = np.stack([r, d, f])
        self.f = f
        self.roll = roll
        w, h = size
        self.size = size
        self.focal = focal
        self.K = np.array([[focal, 0, (w - 1) / 2], [0, focal, (h - 1) / 2], [0, 0, 1]], np.float64)
        S = np.array([[SS, 0, (SS - 1) / 2], [0, SS, (SS - 1) / 2], [0, 0, 1]], np.float64)
        self.Kss = S @ self.K

    def depth(self, P):
        return (np.asarray(P, np.float64) - self.C) @ self.f

    def project(self, P, ss=True):
        P = np.atleast_2d(np.asarray(P, np.float64))
        X = (P - self.C) @ self.R.T
        uv = X @ (self.Kss if ss else self.K).T
        return uv[:, :2] / uv[:, 2:3], X[:, 2]

    def plane(self, z0, ss=True):
        """Homography from (x, y) on the plane z = z0 to image pixels."""
        R = self.R
        M = np.column_stack([R[:, 0], R[:, 1], z0 * R[:, 2] - R @ self.C])
        return (self.Kss if ss else self.K) @ M

    def visible(self, normal, point):
        return float(np.dot(normal, self.C - point)) > 1e-9


# ---------------------------------------------------------------- drawing helpers (on the supersampled canvas)

def fill_poly(img, pts, colour):
    pts = np.round(np.asarray(pts, np.float64) * 16).astype(np.int64)
    if np.abs(pts).max() > 2**30:
        return
    cv2.fillConvexPoly(img, pts.astype(np.int32), colour, cv2.LINE_AA, 4)


def poly_mask(shape, pts, origin=(0, 0)):
    m = np.zeros(shape, np.uint8)
    fill_poly(m, np.asarray(pts) - np.asarray(origin, np.float64), 255)
    return m


def bbox_of(pts, w, h, pad=2):
    x0 = max(0, int(math.floor(pts[:, 0].min())) - pad)
    y0 = max(0, int(math.floor(pts[:, 1].min())) - pad)
    x1 = min(w, int(math.ceil(pts[:, 0].max())) + pad + 1)
    y1 = min(h, int(math.ceil(pts[:, 1].max())) + pad + 1)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def blend(canvas, box, rgb, alpha):
    """Composite `rgb` (float or uint8, box-sized) with `alpha` in [0, 1] (box-sized) onto canvas[box]."""
    x0, y0, x1, y1 = box
    region = canvas[y0:y1, x0:x1].astype(np.float32)
    a = alpha.astype(np.float32)[..., None]
    canvas[y0:y1, x0:x1] = np.clip(region * (1 - a) + rgb.astype(np.float32) * a, 0, 255).astype(np.uint8)


def shade(rgb, k):
    return tuple(int(max(0, min(255, c * k))) for c in rgb)


def warp_mipmapped(tex, H_tex2img, box, levels=4):
    """`tex` (RGB uint8) through the homography into the box, filtered by level of detail: each output pixel takes
    the pyramid level matching how many texture pixels it covers (so far rows do not alias)."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ H_tex2img
    Minv = np.linalg.inv(T)
    # Texture pixels per output pixel, on a coarse grid.
    step = 8
    gy, gx = np.mgrid[0:bh + step:step, 0:bw + step:step].astype(np.float64)
    U_ = Minv[0, 0] * gx + Minv[0, 1] * gy + Minv[0, 2]
    V_ = Minv[1, 0] * gx + Minv[1, 1] * gy + Minv[1, 2]
    W_ = Minv[2, 0] * gx + Minv[2, 1] * gy + Minv[2, 2]
    W2 = W_ * W_
    a = (Minv[0, 0] * W_ - U_ * Minv[2, 0]) / W2
    b = (Minv[0, 1] * W_ - U_ * Minv[2, 1]) / W2
    c = (Minv[1, 0] * W_ - V_ * Minv[2, 0]) / W2
    d = (Minv[1, 1] * W_ - V_ * Minv[2, 1]) / W2
    fro = a * a + b * b + c * c + d * d
    det = np.abs(a * d - b * c)
    smax = np.sqrt(np.maximum(0, (fro + np.sqrt(np.maximum(0, fro * fro - 4 * det * det))) / 2))
    # A little under the largest stretch: between isotropic (sqrt det) and the worst axis.
    scale = np.sqrt(smax * np.sqrt(np.maximum(det, 1e-12)))
    lod = np.clip(np.log2(np.maximum(scale, 1e-6)), 0, levels - 1).astype(np.float32)
    lod = cv2.resize(lod, (bw + step * 2, bh + step * 2), interpolation=cv2.INTER_LINEAR)[:bh, :bw]
    out = np.zeros((bh, bw, 3), np.float32)
    total = np.zeros((bh, bw), np.float32)
    level = tex
    used = np.unique(np.floor(lod).astype(int))
    need = set(int(u) for u in used) | set(int(u) + 1 for u in used if u + 1 < levels)
    for lv in range(levels):
        if lv > 0:
            level = cv2.resize(level, ((level.shape[1] + 1) // 2, (level.shape[0] + 1) // 2),
                               interpolation=cv2.INTER_AREA)
        if lv not in need:
            continue
        wgt = np.clip(1 - np.abs(lod - lv), 0, 1)
        rows = np.flatnonzero(wgt.max(axis=1) > 0)
        if rows.size == 0:
            continue
        ra, rb = int(rows[0]), int(rows[-1]) + 1
        sx = level.shape[1] / tex.shape[1]
        sy = level.shape[0] / tex.shape[0]
        Sl = np.array([[sx, 0, (sx - 1) / 2], [0, sy, (sy - 1) / 2], [0, 0, 1]], np.float64)
        Tl = np.array([[1, 0, 0], [0, 1, -ra], [0, 0, 1]], np.float64) @ T @ np.linalg.inv(Sl)
        warped = cv2.warpPerspective(level, Tl, (bw, rb - ra), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        wb = wgt[ra:rb]
        out[ra:rb] += warped.astype(np.float32) * wb[..., None]
        total[ra:rb] += wb
    return out / np.maximum(total, 1e-6)[..., None]


def draw_textured_plane(canvas, cam, tex, z0, origin, px_per_unit, lowres=False):
    """A flat texture lying on the plane z = z0 with its top-left texel corner at world `origin` and
    `px_per_unit` texels a square. `lowres`: resampled at the image's size, not the supersampled canvas's (for
    what is out of focus anyway)."""
    h, w = canvas.shape[:2]
    th, tw = tex.shape[:2]
    ox, oy = origin
    A = np.array([[1 / px_per_unit, 0, ox + 0.5 / px_per_unit], [0, 1 / px_per_unit, oy + 0.5 / px_per_unit],
                  [0, 0, 1]], np.float64)
    H = cam.plane(z0) @ A
    corners = np.array([[ox, oy, z0], [ox + tw / px_per_unit, oy, z0], [ox + tw / px_per_unit, oy + th / px_per_unit, z0],
                        [ox, oy + th / px_per_unit, z0]])
    pts, dep = cam.project(corners)
    if (dep <= 0).any():
        raise ValueError("a plane corner is behind the camera")
    box = bbox_of(pts, w, h)
    if box is None:
        return
    if lowres:
        # Whole image pixels only: the box in image pixels, warped there, then scaled up.
        bx0, by0 = box[0] // SS * SS, box[1] // SS * SS
        bx1, by1 = min(w, -(-box[2] // SS) * SS), min(h, -(-box[3] // SS) * SS)
        box = (bx0, by0, bx1, by1)
        D = np.array([[1 / SS, 0, (1 / SS - 1) / 2], [0, 1 / SS, (1 / SS - 1) / 2], [0, 0, 1]], np.float64)
        small = (bx0 // SS, by0 // SS, bx1 // SS, by1 // SS)
        rgb = warp_mipmapped(tex, D @ H, small)
        rgb = cv2.resize(rgb, (bx1 - bx0, by1 - by0), interpolation=cv2.INTER_LINEAR)
    else:
        rgb = warp_mipmapped(tex, H, box)
    mask = poly_mask((box[3] - box[1], box[2] - box[0]), pts, box[:2]).astype(np.float32) / 255
    blend(canvas, box, rgb, mask)


def quad_face(canvas, cam, pts3, colour, masks=()):
    pts, dep = cam.project(pts3)
    if (dep <= 0.05).any():
        return
    fill_poly(canvas, pts, colour)
    for m in masks:
        fill_poly(m, pts, 255)


def draw_convex(canvas, cam, faces, light, amb, masks=()):
    """A convex solid: `faces` a list of (3D polygon, base colour); back faces are culled, each face is lit by its
    normal."""
    centre = np.mean([p for f, _c in faces for p in f], axis=0)
    for poly, colour in faces:
        poly = np.asarray(poly, np.float64)
        n = unit(np.cross(poly[1] - poly[0], poly[2] - poly[0]))
        if np.dot(n, poly.mean(0) - centre) < 0:
            n = -n
        if not cam.visible(n, poly.mean(0)):
            continue
        k = amb + (1 - amb) * max(0.0, float(np.dot(n, light)))
        quad_face(canvas, cam, poly, shade(colour, k), masks)


def prism(section, x0, x1):
    """Faces of a prism along x with the convex cross-section `section` [(y, z), …]."""
    a = [np.array([x0, y, z]) for y, z in section]
    b = [np.array([x1, y, z]) for y, z in section]
    faces = [a, b[::-1]]
    n = len(section)
    for i in range(n):
        j = (i + 1) % n
        faces.append([a[i], a[j], b[j], b[i]])
    return faces


# ---------------------------------------------------------------- tiles as boxes

def tile_texture(letter, px_w, px_h, ts, rng):
    """A tile's face (RGBA) sized for how big it is drawn: a slightly darker rim (the bevel), then the face."""
    s = int(np.clip(8 * round(max(px_w, px_h) / 8), 24, 192))
    face = render.tile_image(letter, s, dict(ts, size=1.0), rng)
    rim = int(max(1, round(s * ts.get("rim", 0.05))))
    base = Image.new("RGBA", (s, s), ts["rim_rgb"] + (255,))
    inner = face.resize((s - 2 * rim, s - 2 * rim), Image.LANCZOS)
    base.alpha_composite(inner, (rim, rim))
    arr = np.asarray(base)
    tw, th = max(4, int(round(px_w))), max(4, int(round(px_h)))
    if tw < s or th < s:
        arr = cv2.resize(arr, (min(tw, s), min(th, s)), interpolation=cv2.INTER_AREA)
    return arr


def draw_tile_box(canvas, cam, centre, a_r, a_d, n, thick, letter, ts, light, amb, rng, masks=()):
    """A tile: a box whose textured face (centre, right and down edge vectors, outward normal) is `thick` thick.
    Sides are shaded darker than the face, the lower part of each side darker still."""
    h, w = canvas.shape[:2]
    centre = np.asarray(centre, np.float64)
    TL = centre - a_r / 2 - a_d / 2
    TR = centre + a_r / 2 - a_d / 2
    BR = centre + a_r / 2 + a_d / 2
    BL = centre - a_r / 2 + a_d / 2
    front = [TL, TR, BR, BL]
    back = [p - n * thick for p in front]
    top_k = amb + (1 - amb) * max(0.0, float(np.dot([0, 0, 1], light)))
    side_rgb = ts["side_rgb"]
    sides = [
        ([TL, TR, back[1], back[0]], -unit(a_d)),
        ([BL, BR, back[2], back[3]], unit(a_d)),
        ([TL, BL, back[3], back[0]], -unit(a_r)),
        ([TR, BR, back[2], back[1]], unit(a_r)),
    ]
    for poly, normal in sides:
        if not cam.visible(normal, np.mean(poly, axis=0)):
            continue
        k = min(TILE_SIDE_SHADE, (amb + (1 - amb) * max(0.0, float(np.dot(normal, light)))) / top_k)
        quad_face(canvas, cam, poly, shade(side_rgb, k), masks)
        # The part of the side near the back (the board or the rack) is in its own shade.
        p0, p1, p2, p3 = [np.asarray(p) for p in poly]
        lower = [p0 + (p3 - p0) * 0.6, p1 + (p2 - p1) * 0.6, p2, p3]
        quad_face(canvas, cam, lower, shade(side_rgb, k * 0.82))
    if not cam.visible(n, centre):
        return
    pts, dep = cam.project(front)
    if (dep <= 0.05).any():
        return
    box = bbox_of(pts, w, h)
    if box is None:
        return
    px_w = max(np.linalg.norm(pts[1] - pts[0]), np.linalg.norm(pts[2] - pts[3]))
    px_h = max(np.linalg.norm(pts[3] - pts[0]), np.linalg.norm(pts[2] - pts[1]))
    tex = tile_texture(letter, px_w, px_h, ts, rng)
    th, tw = tex.shape[:2]
    src = np.float32([[-0.5, -0.5], [tw - 0.5, -0.5], [tw - 0.5, th - 0.5], [-0.5, th - 0.5]])
    dst = np.float32(pts - np.array(box[:2], np.float64))
    M = cv2.getPerspectiveTransform(src, dst)
    bw, bh = box[2] - box[0], box[3] - box[1]
    warped = cv2.warpPerspective(tex, M, (bw, bh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                 borderValue=(0, 0, 0, 0)).astype(np.float32)
    k = (amb + (1 - amb) * max(0.0, float(np.dot(n, light)))) / top_k
    blend(canvas, box, warped[..., :3] * k, warped[..., 3] / 255)
    for m in masks:
        fill_poly(m, pts, 255)


# ---------------------------------------------------------------- the board's printed top

def border_text(d, text, cx, cy, size, angle, colour, font_path, img):
    f = render.font(font_path, max(8, int(size)))
    tw = int(d.textlength(text, font=f)) + 4
    layer = Image.new("RGBA", (tw, int(size * 1.5)), (0, 0, 0, 0))
    ImageDraw.Draw(layer).text((2, int(size * 0.1)), text, font=f, fill=colour + (255,))
    layer = layer.rotate(angle, expand=True, resample=Image.BICUBIC)
    img.alpha_composite(layer, (int(cx - layer.width / 2), int(cy - layer.height / 2)))


def board_design(rng, fonts, style, training=False):
    """Colours and options of a board in one of STYLES."""
    J = render.jitter
    bs = render.board_style(rng, training=training)
    bs["font"] = rng.choice(fonts)
    bs["teeth"] = False
    bs["fold"] = rng.random() < 0.4
    if style == "modern":
        sq = J(rng.choice([(18, 92, 62), (14, 72, 58), (22, 62, 78), (36, 40, 44), (20, 105, 80)]), 10, rng)
        bs.update(
            square=sq,
            line=J(rng.choice([(215, 225, 210), (200, 215, 205), (8, 30, 22)]), 10, rng),
            line_w=U(rng, 0.02, 0.045),
            premiums={"d": J((120, 185, 225), 20, rng), "t": J((30, 95, 185), 20, rng),
                      "D": J((235, 150, 165), 20, rng), "T": J((215, 45, 55), 20, rng)},
            text=True, dots=False, worn=False, grain=False, star=True, teeth=True,
            frame=J(rng.choice([(12, 52, 38), (25, 25, 28), (110, 25, 30), sq]), 10, rng),
            band=J(rng.choice([(210, 180, 90), (225, 225, 215)]), 15, rng),
            logo=rng.random() < 0.8)
    elif style == "vintage":
        bs.update(
            square=J((205, 192, 158), 12, rng),
            line=J(rng.choice([(238, 232, 215), (150, 130, 100)]), 10, rng),
            line_w=U(rng, 0.025, 0.06),
            premiums={"d": J((175, 210, 225), 15, rng), "t": J((60, 120, 185), 15, rng),
                      "D": J((240, 175, 170), 15, rng), "T": J((205, 55, 50), 15, rng)},
            text=True, dots=False, worn=training and rng.random() < 0.3, grain=False, star=rng.random() < 0.7,
            frame=J(rng.choice([(120, 30, 35), (140, 40, 35), (60, 40, 30), (215, 205, 180)]), 12, rng),
            band=J(rng.choice([(225, 215, 185), (30, 30, 30)]), 12, rng),
            logo=rng.random() < 0.7)
    else:  # plain: render.py's random board, no printed words
        bs.update(text=False, teeth=False, star=rng.random() < 0.4,
                  frame=J(rng.choice([(200, 30, 30), (240, 240, 235), (30, 30, 30), bs["square"]]), 20, rng),
                  band=None, logo=rng.random() < 0.3)
    bs["style"] = style
    bs["border"] = U(rng, 0.6, 1.2)
    return bs


def board_texture(bs, rng, fonts):
    """The board's top as an RGB array, TEX pixels a square, the grid inside a border of bs['border'] squares."""
    s = TEX
    b = bs["border"]
    size = int(round((15 + 2 * b) * s))
    off = (size - 15 * s) / 2
    img = Image.new("RGBA", (size, size), bs["frame"] + (255,))
    d = ImageDraw.Draw(img)
    plain = dict(bs, text=False)
    for r in range(15):
        for c in range(15):
            render.draw_square(d, off + c * s, off + r * s, s, render.LAYOUT[r][c], plain, rng, fonts)
    if bs.get("teeth"):
        # Modern boards: each premium square throws small triangles into its neighbours.
        for r in range(15):
            for c in range(15):
                code = render.LAYOUT[r][c]
                if code == "." or (r == 7 and c == 7):
                    continue
                col = bs["premiums"][code]
                x, y = off + c * s, off + r * s
                depth, half = s * 0.2, s * 0.09
                for k in (0.25, 0.5, 0.75):
                    t = s * k
                    if r > 0:
                        d.polygon([(x + t - half, y), (x + t + half, y), (x + t, y - depth)], fill=col)
                    if r < 14:
                        d.polygon([(x + t - half, y + s), (x + t + half, y + s), (x + t, y + s + depth)], fill=col)
                    if c > 0:
                        d.polygon([(x, y + t - half), (x, y + t + half), (x - depth, y + t)], fill=col)
                    if c < 14:
                        d.polygon([(x + s, y + t - half), (x + s, y + t + half), (x + s + depth, y + t)], fill=col)
        lw = max(1, int(round(bs["line_w"] * s)))
        for k in range(16):
            d.line([(off + k * s, off), (off + k * s, off + 15 * s)], fill=bs["line"], width=lw)
            d.line([(off, off + k * s), (off + 15 * s, off + k * s)], fill=bs["line"], width=lw)
    if bs["text"]:
        f = render.font(bs["font"], max(6, int(s * U(rng, 0.14, 0.17))))
        for r in range(15):
            for c in range(15):
                code = render.LAYOUT[r][c]
                if code == "." or (r == 7 and c == 7 and bs.get("star")):
                    continue
                colour = bs["premiums"][code]
                ink = (255, 255, 255) if sum(colour) < 420 else (40, 40, 40)
                words = render.PREMIUM_TEXT[code]
                x, y = off + c * s, off + r * s
                for i, word in enumerate(words):
                    tw = d.textlength(word, font=f)
                    d.text((x + (s - tw) / 2, y + s * (0.2 + 0.22 * i)), word, font=f, fill=ink)
    if bs.get("star"):
        render.draw_star(d, off + 7.5 * s, off + 7.5 * s, s * U(rng, 0.3, 0.42), rng)
    if bs.get("band"):
        g = s * U(rng, 0.12, 0.3)
        d.rectangle([off - g, off - g, off + 15 * s + g, off + 15 * s + g], outline=bs["band"],
                    width=max(2, int(s * 0.05)))
    if bs.get("logo") and b >= 0.75:
        text = rng.choice(["SCRABBLE", "SCRABBLE", "WORDS", "CROSSWORD", "LEXICON"])
        ink = bs.get("band") or (render.jitter((240, 240, 235), 10, rng) if sum(bs["frame"]) < 380 else (30, 30, 30))
        fsize = s * b * U(rng, 0.42, 0.55)
        pos = rng.random()
        border_text(d, text, size * (0.25 + 0.5 * pos), off / 2, fsize, 0, ink, bs["font"], img)
        border_text(d, text, size * (0.75 - 0.5 * pos), size - off / 2, fsize, 180, ink, bs["font"], img)
    arr = np.asarray(img.convert("RGB")).astype(np.float32)
    if bs.get("fold"):
        # The fold across the middle of a folding board.
        mid = int(off + 7.5 * s)
        arr[mid - 1:mid + 2] *= U(rng, 0.8, 0.9)
    if bs.get("grain"):
        arr = np.asarray(render.wood_grain(Image.fromarray(arr.astype(np.uint8)).convert("RGBA"), rng).convert("RGB")).astype(np.float32)
    arr += np.random.default_rng(rng.randrange(1 << 30)).normal(0, 2.5, arr.shape[:2])[..., None]
    return arr, off


# ---------------------------------------------------------------- table and room

def table_texture(rng, wpx, hpx):
    """A tabletop: wooden planks, a cloth, or a plain laminate."""
    kind = rng.choice(["wood", "wood", "cloth", "plain"])
    yy, xx = np.mgrid[0:hpx, 0:wpx].astype(np.float32)
    J = render.jitter
    if kind == "wood":
        base = np.array(J(rng.choice([(150, 100, 60), (185, 140, 95), (110, 70, 45), (205, 170, 125)]), 20, rng), np.float32)
        plank = wpx / U(rng, 4, 8)
        along_x = rng.random() < 0.5
        a, bcoord = (yy, xx) if along_x else (xx, yy)
        idx = np.floor(a / plank)
        prng = np.random.default_rng(rng.randrange(1 << 30))
        tone = prng.uniform(0.85, 1.1, int(idx.max()) + 2)[idx.astype(int)]
        grain = np.sin(a * U(rng, 0.15, 0.4) + 3 * np.sin(bcoord * U(rng, 0.01, 0.03) + idx * 1.7)) * U(rng, 0.03, 0.08)
        seam = (np.abs(a - (idx + 0.5) * plank) > plank / 2 - 1.5).astype(np.float32) * 0.35
        tex = base * (tone * (1 + grain) * (1 - seam))[..., None]
    elif kind == "cloth":
        base = np.array(J(rng.choice([(200, 200, 195), (170, 40, 45), (60, 90, 140), (230, 220, 190), (90, 120, 80)]), 20, rng), np.float32)
        weave = 1 + 0.04 * np.sin(xx * 2.1) * np.sin(yy * 2.1)
        tex = base * weave[..., None]
        if rng.random() < 0.15:
            p = wpx / U(rng, 10, 20)
            check = ((np.floor(xx / p) + np.floor(yy / p)) % 2).astype(np.float32)
            tex = tex * (1 - 0.25 * check)[..., None]
    else:
        base = np.array(J(rng.choice([(235, 235, 230), (120, 120, 125), (70, 60, 55), (200, 190, 170)]), 20, rng), np.float32)
        tex = np.broadcast_to(base, (hpx, wpx, 3)).copy()
    tex += np.random.default_rng(rng.randrange(1 << 30)).normal(0, 3, (hpx, wpx))[..., None]
    return np.clip(tex, 0, 255), kind


def room_background(rng, w, h):
    """Behind the table: a wall, furniture, maybe a window — out of focus."""
    sw, sh = max(8, w // 8), max(8, h // 8)
    top = np.array(render.jitter(rng.choice([(200, 195, 185), (150, 160, 170), (90, 80, 70), (230, 225, 210)]), 25, rng), np.float32)
    bottom = top * U(rng, 0.5, 0.8)
    t = np.linspace(0, 1, sh, dtype=np.float32)[:, None, None]
    img = np.broadcast_to(top * (1 - t) + bottom * t, (sh, sw, 3)).copy()
    for _ in range(rng.randint(1, 5)):
        x0, y0 = rng.randrange(sw), rng.randrange(sh)
        x1, y1 = x0 + rng.randint(sw // 8, sw // 2), y0 + rng.randint(sh // 8, sh // 2)
        col = (250, 250, 245) if rng.random() < 0.2 else render.jitter((120, 100, 80), 60, rng)
        img[y0:y1, x0:x1] = np.array(col, np.float32)
    img = cv2.GaussianBlur(img, (0, 0), 2.5)
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_LINEAR)


def draw_shadows(tex, polys, origin, ppu, strength, blur):
    """Soft shadows (world polygons on the plane) darkening a texture that starts at world `origin`."""
    m = np.zeros(tex.shape[:2], np.float32)
    for weight in sorted({wgt for _p, wgt in polys}):
        layer = np.zeros_like(m)
        for poly, wgt in polys:
            if wgt != weight:
                continue
            pts = (np.asarray(poly, np.float64) - np.asarray(origin, np.float64)) * ppu
            if pts[:, 0].max() < 0 or pts[:, 1].max() < 0 or pts[:, 0].min() > tex.shape[1] or pts[:, 1].min() > tex.shape[0]:
                continue
            cv2.fillConvexPoly(layer, np.round(pts * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
        np.maximum(m, layer * weight, out=m)
    if blur > 0:
        m = cv2.GaussianBlur(m, (0, 0), blur)
    tex *= (1 - strength * m)[..., None]


def cast(points, light, z0):
    """Where points fall on the plane z = z0 along the light."""
    P = np.asarray(points, np.float64)
    t = (P[:, 2] - z0) / light[2]
    return P[:, :2] - light[None, :2] * t[:, None]


def hull(points2):
    return cv2.convexHull(np.asarray(points2, np.float32)).reshape(-1, 2).astype(np.float64)


# ---------------------------------------------------------------- hands, cups

def capsule_mask(cam, p0, p1, r0, r1, shape):
    """The silhouette of a capsule (spheres swept from p0 to p1), as (mask, box) in the canvas; None if unseen."""
    H, W = shape
    p0, p1 = np.asarray(p0, np.float64), np.asarray(p1, np.float64)
    n = max(2, int(np.linalg.norm(p1 - p0) / (min(r0, r1) * 0.3)) + 1)
    circles = []
    for k in range(n):
        t = k / (n - 1)
        P = p0 + (p1 - p0) * t
        uv, dep = cam.project(P)
        if dep[0] <= 0.3:
            continue
        rp = cam.Kss[0, 0] * (r0 + (r1 - r0) * t) / dep[0]
        x, y = uv[0]
        if x + rp < 0 or y + rp < 0 or x - rp > W or y - rp > H:
            continue
        circles.append((x, y, rp))
    if not circles:
        return None
    c = np.array(circles)
    box = (max(0, int(np.floor((c[:, 0] - c[:, 2]).min())) - 3), max(0, int(np.floor((c[:, 1] - c[:, 2]).min())) - 3),
           min(W, int(np.ceil((c[:, 0] + c[:, 2]).max())) + 4), min(H, int(np.ceil((c[:, 1] + c[:, 2]).max())) + 4))
    if box[2] <= box[0] or box[3] <= box[1]:
        return None
    m = np.zeros((box[3] - box[1], box[2] - box[0]), np.uint8)
    for x, y, rp in circles:
        cv2.circle(m, (int(round((x - box[0]) * 16)), int(round((y - box[1]) * 16))), int(round(rp * 16)), 255, -1,
                   cv2.LINE_AA, 4)
    return cv2.GaussianBlur(m, (0, 0), 0.8), box


def draw_body_part(canvas, m, box, colour, light_dir2):
    """Fills a part of a hand or arm: rounded shading from its silhouette, lit from one side."""
    x0, y0, x1, y1 = box
    bh, bw = m.shape
    dist = cv2.distanceTransform((m > 127).astype(np.uint8), cv2.DIST_L2, 5)
    dmax = max(1.0, float(dist.max()))
    round_ = np.sqrt(np.clip(dist / dmax, 0, 1))
    yy, xx = np.mgrid[0:bh, 0:bw].astype(np.float32)
    side = ((xx - bw / 2) * light_dir2[0] + (yy - bh / 2) * light_dir2[1]) / max(bw, bh)
    k = (0.62 + 0.38 * round_) * (1 + 0.25 * side)
    rgb = np.array(colour, np.float32)[None, None, :] * k[..., None]
    blend(canvas, box, rgb, m.astype(np.float32) / 255)


def hand_parts(rng, target, cam, h, w):
    """Capsules (p0, p1, r0, r1, colour) of an arm reaching to `target` (x, y) on the board, palm down, fingertips
    there, from a player's side of the table: across from the camera, left, right, or the camera's own side. The arm
    runs out of the picture; a side from which it would not (or would pass just before the lens) is not taken.
    Returns (parts, side) or None."""
    tx, ty = target
    sides = ["far", "left", "right", "near"]
    order = []
    pool = list(zip(sides, [0.35, 0.25, 0.25, 0.15]))
    while pool:
        k = rng.choices(range(len(pool)), weights=[p for _s, p in pool])[0]
        order.append(pool.pop(k)[0])
    tip_z = U(rng, 0.35, 1.6)
    lift = U(rng, 0.7, 1.4)
    rise = U(rng, 0.12, 0.35)
    psi = math.radians(U(rng, -30, 30))
    for where in order:
        beta = {"near": -math.pi / 2, "far": math.pi / 2, "left": 0.0, "right": math.pi}[where] + psi
        a = np.array([math.cos(beta), math.sin(beta), 0.0])  # from the wrist toward the fingertips
        side = np.array([-math.sin(beta), math.cos(beta), 0.0])
        palm = np.array([tx, ty, tip_z]) - a * 3.3 + np.array([0, 0, lift])
        wrist = palm - a * 2.6 + np.array([0, 0, 0.4])
        arm_dir = unit(-a + np.array([0, 0, rise]))
        end = None
        for step in range(1, 40):
            P = wrist + arm_dir * step
            uv, dep = cam.project(P)
            if dep[0] < 6:
                break
            if not (-0.05 * w <= uv[0, 0] < 1.05 * w and -0.05 * h <= uv[0, 1] < 1.05 * h):
                end = wrist + arm_dir * max(step + 4, 10)
                if cam.project(end)[1][0] < 2:
                    end = P
                break
        if end is None:
            continue
        sk = render.skin(rng)
        parts = [(wrist, end, U(rng, 1.0, 1.2), U(rng, 1.4, 1.8), shade(sk, 0.95))]
        for k in (-1, 0, 1):
            parts.append((wrist + side * k * 0.75, palm + a * 1.2 + side * k * 0.9, 0.8, 0.75, sk))
        knuckle = palm + a * 1.5
        spread = U(rng, 0.6, 0.8)
        for i, k in enumerate((-1.5, -0.5, 0.5, 1.5)):
            base = knuckle + side * k * spread
            length = (2.4, 3.0, 3.2, 2.9)[i] * U(rng, 0.9, 1.1)
            bend = unit(a * (1 + 0.1 * k) + side * 0.08 * k + np.array([0, 0, -U(rng, 0.25, 0.55)]))
            parts.append((base, base + bend * length, 0.42, 0.36, sk))
        thumb = 1 if rng.random() < 0.5 else -1
        tb = palm - a * 0.8 + side * thumb * 1.6
        parts.append((tb, tb + unit(a * 0.8 + side * thumb * 0.6 + np.array([0, 0, -0.3])) * 2.4, 0.5, 0.42, sk))
        return parts, where
    return None


def cup_faces(cam, centre, radius, height, z0, colour, light, amb, n=48):
    """Visible side strips and the top of a mug standing at `centre` on z = z0: (polygon 2D, colour) to draw."""
    cx, cy = centre
    out = []
    for i in range(n):
        a0, a1 = 2 * math.pi * i / n, 2 * math.pi * (i + 1) / n
        am = (a0 + a1) / 2
        normal = np.array([math.cos(am), math.sin(am), 0])
        mid = np.array([cx + radius * math.cos(am), cy + radius * math.sin(am), z0 + height / 2])
        if not cam.visible(normal, mid):
            continue
        P = [[cx + radius * math.cos(a0), cy + radius * math.sin(a0), z0], [cx + radius * math.cos(a1), cy + radius * math.sin(a1), z0],
             [cx + radius * math.cos(a1), cy + radius * math.sin(a1), z0 + height], [cx + radius * math.cos(a0), cy + radius * math.sin(a0), z0 + height]]
        k = amb + (1 - amb) * max(0.0, float(np.dot(normal, light)))
        out.append((P, shade(colour, k)))
    return out


# ---------------------------------------------------------------- the scene

def place_camera(rng, angle, size, outer, tries=14, nudge=None):
    """A phone beyond row 15 at `angle` from vertical to the board centre, the whole board (outer corners) in
    view. Returns (Camera, facts, the Camera that draws). `nudge` (seat_game.py): the phone knocked after it was
    placed, as a dict of `shift` (its centre moved, in squares: across, along the table, up), `turn` (its aim moved
    across the board, in squares) and `roll` (degrees). The scene is laid out from the phone as placed (the rack, the
    cups, the table's extent) and drawn through the knocked one; the knock draws nothing from `rng`, so the scene is
    the same but for the camera. Without a nudge the two are one."""
    w, h = size
    fov_long = U(rng, 60, 75)
    focal = (max(w, h) / 2) / math.tan(math.radians(fov_long) / 2)
    # The phone stands at the near edge of the table, the board a hand or two away: its horizontal distance to
    # the board's centre, then the height that gives the angle (not lower than a phone propped on its stand).
    dist = U(rng, 13, 32)
    height = min(24.0, max(6.5, dist / math.tan(math.radians(angle))))
    dist = height * math.tan(math.radians(angle))
    dx = U(rng, -2.5, 2.5)
    aim = np.array([7.5 + U(rng, -0.8, 0.8), 7.5 + U(rng, -0.8, 0.8), 0.0])
    roll = math.radians(U(rng, -3, 3))
    margin = 0.03 * min(w, h)
    for _ in range(tries):
        height = dist / math.tan(math.radians(angle))
        C = np.array([7.5 + dx, 7.5 + math.sqrt(max(1e-6, dist * dist - dx * dx)), height])
        cam = Camera(C, aim, roll, focal, size)
        pts, dep = cam.project(outer, ss=False)
        if (dep > 0).all() and pts[:, 0].min() > margin and pts[:, 0].max() < w - margin \
                and pts[:, 1].min() > margin and pts[:, 1].max() < h - margin:
            break
        dist *= 1.08
    facts = {"fov_long_deg": round(fov_long, 2), "focal_px": round(focal, 2),
             "hfov_deg": round(math.degrees(2 * math.atan(w / 2 / focal)), 2)}
    drawn = cam
    if nudge:
        sx, sy, sz = nudge.get("shift", (0.0, 0.0, 0.0))
        tx, ty = nudge.get("turn", (0.0, 0.0))
        drawn = Camera(cam.C + np.array([sx, sy, sz]), aim + np.array([tx, ty, 0.0]),
                       roll + math.radians(nudge.get("roll", 0.0)), focal, size)
        pts, dep = drawn.project(outer, ss=False)
        if not ((dep > 0).all() and pts[:, 0].min() > 0 and pts[:, 0].max() < w
                and pts[:, 1].min() > 0 and pts[:, 1].max() < h):
            raise ValueError(f"the camera knocked by {nudge} no longer sees the whole board")
        facts["nudge"] = nudge
    return cam, facts, drawn


def render_scene(rng, fonts, angle=None, style=None, size=(1280, 960), board=None, rack=None, hand=None, cups=None,
                 training=False, camera=False, rack_letters=None, tile_rng=None, nudge=None):
    """One seat view. `rng` a random.Random; `fonts` render.font_paths(); `angle` degrees from vertical to the board
    centre (default 45–75); `style` one of STYLES; `board` 15 strings of board text (default a random game);
    `rack`/`hand`/`cups` force them in or out (default by chance); `rack_letters` the rack's tiles (default drawn from
    the bag). Returns (RGB PIL image, board rows, meta), and the Camera too with `camera=True` (seat_cells.py cuts
    training cells through it). `tile_rng`: a second random.Random for what depends on the tiles (their jitter, their
    faces, the rack's letters): with it, the same `rng` seed gives the same scene (camera, board, table, light) whatever
    the tiles, so that a game's positions are frames of one steady camera (seat_game.py); `nudge` knocks that camera
    (place_camera)."""
    trng = tile_rng or rng
    w, h = size
    style = style or rng.choice(STYLES)
    angle = angle if angle is not None else U(rng, 45, 75)
    if board is None:
        rows, bag, blanks = game_position(rng)
    else:
        rows = list(board)
        bag, blanks = tile_bag()
        for ch in "".join(rows):
            if ch in bag and bag[ch] > 0:
                bag[ch] -= 1
    bs = board_design(rng, fonts, style, training=training)
    ts = render.tile_style(rng, fonts, training=training)
    ts["rim"] = U(rng, 0.03, 0.07)
    ts["rim_rgb"] = shade(ts["face"], U(rng, 0.72, 0.85))
    ts["side_rgb"] = shade(ts["face"], U(rng, 0.85, 0.95)) if not ts["wood"] else shade(ts["face"], U(rng, 0.8, 0.9))
    tile_h = U(rng, 0.20, 0.26)
    face = U(rng, 0.90, 0.96)
    b = bs["border"]
    bthick = U(rng, 0.08, 0.2)
    outer = np.array([[-b, -b, 0], [15 + b, -b, 0], [15 + b, 15 + b, 0], [-b, 15 + b, 0]], np.float64)
    # `placed` lays the scene out (the rack before the phone, the table's extent); `cam` draws it (knocked, or the same).
    placed, cam_facts, cam = place_camera(rng, angle, size, outer, nudge=nudge)
    C = placed.C
    W, H = w * SS, h * SS
    # The light: from above, at some side.
    el, az = math.radians(U(rng, 40, 72)), U(rng, 0, 2 * math.pi)
    light = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    amb = U(rng, 0.55, 0.7)
    zt = -bthick  # the table's top

    # ---- what stands on the table, decided first: shadows go onto the textures before they are drawn
    rack = rng.random() < 0.85 if rack is None else rack
    hand = rng.random() < 0.3 if hand is None else hand
    n_cups = (rng.choice([0, 0, 1, 1, 2]) if rng.random() < 0.35 else 0) if cups is None else int(cups)
    board_shadows, table_shadows = [], []

    # Board tiles.
    tiles = []
    for r in range(15):
        for c in range(15):
            ch = rows[r][c]
            if ch == ".":
                continue
            phi = math.radians(U(trng, -4, 4))
            fs = face * U(trng, 0.995, 1.005)
            cen = np.array([c + 0.5 + U(trng, -0.05, 0.05), r + 0.5 + U(trng, -0.05, 0.05), tile_h])
            a_r = fs * np.array([math.cos(phi), math.sin(phi), 0])
            a_d = fs * np.array([-math.sin(phi), math.cos(phi), 0])
            tiles.append((r, c, ch, cen, a_r, a_d))
            top = [cen + sx * a_r / 2 + sy * a_d / 2 for sx in (-1, 1) for sy in (-1, 1)]
            bottom = [p - np.array([0, 0, tile_h]) for p in top]
            board_shadows.append((hull(np.vstack([cast(top, light, 0), [p[:2] for p in bottom]])), 1.0))

    # The rack: a bar with a ledge, a slanted back and a lip, tiles leaning on it facing the camera.
    rack_info = None
    if rack:
        near_edge = 15 + b
        length = U(rng, 9, 11)
        rx = C[0] + U(rng, -2.5, 2.5)
        lean = math.radians(U(rng, 12, 22))
        z_base = U(rng, 0.18, 0.3)
        z_top = U(rng, 0.8, 1.05)
        wd = 0.2 + (z_top - z_base) * math.tan(lean)
        lip_d, lip_h = U(rng, 0.15, 0.25), U(rng, 0.15, 0.3)
        depth = wd + tile_h * 1.15 + 0.05 + lip_d
        want = h * U(rng, 0.78, 1.02)
        lo_gap = U(rng, 0.6, 2.0)
        if rng.random() < 0.5:
            # In front of the board and high enough in the picture to hide a bit of its near edge.
            near_v = placed.project([[0, 15, 0], [15, 15, 0]], ss=False)[0][:, 1].max()
            want = min(want, near_v - U(rng, 0.0, 0.05) * h)
            lo_gap = U(rng, 0.3, 0.8)

        def top_v(yb):
            uv, _dep = placed.project([rx, yb + wd * 0.5, zt + z_top + 0.3], ss=False)
            return uv[0, 1]

        lo, hi = near_edge + lo_gap, C[1] - depth - 1.5
        if hi > lo:
            if top_v(lo) >= want:
                yb = lo
            elif top_v(hi) <= want:
                yb = hi
            else:
                for _ in range(40):
                    mid = (lo + hi) / 2
                    lo, hi = (mid, hi) if top_v(mid) < want else (lo, mid)
                yb = (lo + hi) / 2
            rack_rgb = render.jitter(rng.choice([(170, 120, 70), (120, 80, 45), (30, 30, 32), (120, 30, 35), (225, 215, 190)]), 15, rng)
            x0, x1 = rx - length / 2, rx + length / 2
            base = prism([(yb, zt), (yb + depth, zt), (yb + depth, zt + z_base), (yb, zt + z_base)], x0, x1)
            wedge = prism([(yb, zt + z_base), (yb + wd, zt + z_base), (yb + 0.2, zt + z_top), (yb, zt + z_top)], x0, x1)
            lip = prism([(yb + depth - lip_d, zt + z_base), (yb + depth, zt + z_base), (yb + depth, zt + z_base + lip_h),
                         (yb + depth - lip_d, zt + z_base + lip_h)], x0, x1)
            n_rack = rng.randint(5, 7)
            if rack_letters is None:
                letters = [k for k, v in bag.items() for _ in range(v)] + ["?"] * blanks
                trng.shuffle(letters)
                rack_letters = letters[:n_rack]
            rack_letters = list(rack_letters)
            n_rack = len(rack_letters)
            gap = U(rng, 0.02, 0.12)
            span = n_rack * face + (n_rack - 1) * gap
            start = rx - span / 2 + U(rng, -0.3, 0.3)
            n = np.array([0, math.cos(lean), math.sin(lean)])
            a_d_dir = np.array([0, math.sin(lean), -math.cos(lean)])
            rack_tiles = []
            for i, ch in enumerate(rack_letters):
                cx = start + face / 2 + i * (face + gap) + U(trng, -0.03, 0.03)
                # The tile's back rests on the slanted face, its bottom on the ledge.
                bottom_back = np.array([cx, yb + wd, zt + z_base])
                cen = bottom_back - a_d_dir * face / 2 + n * tile_h
                rack_tiles.append((ch, cen, np.array([face, 0, 0]), a_d_dir * face, n))
            rack_info = {"parts": (base, wedge, lip), "rgb": rack_rgb, "tiles": rack_tiles, "y": yb, "depth": depth,
                         "x": (x0, x1), "letters": "".join(rack_letters)}
            allp = np.array([p for part in (base, wedge) for f in part for p in f])
            table_shadows.append((hull(cast(allp, light, zt)), 1.0))
            board_shadows.append((hull(cast(allp, light, 0)), 1.0))

    # Cups beside the board.
    cup_list = []
    for _ in range(n_cups):
        radius, height = U(rng, 1.8, 2.3), U(rng, 4.0, 5.5)
        for _try in range(20):
            side = rng.choice([-1, 1])
            cx = (-b - U(rng, 2.5, 6)) if side < 0 else (15 + b + U(rng, 2.5, 6))
            cy = U(rng, 2, C[1] - 4)
            uv, dep = placed.project([cx, cy, zt + height], ss=False)
            if dep[0] > 3 and 0 < uv[0, 0] < w and -h * 0.1 < uv[0, 1] < h:
                break
        col = render.jitter(rng.choice([(240, 240, 235), (200, 60, 50), (50, 90, 150), (240, 200, 60), (40, 40, 40)]), 15, rng)
        cup_list.append((cx, cy, radius, height, col))
        ring = [[cx + radius * math.cos(t), cy + radius * math.sin(t), zt + height] for t in np.linspace(0, 2 * math.pi, 24)]
        foot = [[cx + radius * math.cos(t), cy + radius * math.sin(t)] for t in np.linspace(0, 2 * math.pi, 24)]
        table_shadows.append((hull(np.vstack([cast(ring, light, zt), foot])), 1.0))
        board_shadows.append((hull(np.vstack([cast(ring, light, 0), foot])), 1.0))

    # A hand over the board, fingers over a tile (or a square near the words).
    hand_info = None
    if hand:
        filled = [(r, c) for r in range(15) for c in range(15) if rows[r][c] != "."]
        tr, tc = rng.choice(filled) if filled and rng.random() < 0.8 else (rng.randrange(15), rng.randrange(15))
        got = hand_parts(rng, (tc + 0.5 + U(rng, -0.5, 0.5), tr + 0.5 + U(rng, -0.5, 0.5)), cam, H, W)
    if hand and got:
        parts, where = got
        hand_info = {"parts": parts, "target": square_name(tr, tc), "from": where}
        for p0, p1, r0, r1, _col in parts:
            pts = []
            for P, r_ in ((p0, r0), (p1, r1)):
                for t in np.linspace(0, 2 * math.pi, 10, endpoint=False):
                    pts.append([P[0] + r_ * math.cos(t), P[1] + r_ * math.sin(t), P[2]])
            board_shadows.append((hull(cast(pts, light, 0)), 0.8))
            table_shadows.append((hull(cast(pts, light, zt)), 0.8))

    # ---- draw: room, table, board, then everything standing, back to front
    canvas = np.clip(room_background(rng, W, H), 0, 255).astype(np.uint8)
    far = min(-b - U(rng, 3, 12), 7.5 - U(rng, 35, 55))
    tx0, tx1 = C[0] - U(rng, 28, 45), C[0] + U(rng, 28, 45)
    ty1 = C[1] + 0.3
    # The table's near edge at the phone, or just before the lens where the phone looks steeply across it.
    while min(placed.depth([tx0, ty1, zt]), placed.depth([tx1, ty1, zt])) < 0.5:
        ty1 -= 0.5
    tppu = 12
    ttex, table_kind = table_texture(rng, int((tx1 - tx0) * tppu), int((ty1 - far) * tppu))
    draw_shadows(ttex, table_shadows, (tx0, far), tppu, U(rng, 0.3, 0.5), tppu * 0.25)
    draw_textured_plane(canvas, cam, np.clip(ttex, 0, 255).astype(np.uint8), zt, (tx0, far), tppu, lowres=True)

    # The board: its edge, then its top with the tiles' shadows.
    slab = [[[-b, -b, zt], [15 + b, -b, zt], [15 + b, 15 + b, zt], [-b, 15 + b, zt]],
            [[-b, -b, 0], [15 + b, -b, 0], [15 + b, 15 + b, 0], [-b, 15 + b, 0]]]
    lo_, hi_ = slab
    edge_rgb = shade(bs["frame"], 0.7)
    edge_faces = [([lo_[i], lo_[(i + 1) % 4], hi_[(i + 1) % 4], hi_[i]], edge_rgb) for i in range(4)]
    edge_faces += [(hi_, edge_rgb), (lo_, edge_rgb)]
    draw_convex(canvas, cam, [(f, col) for f, col in edge_faces[:4]] + [(hi_, edge_rgb), (lo_[::-1], edge_rgb)], light, amb)
    btex, off = board_texture(bs, rng, fonts)
    ppu = TEX
    origin = (-off / ppu, -off / ppu)
    draw_shadows(btex, [(p, wgt * 0.35) for p, wgt in board_shadows], origin, ppu, 1.0, ppu * 0.02)  # contact
    draw_shadows(btex, board_shadows, origin, ppu, U(rng, 0.3, 0.45), ppu * U(rng, 0.05, 0.1))
    draw_textured_plane(canvas, cam, np.clip(btex, 0, 255).astype(np.uint8), 0.0, origin, ppu)

    rack_mask = np.zeros((H, W), np.uint8)
    cup_mask = np.zeros((H, W), np.uint8)
    hand_mask = np.zeros((H, W), np.uint8)
    front_mask = np.zeros((H, W), np.uint8)  # what stands nearer than the board (out of focus)
    items = []
    for t in tiles:
        items.append((cam.depth(t[3]), "tile", t))
    if rack_info:
        items.append((cam.depth([rack_info["x"][0] / 2 + rack_info["x"][1] / 2, rack_info["y"], zt]), "rack", rack_info))
    for cp in cup_list:
        items.append((cam.depth([cp[0], cp[1], zt]), "cup", cp))
    items.sort(key=lambda it: -it[0])
    board_near_depth = cam.depth([7.5, 15 + b, 0])
    for dep, kind, it in items:
        if kind == "tile":
            r, c, ch, cen, a_r, a_d = it
            draw_tile_box(canvas, cam, cen, a_r, a_d, np.array([0, 0, 1.0]), tile_h, None if ch == "?" else ch,
                          ts, light, amb, trng)
        elif kind == "rack":
            base, wedge, lip = it["parts"]
            masks = (rack_mask, front_mask)
            draw_convex(canvas, cam, [(f, it["rgb"]) for f in base], light, amb, masks)
            draw_convex(canvas, cam, [(f, it["rgb"]) for f in wedge], light, amb, masks)
            for ch, cen, a_r, a_d, n in sorted(it["tiles"], key=lambda t: -cam.depth(t[1])):
                draw_tile_box(canvas, cam, cen, a_r, a_d, n, tile_h, None if ch == "?" else ch, ts, light, amb, trng, masks)
            draw_convex(canvas, cam, [(f, shade(it["rgb"], 1.05)) for f in lip], light, amb, masks)
        else:
            cx, cy, radius, height, col = it
            masks = (cup_mask, front_mask) if dep < board_near_depth else (cup_mask,)
            for poly, colour in cup_faces(cam, (cx, cy), radius, height, zt, col, light, amb):
                quad_face(canvas, cam, poly, colour, masks)
            ring = [[cx + radius * math.cos(t), cy + radius * math.sin(t), zt + height] for t in np.linspace(0, 2 * math.pi, 48)]
            inner = [[cx + radius * 0.86 * math.cos(t), cy + radius * 0.86 * math.sin(t), zt + height] for t in np.linspace(0, 2 * math.pi, 48)]
            quad_face(canvas, cam, ring, shade(col, 0.95), masks)
            quad_face(canvas, cam, inner, render.jitter((70, 45, 30), 15, rng))
    if hand_info:
        lit2 = unit(cam.R[:2, :2] @ light[:2] + 1e-9)
        for p0, p1, r0, r1, col in sorted(hand_info["parts"], key=lambda p: -cam.depth((p[0] + p[1]) / 2)):
            got = capsule_mask(cam, p0, p1, r0, r1, (H, W))
            if got is None:
                continue
            m, (x0, y0, x1, y1) = got
            draw_body_part(canvas, m, (x0, y0, x1, y1), col, lit2)
            np.maximum(hand_mask[y0:y1, x0:x1], m, out=hand_mask[y0:y1, x0:x1])

    # ---- down to the image size, then the phone's own look
    img = cv2.resize(canvas, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    small = lambda m: cv2.resize(m, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255  # noqa: E731
    fm = small(front_mask)
    meta_blur = {}
    if fm.max() > 0:
        sigma = U(rng, 0.8, 2.2)
        meta_blur["foreground_sigma"] = round(sigma, 2)
        fm = cv2.GaussianBlur(fm, (0, 0), 3)[..., None]
        img = img * (1 - fm) + cv2.GaussianBlur(img, (0, 0), sigma) * fm
    sigma = U(rng, 0.3, 0.85)
    meta_blur["sigma"] = round(sigma, 2)
    img = cv2.GaussianBlur(img, (0, 0), sigma)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ga = U(rng, 0, 2 * math.pi)
    grad = 1 + U(rng, -0.22, 0.22) * ((xx / w - 0.5) * math.cos(ga) + (yy / h - 0.5) * math.sin(ga)) * 2
    vig = 1 - U(rng, 0.05, 0.25) * (((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) / 0.5)
    img *= (grad * vig)[..., None]
    img *= np.array([U(rng, 0.95, 1.05) for _ in range(3)], np.float32) * U(rng, 0.9, 1.08)
    noise = U(rng, 1.0, 3.0)
    img += np.random.default_rng(rng.randrange(1 << 30)).normal(0, noise, (h, w))[..., None]
    out = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))

    # ---- labels for the vision: grid corners, what is hidden
    corners, _ = cam.project(GRID_CORNERS, ss=False)

    def hidden(mask):
        if mask.max() == 0:
            return []
        out_ = []
        for r in range(15):
            for c in range(15):
                z = tile_h if rows[r][c] != "." else 0.0
                poly = np.array([[c + 0.1, r + 0.1, z], [c + 0.9, r + 0.1, z], [c + 0.9, r + 0.9, z], [c + 0.1, r + 0.9, z]])
                pts, _ = cam.project(poly)
                box = bbox_of(pts, W, H, pad=1)
                if box is None:
                    continue
                pm = poly_mask((box[3] - box[1], box[2] - box[0]), pts, box[:2]).astype(np.float32)
                area = pm.sum()
                if area <= 0:
                    continue
                cover = (pm * mask[box[1]:box[3], box[0]:box[2]].astype(np.float32) / 255).sum() / area
                if cover >= 0.5:
                    out_.append(square_name(r, c))
        return out_

    # The camera that drew the picture (knocked, where it was).
    C = cam.C
    height = float(C[2])
    centre_dist = math.hypot(C[0] - 7.5, C[1] - 7.5)
    meta = {
        "size": [w, h],
        "camera": {
            "side": "beyond row 15",
            "position": [round(float(v), 3) for v in C],
            "height_squares": round(height, 2),
            "height_cm": round(height * SQUARE_CM, 1),
            "angle_deg": round(math.degrees(math.atan2(centre_dist, height)), 2),
            "axis_angle_deg": round(math.degrees(math.acos(-cam.f[2])), 2),
            "distance_to_centre_squares": round(centre_dist, 2),
            "roll_deg": round(math.degrees(cam.roll), 2),
            **cam_facts,
        },
        "light": {"elevation_deg": round(math.degrees(el), 1), "azimuth_deg": round(math.degrees(az), 1)},
        "tile_height": round(tile_h, 4),
        "tile_face": round(face, 4),
        "tile_style": {"face": list(ts["face"]), "wood": ts["wood"], "font": os.path.basename(ts["font"])},
        "board_style": style,
        "board": {"square": list(bs["square"]), "border_squares": round(b, 3), "thickness": round(bthick, 3),
                  "printed_words": bool(bs["text"]), "teeth": bool(bs.get("teeth")), "star": bool(bs.get("star"))},
        "table": table_kind,
        "tiles": sum(ch != "." for ch in "".join(rows)),
        "rack": bool(rack_info),
        "rack_letters": rack_info["letters"] if rack_info else "",
        "hand": bool(hand_info),
        "hand_target": hand_info["target"] if hand_info else None,
        "hand_from": hand_info["from"] if hand_info else None,
        "cups": len(cup_list),
        "hidden_by_hand": hidden(hand_mask) if hand_info else [],
        "hidden_by_rack": hidden(rack_mask) if rack_info else [],
        "hidden_by_cups": hidden(cup_mask) if cup_list else [],
        "grid_corners": [[round(float(x), 2), round(float(y), 2)] for x, y in corners],
        "blur": meta_blur,
        "noise": round(noise, 2),
        "jpeg_quality": rng.randint(80, 90),
    }
    return (out, rows, meta, cam) if camera else (out, rows, meta)


# ---------------------------------------------------------------- the test set

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="fixtures/seat")
    ap.add_argument("--count", type=int, default=36)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--size", default="1280x960", help="landscape WxH; about one image in six is taken upright")
    args = ap.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    os.makedirs(args.out, exist_ok=True)
    fonts = render.font_paths()
    scenes = {}
    t_all = time.time()
    for i in range(args.count):
        rng = random.Random(args.seed * 100003 + i)
        band = BANDS[i * len(BANDS) // args.count]
        style = STYLES[(i // len(BANDS) + i) % len(STYLES)]
        angle = U(rng, band[0], band[1])
        size = (h, w) if rng.random() < 1 / 6 else (w, h)
        t0 = time.time()
        img, rows, meta = render_scene(rng, fonts, angle=angle, style=style, size=size)
        name = f"{i:02d}_{int(band[0])}-{int(band[1])}deg_{style}"
        # One folder per band of angles: `tilecam eval fixtures/seat/55-65` measures a band.
        folder = os.path.join(args.out, f"{int(band[0])}-{int(band[1])}")
        os.makedirs(folder, exist_ok=True)
        img.save(os.path.join(folder, name + ".jpg"), quality=meta["jpeg_quality"])
        with open(os.path.join(folder, name + ".txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(rows) + "\n")
        meta["band"] = f"{band[0]}-{band[1]}"
        scenes[name] = meta
        print(f"{name}: {meta['camera']['angle_deg']:.1f}° {meta['camera']['height_cm']:.0f} cm, {meta['tiles']} tiles, "
              f"rack {meta['rack']}, hand {meta['hand']}, cups {meta['cups']}, {time.time() - t0:.1f} s", flush=True)
    doc = {
        "about": "Seat-view test set rendered by models/training/seat.py: a board on a table seen from a player's "
                 "seat. For measuring only; never train on it. Units: squares (1.9 cm); the grid spans x, y in "
                 "[0, 15] on z = 0, the camera is beyond row 15. grid_corners: image pixels (0,0 = centre of the "
                 "top-left pixel) of the grid's top-left, top-right, bottom-right, bottom-left corners on the board "
                 "plane. hidden_by_*: squares at least half hidden (their tile face, or the square itself).",
        "command": f"/usr/bin/python3 models/training/seat.py --out {args.out} --count {args.count} --seed {args.seed}"
                   + (f" --size {args.size}" if args.size != "1280x960" else ""),
        "scenes": scenes,
    }
    with open(os.path.join(args.out, "scenes.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"{args.count} scenes in {time.time() - t_all:.0f} s")


if __name__ == "__main__":
    main()
