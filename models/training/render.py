"""Synthetic Scrabble boards and cells, rendered from scratch: the only training data tilecam's model sees.

Boards are drawn square by square (premium colours, optional printed text, grid lines) and tiles on top (cream
plastic, natural wood, black; many bold fonts; the point value in the corner; bevels, shadows, offsets and small
rotations). Training cells also get coloured sets with light letters, worn print, small letters, khaki, wood-grain
and worn boards and the centre star. Photos then get lighting gradients, glare, shadows, blur, noise and JPEG
artefacts. Nothing here reads a real photo.
"""
import glob
import io
import json
import math
import os
import random
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

LETTERS = list("ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ")
# Model classes: empty, blank tile, occluded (a hand), then every letter in each of 4 orientations
# (k quarter turns clockwise of the tile in the crop).
CLASSES = [".", "?", "#"] + [f"{l}{k}" for k in range(4) for l in LETTERS]
# Tile sets and layouts are the rules engine's data files (format in server/engine/data/README.md), never copies.
DATA = Path(__file__).resolve().parents[2] / "server/engine/data"


def read_data(name):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def letter_values(set_id):
    return {letter: value for letter, _count, value in read_data(f"tilesets/{set_id}.json")["letters"]}


# The value printed on each tile: the English set's, and the German set's for Ä Ö Ü.
_EN_VALUES, _DE_VALUES = letter_values("en"), letter_values("de")
VALUES = {l: _EN_VALUES[l] if l in _EN_VALUES else _DE_VALUES[l] for l in LETTERS}

FONT_GLOBS = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSerif-Bold.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSansBold.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSerifBold.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf",
    "/usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansDisplay-Bold.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Black.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Medium.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Bold.ttf",
    "/usr/share/fonts/truetype/open-sans/OpenSans-Bold.ttf",
    "/usr/share/fonts/truetype/open-sans/OpenSans-ExtraBold.ttf",
    "/usr/share/fonts/truetype/open-sans/OpenSans-Semibold.ttf",
    "/usr/share/fonts/truetype/lato/Lato-Bold.ttf",
    "/usr/share/fonts/truetype/lato/Lato-Black.ttf",
    "/usr/share/fonts/truetype/lato/Lato-Heavy.ttf",
    "/usr/share/fonts/opentype/cantarell/Cantarell-Bold.otf",
    "/usr/share/fonts/opentype/cantarell/Cantarell-ExtraBold.otf",
]
# Training also draws these (model v5): the grotesque and geometric faces many real sets are printed in (Helvetica's
# and Avant Garde's URW clones, a Futura-like face, where C is nearly a ring), and a vintage serif. The fixture photos
# draw from FONT_GLOBS alone, so that they come out byte for byte as they were first rendered.
TRAINING_FONT_GLOBS = [
    "/usr/share/fonts/opentype/urw-base35/NimbusSans-Bold.otf",
    "/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Bold.otf",
    "/usr/share/fonts/opentype/urw-base35/URWGothic-Demi.otf",
    "/usr/share/fonts/opentype/urw-base35/C059-Bold.otf",
    "/usr/share/fonts/opentype/league-spartan/LeagueSpartan-Bold.otf",
    "/usr/share/fonts/opentype/league-spartan/LeagueSpartan-ExtraBold.otf",
]


def font_paths(training=False):
    """The font files to draw with: FONT_GLOBS, and for training cells TRAINING_FONT_GLOBS too (all of those must be
    there, so that a model is never trained on fewer faces than its recipe says)."""
    # TILECAM_FONT_DIR: a copy of /usr/share/fonts elsewhere (a machine where the Debian font packages cannot be
    # installed, such as a GPU box without network). Else the fonts setup.sh unpacked beside this file, when it has.
    local = Path(__file__).resolve().parent / ".fonts" / "usr" / "share" / "fonts"
    root = os.environ.get("TILECAM_FONT_DIR") or (str(local) if local.is_dir() else None)
    where = f"under TILECAM_FONT_DIR={root}" if root else "(run models/training/setup.sh to install them)"

    def found(globs):
        globs = [g.replace("/usr/share/fonts", root, 1) for g in globs] if root else globs
        return [p for g in globs for p in glob.glob(g)]

    paths = found(FONT_GLOBS)
    if len(paths) < 8:
        raise SystemExit(f"only {len(paths)} of the training fonts found {where}")
    if training:
        extra = found(TRAINING_FONT_GLOBS)
        if len(extra) < len(TRAINING_FONT_GLOBS):
            raise SystemExit(f"only {len(extra)} of the {len(TRAINING_FONT_GLOBS)} training-only fonts found {where}")
        paths += extra
    return paths


