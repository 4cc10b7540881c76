"""Trains tilecam's cell classifier on synthetic cells only and exports it to ONNX with its metadata.

    /usr/bin/python3 models/training/train.py [--samples 200000] [--seat 0] [--epochs 14] [--seed 7]

Cells come from render.py's flat neighbourhoods (`--samples`) and, with `--seat V`, from V seat views (seat.py) cut
as the vision cuts a photo through the tiles' faces (seat_cells.py). Runs on 2 CPU threads in under 30 minutes (19 to
25 measured) without seat views, about 90 with 700 of them: rendering (2 processes), then training, then export.
`--device cuda` trains on a GPU instead (the committed model is the CPU run's).
"""
import argparse
import inspect
import json
import multiprocessing as mp
import os
import random
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import render  # noqa: E402
import seat_cells  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SIZE = 32
MARGIN = 0.2


def progress(label, done, total, start):
    rate = done / max(1e-9, time.time() - start)
    eta = (total - done) / max(rate, 1e-9)
    bar = "#" * int(30 * done / total)
    sys.stderr.write(f"\r{label:>10} [{bar:<30}] {done}/{total}  {rate:,.0f}/s  eta {eta:,.0f}s ")
    sys.stderr.flush()
    if done >= total:
        sys.stderr.write("\n")


def render_chunk(args):
    seed, count = args
    rng = random.Random(seed)
    fonts = render.font_paths(training=True)
    xs = np.empty((count, SIZE, SIZE, 3), np.uint8)
    ys = np.empty(count, np.int64)
    for i in range(count):
        xs[i], ys[i] = render.render_cell(rng, fonts, SIZE, MARGIN)
    return xs, ys


def render_scenes(args):
    seed, count = args
    fonts = render.font_paths(training=True)
    out = [seat_cells.scene_cells(random.Random(seed + i), fonts, SIZE, MARGIN) for i in range(count)]
    return np.concatenate([x for x, _ in out]), np.concatenate([y for _, y in out])


