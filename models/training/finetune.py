"""Fine-tunes the committed cell classifier on seat views without forgetting what it reads well:

    /usr/bin/python3 models/training/finetune.py --out PATH [--model models/cells.onnx] [--samples 60000]
        [--seat 250] [--epochs 3] [--lr 3e-4] [--seed 21]

The float model is its own teacher. Each batch mixes render.py's flat cells, where the loss is the divergence from the
teacher's class shares (what it does on real photos from above stays), with seat views' cells cut as the vision cuts
them (seat_cells.py, through the tiles' faces), where the loss is the cross-entropy with their labels (what it has
never seen: tiles with height, printed premium words, arms from the near side). Training the network afresh with seat
cells read the seat views better and every real set worse (docs/measurements.md, "Training on seat views"); this keeps
the committed weights as the starting point and the anchor.

Writes OUT (the same graph, with its features output, new weights) and OUT's metadata (.json: the float model's, with
what was done, less the quick copy, which is made from the float model by `npm run quantize`). For measuring first
(`tilecam eval --model OUT`). Written to models/cells.seat.onnx, it becomes the float model's seat reader: the
float model's metadata names it (`seat`: its file, its SHA-256, WEIGHT and BELOW_ASPECT), and the vision reads the
squares a steep view squeezes by both models, their shares averaged (vision/classify.ts, SeatReader). Alone, it is
surer than the model of real tiles it misreads, so it never replaces the model (docs/measurements.md).
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import render  # noqa: E402
import train  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
POOL_AFTER = {0, 1, 3}
SEAT_OUT = os.path.join(ROOT, "models", "cells.seat.onnx")
# The seat reader's weight in the average with the model, and the squeeze (a square's height in the photo against its
# width, or the other way) under which it reads: measured on the rendered seat views and game and on real photos
# squeezed so (docs/measurements.md, "A seat reader").
WEIGHT = 0.65
BELOW_ASPECT = 0.65


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default=os.path.join(ROOT, "models", "cells.onnx"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--samples", type=int, default=60_000)
    ap.add_argument("--seat", type=int, default=250)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--seat-weight", type=float, default=1.0, help="the seat cells' loss against the flat cells'")
    ap.add_argument("--smoothing", type=float, default=0.05, help="label smoothing of the seat cells' targets")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    if args.samples < 2000 or args.seat < 1 or args.epochs < 1 or not 0 < args.lr < 1 or args.seat_weight <= 0 \
            or not 0 <= args.smoothing < 1:
        ap.error("--samples at least 2000, --seat and --epochs at least 1, --lr between 0 and 1, --seat-weight above 0, "
                 "--smoothing from 0 to under 1")
    args.out = os.path.abspath(args.out)
    if args.out == os.path.abspath(args.model):
        ap.error("--out must not be the model itself: measure first, then copy it over")

    import onnx
    import torch
    import torch.nn.functional as F
    from onnx import numpy_helper

    torch.set_num_threads(2)
    torch.manual_seed(args.seed)
    t0 = time.time()
    model = onnx.load(args.model)
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    gemms = [n for n in graph.node if n.op_type == "Gemm"]
    if len(convs) != 5 or len(gemms) != 1:
        sys.exit(f"{args.model}: not the five-convolution network this script knows")
    names = [n.input[k] for n in convs for k in (1, 2)] + [gemms[0].input[k] for k in (1, 2)]
    teacher = [torch.from_numpy(numpy_helper.to_array(inits[name]).copy()) for name in names]
    student = [torch.nn.Parameter(t.clone()) for t in teacher]

    def forward(x, p):
        for i in range(5):
            x = F.relu(F.conv2d(x, p[2 * i], p[2 * i + 1], padding=1))
            if i in POOL_AFTER:
                x = F.max_pool2d(x, 2, 2)
        return x.mean((2, 3)) @ p[10].T + p[11]

    x, y, seat_n = train.make_data(args.samples, args.seed, args.workers, args.seat)
    render_s = time.time() - t0
    cells = torch.from_numpy(x).permute(0, 3, 1, 2).contiguous()
    labels = torch.from_numpy(y)
    seat = torch.from_numpy(np.r_[np.zeros(len(y) - seat_n, bool), np.ones(seat_n, bool)])
    # One in twenty of each kind held out.
    order = torch.from_numpy(np.random.default_rng(args.seed).permutation(len(y)))
    cells, labels, seat = cells[order], labels[order], seat[order]
    n_val = max(1000, len(y) // 20)
    val = slice(0, n_val)
    tr = slice(n_val, len(y))

    def accuracy(p, pick):
        with torch.no_grad():
            xs, ys = cells[val][pick], labels[val][pick]
            pred = torch.cat([forward(xs[i : i + 1024].float() / 255, p).argmax(1) for i in range(0, len(ys), 1024)])
        return float((pred == ys).float().mean()) if len(ys) else float("nan")

    before = {"flat": accuracy(teacher, ~seat[val]), "seat": accuracy(teacher, seat[val])}
    opt = torch.optim.AdamW(student, lr=args.lr, weight_decay=0)
    batch = 256
    xs_t, ys_t, seat_t = cells[tr], labels[tr], seat[tr]
    steps = args.epochs * (len(ys_t) // batch)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    done = 0
    start = time.time()
    for epoch in range(args.epochs):
        perm = torch.randperm(len(ys_t))
        for i in range(0, len(perm) - batch + 1, batch):
            idx = perm[i : i + batch]
            xb, yb, sb = xs_t[idx].float() / 255, ys_t[idx], seat_t[idx]
            out = F.log_softmax(forward(xb, student), 1)
            loss = out.new_zeros(())
            if (~sb).any():
                with torch.no_grad():
                    target = F.log_softmax(forward(xb[~sb], teacher), 1)
                loss = loss + F.kl_div(out[~sb], target, log_target=True, reduction="sum") / len(sb)
            if sb.any():
                # Smoothed as train.py's labels are: hard targets make the model surer than it is right.
                hard = F.nll_loss(out[sb], yb[sb], reduction="sum")
                soft = -out[sb].mean(1).sum()
                loss = loss + args.seat_weight * ((1 - args.smoothing) * hard + args.smoothing * soft) / len(sb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            done += 1
            if done % 20 == 0 or done == steps:
                train.progress(f"epoch {epoch + 1}", done, steps, start)
        sys.stderr.write(f"\n  epoch {epoch + 1}: flat {accuracy(student, ~seat[val]):.2%}, seat {accuracy(student, seat[val]):.2%}\n")
    train_s = time.time() - start
    after = {"flat": accuracy(student, ~seat[val]), "seat": accuracy(student, seat[val])}
    sys.stderr.write(f"synthetic validation, before → after: flat {before['flat']:.2%} → {after['flat']:.2%}, "
                     f"seat {before['seat']:.2%} → {after['seat']:.2%}\n")

    for name, p in zip(names, student):
        inits[name].CopyFrom(numpy_helper.from_array(p.detach().numpy().astype(np.float32), name))
    onnx.checker.check_model(model)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    onnx.save(model, args.out)
    meta = json.load(open(os.path.splitext(args.model)[0] + ".json", encoding="utf-8"))
    meta["file"] = os.path.basename(args.out)
    meta.pop("quick", None)
    meta.pop("seat", None)
    meta.pop("measuredOnRealPhotos", None)
    with open(args.model, "rb") as f:
        source_sha = hashlib.sha256(f.read()).hexdigest()
    meta["fineTuning"] = {
        "from": os.path.basename(args.model), "fromSha256": source_sha,
        "command": "/usr/bin/python3 models/training/finetune.py",
        "how": "flat cells held to the float model's own class shares, seat views' cells taught their labels",
        "samples": args.samples, "seatViews": args.seat, "seatCells": seat_n, "epochs": args.epochs, "lr": args.lr,
        "seatWeight": args.seat_weight, "smoothing": args.smoothing, "seed": args.seed,
        "renderSeconds": round(render_s), "trainSeconds": round(train_s),
        "syntheticValidation": {"before": before, "after": after, "samples": n_val},
        "sameClasses": render.CLASSES == meta.get("classes"),
    }
    with open(os.path.splitext(args.out)[0] + ".json", "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2, ensure_ascii=False)
        f.write("\n")
    if args.out == SEAT_OUT:
        source = os.path.splitext(os.path.abspath(args.model))[0] + ".json"
        float_meta = json.load(open(source, encoding="utf-8"))
        with open(args.out, "rb") as f:
            seat_sha = hashlib.sha256(f.read()).hexdigest()
        float_meta["seat"] = {"file": os.path.basename(args.out), "sha256": seat_sha, "weight": WEIGHT,
                              "belowAspect": BELOW_ASPECT}
        with open(source, "w", encoding="utf-8") as f:
            json.dump(float_meta, f, indent=2, ensure_ascii=False)
            f.write("\n")
        # In the repository's own JSON layout (short arrays on one line), as quantize.sh leaves what it writes.
        subprocess.run(["npx", "--no-install", "biome", "format", "--write", source, os.path.splitext(args.out)[0] + ".json"],
                       cwd=ROOT, check=False)
        sys.stderr.write(f"{source} names it as its seat reader\n")
    sys.stderr.write(f"wrote {args.out} in {time.time() - t0:,.0f}s (render {render_s:,.0f}s, fine-tune {train_s:,.0f}s)\n")


if __name__ == "__main__":
    main()