_font_cache = {}


def font(path, size):
    key = (path, size)
    if key not in _font_cache:
        _font_cache[key] = ImageFont.truetype(path, size)
    return _font_cache[key]


# ---------------------------------------------------------------- board and tile styles

def jitter(rgb, amount, rng):
    return tuple(int(max(0, min(255, c + rng.uniform(-amount, amount)))) for c in rgb)


# `training` also draws the styles added for model v4 (khaki, worn and wood-grain boards, the centre star, coloured
# sets with light letters, faded print). The fixture photos draw without them, so that they come out byte for byte as
# they were first rendered.

def board_style(rng, training=False):
    kind = rng.choice(["green", "beige", "red", "cream", "gray", "wood"] + (["khaki"] if training else []))
    base = {
        "green": (20, 110, 60), "beige": (200, 185, 150), "red": (150, 40, 40),
        "cream": (230, 225, 205), "gray": (150, 150, 150), "wood": (170, 120, 70), "khaki": (175, 170, 125),
    }[kind]
    square = jitter(base, 25, rng)
    light = sum(square) / 3 > 120
    line = jitter((240, 240, 235) if rng.random() < 0.5 else ((40, 40, 40) if light else (10, 40, 20)), 20, rng)
    premiums = {
        "d": jitter(rng.choice([(110, 170, 220), (150, 200, 230), (80, 160, 200)]), 25, rng),
        "t": jitter(rng.choice([(30, 70, 160), (20, 110, 170), (40, 90, 200)]), 25, rng),
        "D": jitter(rng.choice([(235, 130, 130), (240, 170, 170), (230, 120, 150)]), 25, rng),
        "T": jitter(rng.choice([(200, 30, 40), (230, 90, 40), (210, 50, 60)]), 25, rng),
    }
    return {
        "square": square,
        "line": line,
        "line_w": rng.uniform(0.02, 0.07),
        "premiums": premiums,
        "text": rng.random() < 0.5,
        "dots": rng.random() < 0.3,
        "raised": rng.random() < 0.3,
        # An old board: the varnish worn off or glossy in patches, so an empty square is not evenly coloured.
        "worn": training and rng.random() < 0.2,
        # A wooden board: grain runs across every square, premium ones too.
        "grain": training and kind in ("wood", "beige", "khaki") and rng.random() < 0.5,
        # The centre square's star (drawn where the layout's centre falls).
        "star": training and rng.random() < 0.6,
    }


# Share of training tile sets whose print is worn.
FADED = 0.3


def tile_style(rng, fonts, training=False):
    kinds = ["cream", "wood", "black", "ivory"] + (["colour"] if training else [])
    kind = rng.choices(kinds, weights=[4, 4, 1, 2, 1.5][: len(kinds)])[0]
    faces = {
        "cream": jitter((238, 230, 205), 18, rng),
        "ivory": jitter((245, 242, 232), 10, rng),
        "wood": jitter(rng.choice([(215, 175, 120), (195, 150, 95), (225, 190, 140), (180, 130, 80)]), 20, rng),
        "black": jitter((30, 30, 32), 15, rng),
    }
    if training:
        # Coloured sets with light letters: red, maroon, navy, brown. (No green: a green tile with a cream letter looks,
        # cut small, like a cream tile on a green board.)
        faces["colour"] = jitter(rng.choice([(185, 30, 40), (120, 30, 35), (30, 40, 100), (80, 45, 30)]), 20, rng)
    face = faces[kind]
    if kind in ("black", "colour"):
        ink = jitter((240, 238, 230), 12, rng) if training else (240, 240, 240)
    else:
        ink = jitter(rng.choice([(15, 15, 15), (20, 60, 35), (40, 25, 15)]), 12, rng)
    if training and rng.random() < FADED:
        # Worn print: the letter keeps its shape but loses contrast against the face.
        t = rng.uniform(0.15, 0.7)
        ink = tuple(int(i + (f - i) * t) for i, f in zip(ink, face))
    return {
        "face": face,
        "ink": ink,
        "wood": kind == "wood",
        "colour": kind == "colour",
        "font": rng.choice(fonts),
        "size": rng.uniform(0.86, 0.97),
        # Training also draws smaller letters (some sets print them small, and a far camera makes them a few pixels).
        "letter": rng.uniform(0.4, 0.72) if training else rng.uniform(0.5, 0.72),
        "value": rng.random() < 0.92,
        "radius": rng.uniform(0.04, 0.18),
        "bevel": rng.uniform(0.0, 0.1),
    }