def make_data(samples, seed, workers, scenes=0):
    """Flat cells, then seat-view cells: (crops, classes, how many of them are seat cells)."""
    chunk = 500
    jobs = [(seed * 1_000_003 + i, min(chunk, samples - i * chunk)) for i in range((samples + chunk - 1) // chunk)]
    xs, ys = [], []
    start = time.time()
    with mp.Pool(workers) as pool:
        for x, y in pool.imap(render_chunk, jobs):
            xs.append(x)
            ys.append(y)
            progress("render", sum(len(v) for v in ys), samples, start)
        per = 5
        seat_jobs = [(seed * 7_000_003 + 1_000_000 + i * per, min(per, scenes - i * per)) for i in range((scenes + per - 1) // per)]
        start, done, seat_n = time.time(), 0, 0
        for x, y in pool.imap(render_scenes, seat_jobs):
            xs.append(x)
            ys.append(y)
            seat_n += len(y)
            done += per
            progress("seat views", min(done, scenes), scenes, start)
    return np.concatenate(xs), np.concatenate(ys), seat_n


def build_model(torch, classes):
    nn = torch.nn

    def block(i, o):
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    return nn.Sequential(
        *block(3, 16), nn.MaxPool2d(2),  # 16×16
        *block(16, 32), nn.MaxPool2d(2),  # 8×8
        *block(32, 64), *block(64, 64), nn.MaxPool2d(2),  # 4×4
        *block(64, 128),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(128, classes),
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=200_000)
    ap.add_argument("--seat", type=int, default=0,
                    help="seat views to cut training cells from (0, the committed model: none; see models/README.md)")
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--device", default="cpu", help="cpu (the reproducible default) or cuda where there is a GPU")
    ap.add_argument("--out", default=os.path.join(ROOT, "models", "cells.onnx"))
    args = ap.parse_args()
    if args.samples < 2000 or args.seat < 0 or args.epochs < 1 or args.workers < 1 or args.device not in ("cpu", "cuda"):
        ap.error("--samples must be at least 2000, --seat at least 0, --epochs and --workers at least 1, --device cpu or cuda")

    import torch

    torch.set_num_threads(2)
    torch.manual_seed(args.seed)
    t0 = time.time()
    x, y, seat_n = make_data(args.samples, args.seed, args.workers, args.seat)
    render_s = time.time() - t0
    # One in twenty of each kind is held out, so that the seat cells' accuracy is reported on its own. Without seat
    # cells the order is render order, as the committed model was made.
    kinds = np.r_[np.zeros(len(y) - seat_n, bool), np.ones(seat_n, bool)]
    if seat_n > 0:
        order = np.random.default_rng(args.seed).permutation(len(y))
        x, y, kinds = x[order], y[order], kinds[order]
    n_val = max(1000, len(y) // 20)
    xt = torch.from_numpy(x).permute(0, 3, 1, 2).contiguous()  # uint8 N×3×32×32
    yt = torch.from_numpy(y)
    train_x, train_y, val_x, val_y = xt[n_val:], yt[n_val:], xt[:n_val], yt[:n_val]
    val_seat = torch.from_numpy(kinds[:n_val])
    classes = len(render.CLASSES)
    model = build_model(torch, classes)
    start = time.time()
    acc, content = fit(torch, model, train_x, train_y, val_x, val_y, args.epochs, args.device)
    train_s = time.time() - start
    by_kind = {}
    for name, pick in (("flat", ~val_seat), ("seat", val_seat)):
        if int(pick.sum()) > 0:
            a, c = evaluate(torch, model, val_x[pick], val_y[pick])
            by_kind[name] = {"accuracy": round(a, 4), "accuracyIgnoringOrientation": round(c, 4), "samples": int(pick.sum())}
    export(torch, model, args.out)
    meta = {
        "file": os.path.basename(args.out),
        "classes": render.CLASSES,
        "classesNote": "'.' empty, '?' blank tile, '#' occluded (a hand); otherwise a letter and k, the tile's quarter turns clockwise in the crop",
        "input": {"name": "cells", "shape": ["N", 3, SIZE, SIZE], "layout": "NCHW", "channels": "RGB", "normalisation": "value / 255", "cropMargin": MARGIN,
                  "crop": "the cell's square grown by cropMargin of a cell on every side, area-averaged to 32×32"},
        "output": {"name": "logits", "shape": ["N", classes]},
        "training": {
            "data": "synthetic only: models/training/render.py's flat cells and seat.py's seat views cut by seat_cells.py (never a real photo)",
            "samples": args.samples, "seatViews": args.seat, "seatCells": seat_n, "epochs": args.epochs, "seed": args.seed,
            "fonts": [os.path.basename(p) for p in render.font_paths(training=True)],
            "renderSeconds": round(render_s), "trainSeconds": round(train_s), "threads": 2,
            "command": "npm run train",
        },
        "syntheticValidation": {"accuracy": round(acc, 4), "accuracyIgnoringOrientation": round(content, 4), "samples": n_val, **by_kind},
    }
    with open(os.path.splitext(args.out)[0] + ".json", "w") as f:
        json.dump(meta, f, indent=2, ensure_ascii=False)
        f.write("\n")
    sys.stderr.write(f"wrote {args.out} in {time.time() - t0:,.0f}s (render {render_s:,.0f}s, train {train_s:,.0f}s)\n")


def fit(torch, model, train_x, train_y, val_x, val_y, epochs, device="cpu"):
    """AdamW with a one-cycle schedule, batches of 256, label smoothing; returns the last epoch's validation
    accuracy (exact, and ignoring the tile's orientation). The model ends on the CPU."""
    model.to(device)
    train_x, train_y = train_x.to(device), train_y.to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    batch = 256
    steps = epochs * ((len(train_y) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    lossf = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    start = time.time()
    done = 0
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(len(train_y), device=device)
        for i in range(0, len(perm), batch):
            idx = perm[i : i + batch]
            xb = train_x[idx].float() / 255.0
            loss = lossf(model(xb), train_y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            done += 1
            if done % 20 == 0 or done == steps:
                progress(f"epoch {epoch + 1}", done, steps, start)
        model.cpu()
        acc, content = evaluate(torch, model, val_x, val_y)
        model.to(device)
        sys.stderr.write(f"\n  epoch {epoch + 1}: loss {loss.item():.3f}, synthetic validation {acc:.2%} ({content:.2%} ignoring orientation)\n")
    model.cpu()
    return acc, content


def evaluate(torch, model, xs, ys):
    model.eval()
    with torch.no_grad():
        pred = torch.cat([model(xs[i : i + 1024].float() / 255.0).argmax(1) for i in range(0, len(ys), 1024)])
    names = render.CLASSES
    content = sum(names[p][0] == names[t][0] for p, t in zip(pred.tolist(), ys.tolist())) / len(ys)
    return (pred == ys).float().mean().item(), content


def export(torch, model, path):
    model.eval()
    dummy = torch.zeros(1, 3, SIZE, SIZE)
    # Newer torch exports through dynamo by default (opset 18, weights in a second file): ask for the one-file
    # TorchScript export that Debian's torch makes, where the parameter exists.
    legacy = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
    torch.onnx.export(model, dummy, path, input_names=["cells"], output_names=["logits"],
                      dynamic_axes={"cells": {0: "N"}, "logits": {0: "N"}}, opset_version=13, **legacy)


if __name__ == "__main__":
    main()
