"""A recorded game seen from a player's seat: one steady camera, a frame per position, rendered in 3D (seat.py).

    /usr/bin/python3 models/training/seat_game.py GAME.gcg --out fixtures/seat-game --seed 5 --angle 55 --style modern

writes move-NN.jpg (NN = 00 for the empty board, then one per play that stood) with move-NN.txt (the board text) and
sequence.txt (the frames in order, `move-00.jpg empty` first), as fixtures/labels/jheidel-en has them, so that
`npm run bench:live -- --set seat` plays the game through the service (server/bench/live-labels.ts), and racks.json
(each frame's rack in the camera's foreground, and whose it is). The camera stands at the place of the player given by
`--player` (0: the GCG's first), their rack in front of the board: the rack they hold while the other moves, and at
the start of their own turn (the rack their next move in the GCG was played from).

Only what the renderer needs is read from the GCG: plays, and a play challenged off (`--`) taken back. Blanks are
lowercase letters in the board text. The same seed gives the same scene in every frame (camera, board, table, light):
only the tiles change. For measuring only: never train on it.
"""
import argparse
import json
import os
import random
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import render  # noqa: E402
import seat  # noqa: E402

COLS = "ABCDEFGHIJKLMNO"
MOVE = re.compile(r"^>([^:]+):\s*(\S*)\s+(\S+)\s+(\S+)\s+([+-]\d+)\s+(-?\d+)\s*$")


def read_gcg(path):
    """The GCG's moves: (player nick, rack, board after it) for every play that stood, in order."""
    nicks = []
    board = [["."] * 15 for _ in range(15)]
    history = []  # (nick, rack, placed squares) of the plays, for a play taken back
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [line.rstrip("\n") for line in f]
    for line in lines:
        if line.startswith("#player"):
            nicks.append(line.split()[1])
            continue
        if re.match(r"^>[^:]+:\s*\S*\s+--\s", line):
            # The play before, challenged off: its tiles go back.
            if history:
                for r, c in history.pop()[2]:
                    board[r][c] = "."
            continue
        m = MOVE.match(line)
        if not m:
            continue
        nick, rack, pos, word, _score, _total = m.groups()
        if pos.startswith("-") or not re.match(r"^(\d+[A-O]|[A-O]\d+)$", pos):
            continue  # an exchange, a pass, a bonus
        if pos[0].isdigit():
            row, col, dr, dc = int(pos[:-1]) - 1, COLS.index(pos[-1]), 0, 1
        else:
            row, col, dr, dc = int(pos[1:]) - 1, COLS.index(pos[0]), 1, 0
        placed = []
        for k, ch in enumerate(word):
            r, c = row + k * dr, col + k * dc
            if ch == ".":
                continue
            if board[r][c] != ".":
                raise ValueError(f"{path}: {line}: {COLS[c]}{r + 1} is taken")
            board[r][c] = ch
            placed.append((r, c))
        history.append((nick, rack, placed, ["".join(row_) for row_ in board]))
    return nicks, [(nick, rack, rows) for nick, rack, _placed, rows in history]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("gcg")
    ap.add_argument("--out", default="fixtures/seat-game")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--angle", type=float, default=55, help="degrees from straight down to the board's centre")
    ap.add_argument("--style", default="modern", choices=seat.STYLES)
    ap.add_argument("--player", type=int, default=0, help="the player at whose place the camera stands (0, 1, …)")
    ap.add_argument("--size", default="1280x960")
    args = ap.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    nicks, plays = read_gcg(args.gcg)
    if not plays:
        sys.exit(f"{args.gcg}: no plays")
    me = nicks[args.player] if args.player < len(nicks) else None
    racks = [rack for nick, rack, _rows in plays if nick == me]
    os.makedirs(args.out, exist_ok=True)
    fonts = render.font_paths()
    empty = ["." * 15] * 15
    frames = [("move-00", empty, None)] + [(f"move-{i + 1:02d}", rows, nick) for i, (nick, _r, rows) in enumerate(plays)]
    sequence, rack_of = [], {}
    mine = 0  # the camera player's plays so far
    t_all = time.time()
    for name, rows, nick in frames:
        if nick == me:
            mine += 1
        # The rack in front of the camera: the one the camera player's next play comes from (the last, when they have
        # none left); its blanks drawn as blanks.
        rack = (racks[mine] if mine < len(racks) else (racks[-1] if racks else ""))
        scene = random.Random(args.seed)
        tiles = random.Random(args.seed * 7919 + len(sequence))
        img, _rows, meta = seat.render_scene(
            scene, fonts, angle=args.angle, style=args.style, size=(w, h),
            board=["".join("?" if ch.islower() else ch for ch in row) for row in rows],
            rack=True, hand=False, cups=False, rack_letters=rack, tile_rng=tiles)
        img.save(os.path.join(args.out, name + ".jpg"), quality=meta["jpeg_quality"])
        if name == "move-00":
            sequence.append(f"{name}.jpg empty")
        else:
            with open(os.path.join(args.out, name + ".txt"), "w", encoding="utf-8") as f:
                f.write("\n".join(rows) + "\n")
            sequence.append(f"{name}.jpg")
        rack_of[name] = {"player": args.player, "rack": meta["rack_letters"], "grid_corners": meta["grid_corners"]}
        print(f"{name}: {meta['tiles']} tiles, rack {meta['rack_letters']}", flush=True)
    with open(os.path.join(args.out, "sequence.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(sequence) + "\n")
    about = {
        "about": "A recorded game seen from a player's seat, rendered by models/training/seat_game.py: one steady "
                 "camera, a frame per position. For measuring only; never train on it.",
        "command": "/usr/bin/python3 models/training/seat_game.py " + " ".join(argv or sys.argv[1:]),
        "angle_deg": args.angle, "style": args.style, "camera_player": args.player,
        "plays": racks,  # the racks the camera player's plays came from, in order
        "frames": rack_of,
    }
    with open(os.path.join(args.out, "racks.json"), "w", encoding="utf-8") as f:
        json.dump(about, f, indent=1)
        f.write("\n")
    print(f"{len(frames)} frames in {time.time() - t_all:.0f} s")


if __name__ == "__main__":
    main()