LAYOUT = read_data("layouts/standard.json")["rows"]  # 15 strings of premium codes, top row first
PREMIUM_TEXT = {"d": ["DOUBLE", "LETTER", "SCORE"], "t": ["TRIPLE", "LETTER", "SCORE"],
                "D": ["DOUBLE", "WORD", "SCORE"], "T": ["TRIPLE", "WORD", "SCORE"]}


def draw_square(d, x, y, s, code, bs, rng, fonts):
    colour = bs["square"] if code == "." else bs["premiums"][code]
    d.rectangle([x, y, x + s, y + s], fill=colour)
    if bs.get("worn") and rng.random() < 0.5:
        for _ in range(rng.randint(1, 4)):
            px, py, r = x + rng.uniform(0, s), y + rng.uniform(0, s), s * rng.uniform(0.08, 0.35)
            patch = jitter(tuple(min(255, c + rng.uniform(25, 70)) for c in colour), 10, rng)
            d.ellipse([px - r, py - r * rng.uniform(0.4, 1), px + r, py + r], fill=patch)
    if bs["raised"]:
        shade = tuple(max(0, c - 30) for c in colour)
        d.line([x + 2, y + s - 2, x + s - 2, y + s - 2], fill=shade, width=max(1, int(s * 0.04)))
    if code != "." and bs["text"]:
        f = font(fonts[0] if bs.get("font") is None else bs["font"], max(5, int(s * 0.16)))
        ink = (255, 255, 255) if sum(colour) < 330 else (40, 40, 40)
        for i, word in enumerate(PREMIUM_TEXT[code]):
            w = d.textlength(word, font=f)
            d.text((x + (s - w) / 2, y + s * (0.22 + 0.22 * i)), word, font=f, fill=ink)
    if code != "." and bs["dots"]:
        for k in range(3):
            for (px, py) in [(x + s * (0.3 + 0.2 * k), y - s * 0.08), (x + s * (0.3 + 0.2 * k), y + s * 1.05)]:
                d.ellipse([px - 1.2, py - 1.2, px + 1.2, py + 1.2], fill=colour)
    lw = max(1, int(round(bs["line_w"] * s)))
    d.rectangle([x, y, x + s, y + s], outline=bs["line"], width=lw)


def draw_star(d, cx, cy, r, rng):
    """The centre square's five-pointed star, dark or the premium's darker shade."""
    ink = jitter(rng.choice([(20, 20, 20), (60, 30, 30), (30, 30, 60)]), 15, rng)
    turn = rng.uniform(-0.2, 0.2)
    points = []
    for k in range(10):
        a = -math.pi / 2 + turn + k * math.pi / 5
        rr = r if k % 2 == 0 else r * 0.4
        points.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(points, fill=ink)


def wood_grain(canvas, rng):
    """Wood grain over a drawn board (RGBA), before the tiles go on."""
    a = np.array(canvas).astype(np.float32)
    h, w = a.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.5:
        xx, yy = yy, xx
    freq = rng.uniform(0.15, 0.5)
    grain = np.sin(yy * freq + 4 * np.sin(xx * rng.uniform(0.01, 0.04) + rng.uniform(0, 6)) + rng.uniform(0, 6))
    grain += 0.5 * np.sin(yy * freq * 2.7 + rng.uniform(0, 6))
    a[..., :3] += (grain * rng.uniform(5, 18))[..., None]
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8), "RGBA")


