/**
 * `tsx models/training/features.ts MODEL.onnx`: gives the exported cell classifier a second output, `features`
 * (N×F: the penultimate layer, the input of its last Gemm), so that a game can compare a square with the tiles it
 * has already committed (vision/adapt.ts). The weights and the `logits` output stay exactly as they were. Run by
 * train.sh after the export; a model that has the output already is left alone.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import proto from 'onnx-proto';

const { onnx } = proto;

const path = process.argv[2];
if (!path) {
  console.error('usage: tsx models/training/features.ts MODEL.onnx');
  process.exit(2);
}
const model = onnx.ModelProto.decode(readFileSync(path));
const graph = model.graph;
if (!graph?.output || !graph.node || !graph.initializer) throw new Error(`${path}: no graph`);
const { output, node, initializer } = graph;
if (output.some((o) => o.name === 'features')) {
  console.log(`${path} already has a features output`);
  process.exit(0);
}
const last = node.find((n) => n.output?.includes('logits'));
const input = last?.input ?? [];
if (last?.opType !== 'Gemm' || !input[0]) throw new Error(`${path}: the logits are not made by a Gemm`);
const weights = initializer.find((i) => i.name === input[1]);
const width = Number(weights?.dims?.[1]);
if (!Number.isInteger(width) || width <= 0) throw new Error(`${path}: cannot tell the Gemm's input width`);
node.push(
  onnx.NodeProto.create({ opType: 'Identity', name: 'features', input: [input[0]], output: ['features'] }),
);
output.push(
  onnx.ValueInfoProto.create({
    name: 'features',
    type: {
      tensorType: {
        elemType: onnx.TensorProto.DataType.FLOAT,
        shape: { dim: [{ dimParam: 'N' }, { dimValue: width }] },
      },
    },
  }),
);
writeFileSync(path, onnx.ModelProto.encode(model).finish());
console.log(`${path}: features output added (${width} per cell, from ${input[0]})`);
