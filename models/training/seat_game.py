"""A recorded game seen from a player's seat: one steady camera, a frame per position, rendered in 3D (seat.py).

    /usr/bin/python3 models/training/seat_game.py GAME.gcg --out fixtures/seat-game --seed 5 --angle 55 --style modern

writes move-NN.jpg (NN = 00 for the empty board, then one per play that stood) with move-NN.txt (the board text) and
sequence.txt (the frames in order, `move-00.jpg empty` first, as fixtures/labels/jheidel-en has them; a turn that
leaves the board as it was, an exchange, a pass or a play challenged off, is the last frame again marked `pass`), so that
`npm run bench:live -- --set seat` plays the game through the service (server/bench/live-labels.ts), and racks.json
(each frame's rack in the camera's foreground, and whose it is). The camera stands at the place of the player given by
`--player` (0: the GCG's first), their rack in front of the board: the rack they hold while the other moves, and at
the start of their own turn (the rack their next play in the GCG was made from).

Only what the renderer needs is read from the GCG: plays, a play challenged off (`--`) taken back (its turn lost), and
the turns that lay no tile (exchanges and passes), so that the players' turns alternate as they did. Blanks are
lowercase letters in the board text. The same seed gives the same scene in every frame (camera, board, table, light):
only the tiles change. For measuring only: never train on it.
"""
import argparse
import json
import math
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
# An exchange (`-TILES`) or a pass (`-`): no tile laid, the turn taken.
NO_TILE = re.compile(r"^>([^:]+):\s*(\S*)\s+-\S*\s+[+-]\d+\s+-?\d+\s*$")


