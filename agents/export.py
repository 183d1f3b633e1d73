"""Export a checkpoint's actor for use without torch: ONNX for any runtime, and the zoo format.

The actor is what plays: the features extractor (the shared trunk), the policy MLP and the
action head of a MaskablePPO policy. The critic is training-only and is left out. Both files
carry the checkpoint's metadata, and `runtime.NumpyPolicy` plays either in NumPy alone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from .runtime import META_KEY, save_npz

Layers = list[tuple[np.ndarray, np.ndarray, str]]


def actor_layers(net: Any) -> Layers:
    """(W [out, in], b [out], activation) of an SB3 actor: its trunk (or none: a flatten),
    the policy MLP and the action head, in order. A module this does not know is refused, so
    an export never silently drops a piece of the network."""
    import torch

    mods = [*(net.pi_features_extractor.modules()), *(net.mlp_extractor.policy_net.modules()),
            net.action_net]
    layers: Layers = []
    for m in mods:
        if isinstance(m, torch.nn.Linear):
            b = m.bias.detach().numpy() if m.bias is not None else np.zeros(m.out_features)
            layers.append((m.weight.detach().numpy().copy(), b.astype(np.float32).copy(), ""))
        elif isinstance(m, (torch.nn.ReLU, torch.nn.Tanh)):
            if not layers or layers[-1][2]:
                raise ValueError(f"an activation ({type(m).__name__}) that follows no layer")
            w, b, _ = layers[-1]
            layers[-1] = (w, b, "relu" if isinstance(m, torch.nn.ReLU) else "tanh")
        elif not (isinstance(m, (torch.nn.Sequential, torch.nn.Flatten))
                  or type(m).__name__ in ("Trunk", "FlattenExtractor")):
            raise ValueError(f"cannot export a {type(m).__name__} layer: the exporter knows "
                             "Linear, ReLU, Tanh and Flatten (the networks heistbench trains)")
    return layers


def load_actor(checkpoint: str | Path) -> tuple[Layers, dict[str, Any]]:
    """The actor layers and the metadata of a checkpoint (a run directory or its .zip)."""
    from .model import checkpoint_file, read_meta

    p = checkpoint_file(checkpoint)
    meta = read_meta(p)
    from sb3_contrib import MaskablePPO

    try:
        model = MaskablePPO.load(p, device="cpu")
    except Exception as e:
        raise ValueError(f"checkpoint {str(p)!r} could not be loaded "
                         f"({type(e).__name__}: {e})") from None
    return actor_layers(model.policy), meta


def onnx_model(layers: Layers, meta: dict[str, Any]) -> Any:
    """An ONNX model (opset 13) of the layers: input "obs" float32 [batch, obs_size], output
    "logits" [batch, num_actions] (mask them: illegal actions have logits too)."""
    try:
        import onnx
        from onnx import TensorProto, helper, numpy_helper
    except ImportError:
        raise ImportError("ONNX export needs the onnx package: pip install "
                          "'heistbench[export]'") from None
    nodes, inits, x = [], [], "obs"
    for i, (w, b, act) in enumerate(layers):
        inits += [numpy_helper.from_array(np.asarray(w, np.float32), f"W{i}"),
                  numpy_helper.from_array(np.asarray(b, np.float32), f"b{i}")]
        y = "logits" if i == len(layers) - 1 and not act else f"h{i}"
        nodes.append(helper.make_node("Gemm", [x, f"W{i}", f"b{i}"], [y], transB=1))
        if act:
            z = "logits" if i == len(layers) - 1 else f"a{i}"
            nodes.append(helper.make_node({"relu": "Relu", "tanh": "Tanh"}[act], [y], [z]))
            y = z
        x = y
    graph = helper.make_graph(
        nodes, "heistbench_actor",
        [helper.make_tensor_value_info("obs", TensorProto.FLOAT, ["batch", layers[0][0].shape[1]])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT,
                                       ["batch", layers[-1][0].shape[0]])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="heistbench")
    model.ir_version = 8  # readable by runtimes of the last several years
    helper.set_model_props(model, {META_KEY: json.dumps(meta)})
    onnx.checker.check_model(model)
    return model


def export(checkpoint: str | Path, out: str | Path, fmt: str | None = None,
           dtype: str = "float16", play: str = "sample") -> Path:
    """Write the actor of `checkpoint` to `out`: ONNX (fmt "onnx" or a .onnx name) or the zoo
    format (fmt "npz" or a .npz name; weights in `dtype`). `play` ("sample" or "greedy") is
    how the file's policy chooses by default (`runtime.PLAY_MODES`): some games' policies win
    more by their most likely move, others by sampling."""
    from .runtime import PLAY_MODES

    out = Path(out)
    fmt = fmt or out.suffix.lstrip(".")
    if fmt not in ("onnx", "npz"):
        raise ValueError(f"unknown export format {fmt!r}: use onnx or npz")
    if dtype not in ("float16", "float32"):
        raise ValueError(f"weights dtype must be float16 or float32, got {dtype!r}")
    if play not in PLAY_MODES:
        raise ValueError(f"play must be one of {', '.join(PLAY_MODES)}, got {play!r}")
    layers, meta = load_actor(checkpoint)
    meta = {**meta, "exported_from": Path(checkpoint).name, "play": play}
    out.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "onnx":
        import onnx

        onnx.save(onnx_model(layers, meta), str(out))
        return out
    return save_npz(out, layers, meta, dtype=np.dtype(dtype))
