"""A tiny ONNX model for tests (fixtures/models/features-8.onnx): the cell model's input and outputs by name and
shape, but 8 features a cell. Its weights are zeros: it is only loaded, never trusted to read. Run with
/usr/bin/python3 (python3-onnx); the bytes are the same on every run."""
import pathlib

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

CLASSES = 110  # any count: the tests give the metadata's classes themselves
FEATURES = 8

pooled = helper.make_node("GlobalAveragePool", ["cells"], ["pooled"])
flat = helper.make_node("Flatten", ["pooled"], ["flat"], axis=1)
logits = helper.make_node("MatMul", ["flat", "w_logits"], ["logits"])
features = helper.make_node("MatMul", ["flat", "w_features"], ["features"])
graph = helper.make_graph(
    [pooled, flat, logits, features],
    "features-8",
    [helper.make_tensor_value_info("cells", TensorProto.FLOAT, ["N", 3, 32, 32])],
    [
        helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", CLASSES]),
        helper.make_tensor_value_info("features", TensorProto.FLOAT, ["N", FEATURES]),
    ],
    initializer=[
        numpy_helper.from_array(np.zeros((3, CLASSES), np.float32), "w_logits"),
        numpy_helper.from_array(np.zeros((3, FEATURES), np.float32), "w_features"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="tilecam-tests")
model.ir_version = 7
onnx.checker.check_model(model)
out = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "models" / "features-8.onnx"
out.write_bytes(model.SerializeToString())
print(out)
