"""The quick copy of the cell classifier: int8, made from the float model, which reads a photo's cells first (the
float model reads again the cells the copy is not sure of: vision/classify.ts):

    npm run quantize [-- --samples 100000 --seat 0 --epochs 2 --lr 1e-4 --seed 11 --model models/cells.onnx --out PATH]

1. Quantisation-aware fine-tuning: the float model's weights learn, on synthetic cells only (render.py's flat cells
   and, with `--seat`, seat views' cells, as train.py cuts them), to give the float model's own outputs once the weights of
   every convolution but the first are int8 (per output channel) and the activations after each of those ReLUs
   uint8 (per tensor, scaled to the 99.999th percentile of 3,000 calibration cells). The float model is the teacher:
   the loss is the divergence from its class shares.
2. Export with QuantizeLinear/DequantizeLinear pairs (QDQ: weights int8, biases int32, activations uint8), which
   onnxruntime fuses into QLinearConv. The first convolution, its pool and the features output stay float.

Writes OUT (default: beside the model, NAME.int8.onnx) and OUT's metadata (.json: the float model's, with what was done
and the float model's SHA-256). Written to the default OUT, the copy is also named in the float model's metadata
(`quick`: the file, its SHA-256, the share it is trusted at), which makes it the copy the service reads with; written
anywhere else it is only for measuring. Prints the JSON files it wrote, one a line (quantize.sh formats them). About 7
minutes on 2 CPU threads (rendering 5, fine-tuning 2). Measured in docs/measurements.md, sessions 14 and 22.
"""
import argparse
import hashlib
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import train  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# The v5 network: five 3×3 convolutions, each followed by a ReLU; a 2×2 max pool after these ones.
POOL_AFTER = {0, 1, 3}
PERCENTILE = 0.99999
# The first convolution stays float: with three input channels its int8 kernel is three times slower than the float
# one in onnxruntime (7.4 against 2.6 ms for 225 cells, one thread), while the four after it are two to four times faster.
FLOAT_CONVS = {0}
# The service reads a cell by the int8 copy where the copy's likeliest class has at least this share, and by the float
# model otherwise (classify.ts). Measured by a throwaway hook running both models in onnxruntime on the 51,085 cells of
# a cold eval of scrabscrap-de and kwwangkw-en/warped: no cell at 0.6 or more read another class (docs/measurements.md,
# session 22); the fine-tuning reports the same count on new synthetic cells, in the simulated quantisation.
TRUST_ABOVE = 0.8


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default=os.path.join(ROOT, "models", "cells.onnx"))
    ap.add_argument("--out", help="default: beside the model, NAME.int8.onnx")
    ap.add_argument("--samples", type=int, default=100_000)
    ap.add_argument("--seat", type=int, default=0, help="seat views to cut cells from too (seat_cells.py)")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    default_out = os.path.splitext(os.path.abspath(args.model))[0] + ".int8.onnx"
    args.out = os.path.abspath(args.out or default_out)
    if args.samples < 4000 or args.seat < 0 or args.epochs < 1 or not 0 < args.lr < 1:
        ap.error("--samples must be at least 4000, --seat at least 0, --epochs at least 1, --lr between 0 and 1")

    import onnx
    import torch
    import torch.nn.functional as F
    from onnx import numpy_helper

    torch.set_num_threads(2)
    torch.manual_seed(args.seed)
    t0 = time.time()
    model = onnx.load(args.model)
    graph = model.graph
    inits = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    gemms = [n for n in graph.node if n.op_type == "Gemm"]
    if len(convs) != 5 or len(gemms) != 1:
        sys.exit(f"{args.model}: not the five-convolution network this script knows")
    gemm = gemms[0]
    teacher = [torch.from_numpy(inits[n.input[k]].copy()) for n in convs for k in (1, 2)]
    teacher += [torch.from_numpy(inits[gemm.input[k]].copy()) for k in (1, 2)]
    student = [torch.nn.Parameter(t.clone()) for t in teacher]

    def fake_weights(w):
        scale = w.detach().abs().flatten(1).max(1).values.clamp_min(1e-12).view(-1, 1, 1, 1) / 127
        return w + ((w / scale).round().clamp(-127, 127) * scale - w).detach()

    def fake_acts(a, scale):
        return a + ((a / scale).round().clamp(0, 255) * scale - a).detach()

    def forward(x, p, scales=None, collect=None):
        for i in range(5):
            w, b = p[2 * i], p[2 * i + 1]
            x = F.relu(F.conv2d(x, fake_weights(w) if scales and i not in FLOAT_CONVS else w, b, padding=1))
            if collect is not None:
                collect.setdefault(i, []).append(x.detach().flatten())
            if scales:
                x = fake_acts(x, scales[i])
            if i in POOL_AFTER:
                x = F.max_pool2d(x, 2, 2)
        x = x.mean((2, 3))
        if collect is not None:
            collect.setdefault(5, []).append(x.detach().flatten())
        if scales:
            x = fake_acts(x, scales[5])
        return x @ p[10].T + p[11]

    x, _, _ = train.make_data(args.samples, args.seed, args.workers, args.seat)
    cells = torch.from_numpy(x).permute(0, 3, 1, 2).contiguous()
    render_s = time.time() - t0

    # The activations' scales: their 99.999th percentile over 3,000 cells (of both kinds, with seat views), as the
    # float model makes them.
    with torch.no_grad():
        seen = {}
        pick = torch.randperm(len(cells))[:3000] if args.seat else torch.arange(min(3000, len(cells)))
        forward(cells[pick].float() / 255, teacher, collect=seen)
        scales = {}
        for k, v in seen.items():
            v = torch.cat(v)
            v = v[torch.randperm(len(v))[:1_000_000]]
            scales[k] = max(float(torch.quantile(v, PERCENTILE)), 1e-6) / 255

    opt = torch.optim.AdamW(student, lr=args.lr, weight_decay=0)
    batch = 256
    steps = args.epochs * (len(cells) // batch)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    done = 0
    start = time.time()
    for _ in range(args.epochs):
        perm = torch.randperm(len(cells))
        for i in range(0, len(perm) - batch + 1, batch):
            xb = cells[perm[i : i + batch]].float() / 255
            with torch.no_grad():
                target = F.log_softmax(forward(xb, teacher), 1)
            loss = F.kl_div(F.log_softmax(forward(xb, student, scales), 1), target, log_target=True,
                            reduction="batchmean")
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            done += 1
            if done % 20 == 0 or done == steps:
                train.progress("fine-tune", done, steps, start)
    train_s = time.time() - start

    # How often the int8 student's likeliest class is the float model's, on cells it never saw.
    xv, _, _ = train.make_data(5000, args.seed + 1, args.workers, args.seat // 10)
    xv = torch.from_numpy(xv).permute(0, 3, 1, 2).float() / 255
    with torch.no_grad():
        ref = forward(xv, teacher).argmax(1)
        shares = F.softmax(forward(xv, student, scales), 1)
        agree = float((shares.argmax(1) == ref).float().mean())
        plain = float((forward(xv, teacher, scales).argmax(1) == ref).float().mean())
        trusted = shares.max(1).values >= TRUST_ABOVE
        trusted_share = float(trusted.float().mean())
        trusted_other = int(((shares.argmax(1) != ref) & trusted).sum())
    sys.stderr.write(f"same class as the float model on 5,000 new flat cells and seat cells: {agree:.4f} (int8 without fine-tuning "
                     f"{plain:.4f}); trusted (share ≥ {TRUST_ABOVE}) {trusted_share:.4f}, of them another class: "
                     f"{trusted_other}\n")

    export(onnx, numpy_helper, model, convs, gemm, [p.detach().numpy() for p in student], scales, args.out)
    meta = json.load(open(os.path.splitext(args.model)[0] + ".json", encoding="utf-8"))
    meta["file"] = os.path.basename(args.out)
    meta.pop("quick", None)
    # The seat reader was fine-tuned from the float model, not from the copy: the copy names none.
    meta.pop("seat", None)
    # The float model's figures on the real photos are not the copy's (it reads only where no features are kept, the
    # model itself where it is unsure): docs/measurements.md, session 22, measures the two together.
    meta.pop("measuredOnRealPhotos", None)
    with open(args.model, "rb") as f:
        source_sha = hashlib.sha256(f.read()).hexdigest()
    meta["quantisation"] = {
        "from": os.path.basename(args.model), "fromSha256": source_sha, "command": "npm run quantize",
        "how": "quantisation-aware fine-tuning on synthetic cells (the float model as teacher), exported as QDQ",
        "weights": "int8, symmetric, per output channel; the first convolution's float", "activations": f"uint8 per tensor, {PERCENTILE} percentile",
        "samples": args.samples, "seatViews": args.seat, "epochs": args.epochs, "lr": args.lr, "seed": args.seed,
        "renderSeconds": round(render_s), "trainSeconds": round(train_s),
        "sameClassAsFloat": round(agree, 4), "sameClassWithoutFineTuning": round(plain, 4),
        "trustedShare": round(trusted_share, 4), "trustedOtherClass": trusted_other,
    }
    written = [os.path.splitext(args.out)[0] + ".json"]
    write_json(written[0], meta)
    # Written to the default place, the copy becomes the float model's quick reader (classify.ts); elsewhere it is
    # only for measuring (`tilecam eval --model OUT`).
    if args.out == default_out:
        source = os.path.splitext(os.path.abspath(args.model))[0] + ".json"
        float_meta = json.load(open(source, encoding="utf-8"))
        with open(args.out, "rb") as f:
            copy_sha = hashlib.sha256(f.read()).hexdigest()
        float_meta["quick"] = {"file": os.path.basename(args.out), "sha256": copy_sha, "trustAbove": TRUST_ABOVE}
        write_json(source, float_meta)
        written.append(source)
    print("\n".join(written))
    sys.stderr.write(f"wrote {args.out} in {time.time() - t0:,.0f}s\n")


def write_json(path, value):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)
        f.write("\n")


def export(onnx, numpy_helper, model, convs, gemm, weights, scales, path):
    """The graph again with QDQ pairs: each int8 convolution's weights (int8 per channel) and bias (int32 at the
    input's scale times the weights'), each ReLU's output after an int8 convolution, the float convolution's pooled
    output, and the global pooling's (uint8). The input is quantised too (exactly value/255) when the first
    convolution is int8."""
    helper = onnx.helper
    graph = model.graph
    initializers = list(graph.initializer)
    nodes = []
    scale_of = {}

    def const(name, array):
        initializers.append(numpy_helper.from_array(array, name))
        return name

    def qdq(tensor, scale):
        s = const(f"{tensor}_scale", np.array(scale, np.float32))
        z = const(f"{tensor}_zero", np.array(0, np.uint8))
        nodes.append(helper.make_node("QuantizeLinear", [tensor, s, z], [f"{tensor}_q"]))
        nodes.append(helper.make_node("DequantizeLinear", [f"{tensor}_q", s, z], [f"{tensor}_dq"]))
        scale_of[f"{tensor}_dq"] = float(np.float32(scale))
        return f"{tensor}_dq"

    def attributes(node):
        return {a.name: helper.get_attribute_value(a) for a in node.attribute}

    renamed = {} if 0 in FLOAT_CONVS else {"cells": qdq("cells", 1 / 255)}
    fresh = {n.input[1]: weights[2 * i] for i, n in enumerate(convs)}
    fresh |= {n.input[2]: weights[2 * i + 1] for i, n in enumerate(convs)}
    fresh |= {gemm.input[1]: weights[10], gemm.input[2]: weights[11]}
    conv_index = {id(n): i for i, n in enumerate(convs)}
    for node in graph.node:
        inputs = [renamed.get(i, i) for i in node.input]
        if node.op_type == "Conv" and conv_index[id(node)] in FLOAT_CONVS:
            for k in (1, 2):
                const(f"{node.input[k]}_float", fresh[node.input[k]].astype(np.float32))
            nodes.append(helper.make_node("Conv", [inputs[0], f"{node.input[1]}_float", f"{node.input[2]}_float"],
                                          list(node.output), name=node.name, **attributes(node)))
            last_conv = conv_index[id(node)]
        elif node.op_type == "Conv":
            w = fresh[node.input[1]].astype(np.float32)
            b = fresh[node.input[2]].astype(np.float32)
            ws = np.abs(w).reshape(w.shape[0], -1).max(1) / 127
            ws[ws == 0] = 1
            wq = np.clip(np.round(w / ws[:, None, None, None]), -127, 127).astype(np.int8)
            name = node.input[1]
            const(f"{name}_int8", wq)
            const(f"{name}_scale", ws.astype(np.float32))
            const(f"{name}_zero", np.zeros(len(ws), np.int8))
            nodes.append(helper.make_node("DequantizeLinear", [f"{name}_int8", f"{name}_scale", f"{name}_zero"],
                                          [f"{name}_dq"], axis=0))
            bs = (scale_of[inputs[0]] * ws).astype(np.float32)
            bias = node.input[2]
            const(f"{bias}_int32", np.round(b / bs).astype(np.int32))
            const(f"{bias}_scale", bs)
            const(f"{bias}_zero", np.zeros(len(bs), np.int32))
            nodes.append(helper.make_node("DequantizeLinear", [f"{bias}_int32", f"{bias}_scale", f"{bias}_zero"],
                                          [f"{bias}_dq"], axis=0))
            nodes.append(helper.make_node("Conv", [inputs[0], f"{name}_dq", f"{bias}_dq"], list(node.output),
                                          name=node.name, **attributes(node)))
            last_conv = conv_index[id(node)]
        elif node.op_type == "Relu":
            if last_conv in FLOAT_CONVS and last_conv in POOL_AFTER:
                # A float convolution that a pool follows: pooled first, then the ReLU and its quantisation (the
                # same values: both are monotonic). onnxruntime then pools in float in its fast blocked layout;
                # with the ReLU first it moves the quantisation above the pool and pools uint8 in a slow kernel.
                renamed[node.output[0]] = inputs[0]
                continue
            nodes.append(helper.make_node("Relu", inputs, list(node.output), name=node.name))
            renamed[node.output[0]] = qdq(node.output[0], scales[last_conv])
        elif node.op_type == "MaxPool" and inputs[0] not in scale_of:
            pooled = f"{node.output[0]}_float"
            nodes.append(helper.make_node("MaxPool", inputs, [pooled], name=node.name, **attributes(node)))
            nodes.append(helper.make_node("Relu", [pooled], list(node.output), name=f"{node.name}_relu"))
            renamed[node.output[0]] = qdq(node.output[0], scales[last_conv])
        elif node.op_type == "MaxPool":
            # The same scale as its input: onnxruntime pools the uint8 values themselves.
            nodes.append(helper.make_node("MaxPool", inputs, list(node.output), name=node.name, **attributes(node)))
            renamed[node.output[0]] = qdq(node.output[0], scale_of[inputs[0]])
        elif node.op_type == "GlobalAveragePool":
            nodes.append(helper.make_node(node.op_type, inputs, list(node.output), name=node.name))
            renamed[node.output[0]] = qdq(node.output[0], scales[5])
        elif node.op_type == "Gemm":
            nodes.append(helper.make_node("Gemm", inputs, list(node.output), name=node.name, **attributes(node)))
        else:
            nodes.append(helper.make_node(node.op_type, inputs, list(node.output), name=node.name,
                                          **attributes(node)))
    used = {i for n in nodes for i in n.input}
    for name in (gemm.input[1], gemm.input[2]):
        for t in initializers:
            if t.name == name:
                t.CopyFrom(numpy_helper.from_array(fresh[name].astype(np.float32), name))
    kept = [t for t in initializers if t.name in used]
    out = helper.make_model(helper.make_graph(nodes, graph.name, graph.input, graph.output, kept),
                            opset_imports=[helper.make_opsetid("", 13)])
    out.ir_version = model.ir_version
    onnx.checker.check_model(out)
    onnx.save(out, path)


if __name__ == "__main__":
    main()