def tile_image(letter, s, ts, rng):
    """One tile, `s` pixels, RGBA, upright. `letter` None is a blank tile."""
    size = int(s * ts["size"])
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    r = int(size * ts["radius"])
    d.rounded_rectangle([0, 0, size - 1, size - 1], radius=r, fill=ts["face"] + (255,))
    if ts["wood"]:
        arr = np.array(img).astype(np.float32)
        yy = np.arange(size)[:, None]
        xx = np.arange(size)[None, :]
        freq = rng.uniform(0.2, 0.6)
        grain = np.sin((xx * rng.uniform(-0.3, 0.3) + yy) * freq + rng.uniform(0, 6) + 3 * np.sin(xx * 0.05)) * rng.uniform(4, 14)
        arr[..., :3] += grain[..., None]
        img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "RGBA")
        d = ImageDraw.Draw(img)
    if ts["bevel"] > 0:
        b = max(1, int(size * ts["bevel"]))
        light = tuple(min(255, c + 25) for c in ts["face"]) + (255,)
        dark = tuple(max(0, c - 35) for c in ts["face"]) + (255,)
        d.line([r, 1, size - r, 1], fill=light, width=b)
        d.line([1, r, 1, size - r], fill=light, width=b)
        d.line([r, size - 2, size - r, size - 2], fill=dark, width=b)
        d.line([size - 2, r, size - 2, size - r], fill=dark, width=b)
    if letter is not None:
        f = font(ts["font"], max(6, int(size * ts["letter"])))
        box = d.textbbox((0, 0), letter, font=f, anchor="ls")
        w, h = box[2] - box[0], box[3] - box[1]
        cx = size * rng.uniform(0.44, 0.5) - w / 2 - box[0]
        base = size * rng.uniform(0.5, 0.56) + h / 2
        d.text((cx, base), letter, font=f, fill=ts["ink"] + (255,), anchor="ls")
        if ts["value"]:
            vf = font(ts["font"], max(5, int(size * rng.uniform(0.2, 0.28))))
            v = str(VALUES[letter])
            vw = d.textlength(v, font=vf)
            d.text((size * rng.uniform(0.8, 0.9) - vw, size * rng.uniform(0.86, 0.94)), v, font=vf, fill=ts["ink"] + (255,), anchor="ls")
    return img


def paste_tile(canvas, tile, x, y, s, rng, shadow=True):
    off = s * 0.12
    dx = rng.uniform(-off, off)
    dy = rng.uniform(-off, off)
    angle = rng.uniform(-5, 5)
    t = tile.rotate(angle, resample=Image.BICUBIC, expand=True)
    px = int(x + (s - t.width) / 2 + dx)
    py = int(y + (s - t.height) / 2 + dy)
    if shadow:
        sh = Image.new("RGBA", t.size, (0, 0, 0, 0))
        sh.putalpha(t.getchannel("A").point(lambda a: int(a * 0.45)))
        sh = sh.filter(ImageFilter.GaussianBlur(max(1, s * 0.04)))
        canvas.alpha_composite(sh, (px + int(s * 0.05), py + int(s * 0.06)))
    canvas.alpha_composite(t, (px, py))


def skin(rng):
    return jitter(rng.choice([(225, 180, 150), (200, 150, 120), (160, 110, 80), (110, 75, 55), (240, 200, 175)]), 15, rng)