def read_gcg(path):
    """The GCG's players' nicks and turns in order: (nick, rack, board after it) for a play that stood, (nick, rack,
    None) for a turn that left the board as it was (an exchange, a pass, a play challenged off)."""
    nicks = []
    board = [["."] * 15 for _ in range(15)]
    history = []  # (nick, rack, placed squares, board after) of the plays that stand, for a play taken back
    turns = []  # [nick, rack, placed squares or None, board after] per turn; a play challenged off becomes None
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [line.rstrip("\n") for line in f]
    for line in lines:
        if line.startswith("#player"):
            nicks.append(line.split()[1])
            continue
        if re.match(r"^>[^:]+:\s*\S*\s+--\s", line):
            # The play before, challenged off: its tiles go back.
            if history:
                # The play taken back is the turn just before, the challenged player's.
                nick = re.match(r"^>([^:]+):", line).group(1)
                if not turns or turns[-1][2] is not history[-1][2] or turns[-1][0] != nick:
                    raise ValueError(f"{path}: {line}: no play of {nick}'s just before to take back")
                taken = history.pop()
                for r, c in taken[2]:
                    board[r][c] = "."
                turns[-1][2], turns[-1][3] = None, None
            continue
        m = NO_TILE.match(line)
        if m:
            turns.append([m.group(1), m.group(2), None, None])
            continue
        m = MOVE.match(line)
        if not m:
            continue
        nick, rack, pos, word, _score, _total = m.groups()
        if not re.match(r"^(\d+[A-O]|[A-O]\d+)$", pos):
            continue  # a bonus, a penalty: no turn
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
        rows = ["".join(row_) for row_ in board]
        history.append((nick, rack, placed, rows))
        turns.append([nick, rack, placed, rows])
    # Turns after the last play lay no tile and may follow the game's end (a challenge lost after a player went out):
    # the board is the last play's, and the service has ended the game.
    while turns and turns[-1][3] is None:
        turns.pop()
    return nicks, [(nick, rack, rows) for nick, rack, _placed, rows in turns]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("gcg")
    ap.add_argument("--out", default="fixtures/seat-game")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--angle", type=float, default=55, help="degrees from straight down to the board's centre")
    ap.add_argument("--style", default="modern", choices=seat.STYLES)
    ap.add_argument("--player", type=int, default=0, help="the player at whose place the camera stands (0, 1, …)")
    ap.add_argument("--size", default="1280x960")
    ap.add_argument("--nudge", action="append", default=[], metavar="N:SX,SY,SZ,TX,TY,ROLL",
                    help="from frame move-N on, the camera is knocked: its centre moved SX, SY, SZ squares (across, "
                         "along the table, up), its aim TX, TY squares across the board, its roll ROLL degrees; "
                         "repeatable, the knocks add up")
    args = ap.parse_args(argv)
    nudges = []
    for spec in args.nudge:
        m = re.match(r"^(\d+):([^,]+),([^,]+),([^,]+),([^,]+),([^,]+),([^,]+)$", spec)
        if not m:
            ap.error(f"--nudge {spec}: want N:SX,SY,SZ,TX,TY,ROLL (numbers)")
        try:
            values = [float(v) for v in m.groups()[1:]]
        except ValueError:
            ap.error(f"--nudge {spec}: want N:SX,SY,SZ,TX,TY,ROLL (numbers)")
        if not all(math.isfinite(v) and abs(v) <= 10 for v in values):
            ap.error(f"--nudge {spec}: each knock at most 10 squares or degrees")
        nudges.append((int(m.group(1)), values))
    for k in range(6):
        if abs(sum(v[k] for _n, v in nudges)) > 10:
            ap.error("--nudge: the knocks add up to more than 10 squares or degrees")
    w, h = (int(v) for v in args.size.lower().split("x"))
    nicks, turns = read_gcg(args.gcg)
    plays = [(nick, rack, rows) for nick, rack, rows in turns if rows is not None]
    if not plays:
        sys.exit(f"{args.gcg}: no plays")
    me = nicks[args.player] if args.player < len(nicks) else None
    racks = [rack for nick, rack, _rows in plays if nick == me]
    os.makedirs(args.out, exist_ok=True)
    fonts = render.font_paths()
    empty = ["." * 15] * 15
    frames = [("move-00", empty, None)] + [(f"move-{i + 1:02d}", rows, nick) for i, (nick, _r, rows) in enumerate(plays)]
    late = [n for n, _v in nudges if n >= len(frames)]
    if late:
        ap.error(f"--nudge {late[0]}: the game has frames move-00 to move-{len(frames) - 1:02d}")
    # The turns that lay no tile after each frame (the camera sees that frame's board again on them).
    passes_after = [0] * len(frames)
    played = 0
    for _nick, _rack, rows in turns:
        if rows is None:
            passes_after[played] += 1
        else:
            played += 1
    sequence, rack_of = [], {}
    mine = 0  # the camera player's plays so far
    t_all = time.time()
    for f_index, (name, rows, nick) in enumerate(frames):
        if nick == me:
            mine += 1
        # The rack in front of the camera: the one the camera player's next play comes from (the last, when they have
        # none left; an exchange of theirs before it is not drawn); its blanks drawn as blanks.
        rack = (racks[mine] if mine < len(racks) else (racks[-1] if racks else ""))
        scene = random.Random(args.seed)
        tiles = random.Random(args.seed * 7919 + f_index)
        knock = [sum(v[k] for n, v in nudges if n <= f_index) for k in range(6)]
        nudge = {"shift": knock[0:3], "turn": knock[3:5], "roll": knock[5]} if any(knock) else None
        try:
            img, _rows, meta = seat.render_scene(
                scene, fonts, angle=args.angle, style=args.style, size=(w, h),
                board=["".join("?" if ch.islower() else ch for ch in row) for row in rows],
                rack=True, hand=False, cups=False, rack_letters=rack, tile_rng=tiles, nudge=nudge)
        except ValueError as err:
            sys.exit(f"{name}: {err}")
        img.save(os.path.join(args.out, name + ".jpg"), quality=meta["jpeg_quality"])
        if name == "move-00":
            sequence.append(f"{name}.jpg empty")
        else:
            with open(os.path.join(args.out, name + ".txt"), "w", encoding="utf-8") as f:
                f.write("\n".join(rows) + "\n")
            sequence.append(f"{name}.jpg")
        sequence.extend([f"{name}.jpg pass"] * passes_after[f_index])
        rack_of[name] = {"player": args.player, "rack": meta["rack_letters"], "grid_corners": meta["grid_corners"]}
        print(f"{name}: {meta['tiles']} tiles, rack {meta['rack_letters']}" + (f", camera knocked {nudge}" if nudge else ""),
              flush=True)
    with open(os.path.join(args.out, "sequence.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(sequence) + "\n")
    about = {
        "about": "A recorded game seen from a player's seat, rendered by models/training/seat_game.py: one steady "
                 "camera (knocked from a frame on where the command says --nudge), a frame per position. For "
                 "measuring only; never train on it.",
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