def draw_hand(canvas, cx, cy, s, rng, arm_to=None):
    """A rough finger-and-palm shape in skin tones, shaded, covering around (cx, cy); with `arm_to` (a point, off the
    picture), the arm it comes in on from there."""
    layer = Image.new("RGBA", canvas.size, (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    c = skin(rng)
    ang = rng.uniform(0, math.pi * 2)
    for k in range(rng.randint(1, 4)):
        a = ang + rng.uniform(-0.5, 0.5)
        w = s * rng.uniform(0.35, 0.6)
        length = s * rng.uniform(1.5, 4)
        ox = cx + math.cos(a + math.pi / 2) * (k - 1.5) * w * 0.9
        oy = cy + math.sin(a + math.pi / 2) * (k - 1.5) * w * 0.9
        ex, ey = ox + math.cos(a) * length, oy + math.sin(a) * length
        d.line([ox, oy, ex, ey], fill=c + (255,), width=int(w))
        d.ellipse([ox - w / 2, oy - w / 2, ox + w / 2, oy + w / 2], fill=c + (255,))
    d.ellipse([cx - s * 0.9, cy - s * 0.9, cx + s * 0.9, cy + s * 0.9], fill=c + (255,)) if rng.random() < 0.5 else None
    if arm_to is not None:
        d.line([cx, cy, arm_to[0], arm_to[1]], fill=c + (255,), width=int(s * 1.8))
    layer = layer.filter(ImageFilter.GaussianBlur(s * 0.05))
    arr = np.array(layer).astype(np.float32)
    grad = np.linspace(rng.uniform(0.7, 1.0), rng.uniform(1.0, 1.2), arr.shape[1])[None, :, None]
    arr[..., :3] = np.clip(arr[..., :3] * grad, 0, 255)
    canvas.alpha_composite(Image.fromarray(arr.astype(np.uint8), "RGBA"))


# ---------------------------------------------------------------- photometric damage

def photo_effects(img, rng, strength=1.0, blur_unit=None):
    """Lighting gradient, glare, shadow, colour cast, blur, noise, JPEG. `img` RGB PIL; returns RGB PIL.
    `blur_unit`: pixels of blur at full strength (default: scaled to the image, as for training crops)."""
    a = np.asarray(img).astype(np.float32)
    h, w = a.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.8:
        g = 1 + strength * rng.uniform(-0.35, 0.35) * ((xx / w - 0.5) * math.cos(rng.uniform(0, 6)) + (yy / h - 0.5) * math.sin(rng.uniform(0, 6)))
        a *= g[..., None]
    if rng.random() < 0.25 * strength:
        gx, gy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.1, 0.5) * max(w, h)
        a += (rng.uniform(60, 180) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r)))[..., None]
    if rng.random() < 0.25 * strength:
        gx, gy = rng.uniform(0, w), rng.uniform(0, h)
        ang = rng.uniform(0, math.pi)
        side = ((xx - gx) * math.cos(ang) + (yy - gy) * math.sin(ang)) > 0
        a[side] *= rng.uniform(0.5, 0.85)
    a *= np.array([rng.uniform(0.85, 1.15) for _ in range(3)], dtype=np.float32)
    a = a * rng.uniform(0.7, 1.25) + rng.uniform(-25, 25)
    a = np.clip(a, 0, 255)
    gamma = rng.uniform(0.75, 1.35)
    a = 255 * (a / 255) ** gamma
    out = Image.fromarray(a.astype(np.uint8))
    if rng.random() < 0.7:
        out = out.filter(ImageFilter.GaussianBlur(rng.uniform(0.2, 1.4) * strength * (blur_unit or max(w, h) / 160)))
    a = np.asarray(out).astype(np.float32)
    a += np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(0, 9) * strength, a.shape)
    out = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    if rng.random() < 0.8:
        buf = io.BytesIO()
        out.save(buf, "JPEG", quality=rng.randint(25, 92))
        out = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
    return out


# ---------------------------------------------------------------- training cells

def random_cell_content(rng):
    r = rng.random()
    if r < 0.16:
        return "."
    if r < 0.19:
        return "?"
    if r < 0.22:
        return "#"
    return rng.choice(LETTERS)


def render_cell(rng, fonts, out_size=32, margin=0.2, s=48):
    """One training sample: a 3×3 neighbourhood drawn at `s` px per cell, rotated by k quarter turns, misaligned,
    damaged, and cropped around the centre cell with `margin` on each side, as the inference crop is."""
    bs = board_style(rng, training=True)
    bs["font"] = rng.choice(fonts)
    ts = tile_style(rng, fonts, training=True)
    n = 3
    canvas = Image.new("RGBA", (n * s, n * s), bs["square"] + (255,))
    d = ImageDraw.Draw(canvas)
    gr, gc = rng.randint(0, 14), rng.randint(0, 14)
    for i in range(n):
        for j in range(n):
            code = LAYOUT[(gr + i) % 15][(gc + j) % 15]
            draw_square(d, j * s, i * s, s, code, bs, rng, fonts)
            if bs["star"] and (gr + i) % 15 == 7 and (gc + j) % 15 == 7:
                draw_star(d, j * s + s / 2, i * s + s / 2, s * rng.uniform(0.3, 0.45), rng)
    if bs["grain"]:
        canvas = wood_grain(canvas, rng)
        d = ImageDraw.Draw(canvas)
    label = random_cell_content(rng)
    if ts["colour"] and label == "?":
        # A coloured set's blank is a plain coloured square: one crop cannot tell it from a premium square of that
        # colour (the board-colour settling in vision/surface.ts decides blanks), so those sets draw none.
        label = rng.choice(LETTERS)
    contents = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i == n // 2 and j == n // 2:
                contents[i][j] = label
            elif rng.random() < 0.45:
                contents[i][j] = rng.choice(LETTERS) if rng.random() < 0.95 or ts["colour"] else "?"
    for i in range(n):
        for j in range(n):
            c = contents[i][j]
            if c is None or c == "." or c == "#":
                continue
            letter = None if c == "?" else c
            # Other tile sets in the same game are rare: neighbours share the style, with small variations.
            paste_tile(canvas, tile_image(letter, s, ts, rng), j * s, i * s, s, rng)
    cx = cy = n * s / 2
    if label == "#":
        draw_hand(canvas, cx + rng.uniform(-0.2, 0.2) * s, cy + rng.uniform(-0.2, 0.2) * s, s, rng)
    elif rng.random() < 0.08:
        # A hand near, but not over, this square.
        a = rng.uniform(0, 2 * math.pi)
        draw_hand(canvas, cx + math.cos(a) * s * 1.6, cy + math.sin(a) * s * 1.6, s * 0.8, rng)
    k = rng.randrange(4)
    img = canvas.convert("RGB").rotate(-90 * k)  # k quarter turns clockwise
    # Misaligned grid estimate: shift up to ±15% of a cell, scale ±10%, small rotation and shear.
    scale = rng.uniform(0.9, 1.1)
    ang = math.radians(rng.uniform(-4, 4))
    sh = rng.uniform(-0.06, 0.06)
    span = s * (1 + 2 * margin) * scale
    ox = cx + rng.uniform(-0.15, 0.15) * s
    oy = cy + rng.uniform(-0.15, 0.15) * s
    ca, sa = math.cos(ang), math.sin(ang)
    # Output pixel (u, v) in [0, 1]² maps to source centre + R·S·((u, v) − ½)·span.
    m = span / out_size
    coeffs = (ca * m, (-sa + sh) * m, ox - span / 2 * (ca + (-sa + sh)), sa * m, ca * m, oy - span / 2 * (sa + ca))
    crop = img.transform((out_size * 2, out_size * 2), Image.AFFINE, (coeffs[0] / 2, coeffs[1] / 2, coeffs[2], coeffs[3] / 2, coeffs[4] / 2, coeffs[5]), resample=Image.BILINEAR)
    crop = photo_effects(crop, rng)
    crop = crop.resize((out_size, out_size), Image.BOX)
    cls = label if label in ".?#" else f"{label}{k}"
    return np.asarray(crop, dtype=np.uint8), CLASSES.index(cls)


# ---------------------------------------------------------------- whole boards (fixtures)

def render_board(letters, rng, fonts, s=48, bs=None, ts=None):
    """A whole board from 15 strings of board text, with a border; returns RGB PIL and the grid box."""
    bs = bs or board_style(rng)
    bs.setdefault("font", rng.choice(fonts))
    ts = ts or tile_style(rng, fonts)
    border = int(s * rng.uniform(0.6, 1.4))
    size = 15 * s + 2 * border
    frame = jitter((200, 30, 30) if rng.random() < 0.5 else (240, 240, 235), 20, rng)
    canvas = Image.new("RGBA", (size, size), frame + (255,))
    d = ImageDraw.Draw(canvas)
    for r in range(15):
        for c in range(15):
            draw_square(d, border + c * s, border + r * s, s, LAYOUT[r][c], bs, rng, fonts)
    for r in range(15):
        for c in range(15):
            ch = letters[r][c]
            if ch == ".":
                continue
            letter = None if ch == "?" or ch.islower() else ch
            paste_tile(canvas, tile_image(letter, s, ts, rng), border + c * s, border + r * s, s, rng)
    return canvas.convert("RGB"), (border, border, border + 15 * s, border + 15 * s)
