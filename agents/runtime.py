"""A pure-NumPy runtime for exported policies: no torch, for game developers and the bot zoo.

It plays two file formats, both written by `heistbench export` (agents/export.py):

- ONNX (`.onnx`): the actor network as a standard graph, for any ONNX runtime. This module
  reads it with the `onnx` package (protobuf parsing only) and evaluates the graph itself:
  the operators an exported MLP uses (Gemm, MatMul, Add, Relu, Tanh, Identity).
- The zoo format (`.npz`): the same layers' weights (float16 by default: small enough to ship
  in the package) with the checkpoint's metadata, read with NumPy alone.

Both carry the checkpoint's metadata, so a model is checked against the game it is asked to
play, as `ModelPolicy` checks a checkpoint.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from .base import Policy, action_mask, choose_from_logits

ACTIVATIONS = {"": lambda x: x, "relu": lambda x: np.maximum(x, 0),
               "tanh": np.tanh}
META_KEY = "heistbench_meta"  # the metadata entry of an exported file (ONNX metadata_props)
NPZ_FORMAT = 1  # the zoo format's version: bumped by any change to its arrays


class MLP:
    """Dense layers `x @ W.T + b`, each followed by its activation ("", "relu" or "tanh"):
    the actor of a checkpoint, computed in float32."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray, str]]):
        for w, b, act in layers:
            if act not in ACTIVATIONS:
                raise ValueError(f"unknown activation {act!r}; known: {sorted(ACTIVATIONS)}")
            if w.ndim != 2 or b.shape != (w.shape[0],):
                raise ValueError(f"a layer needs W [out, in] and b [out], got {w.shape} and "
                                 f"{b.shape}")
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32), a)
                       for w, b, a in layers]
        self.in_size = self.layers[0][0].shape[1]
        self.out_size = self.layers[-1][0].shape[0]

    def __call__(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, np.float32)
        for w, b, act in self.layers:
            x = ACTIVATIONS[act](x @ w.T + b)
        return x


class OnnxGraph:
    """An ONNX graph evaluated node by node in NumPy (the operators of an exported MLP)."""

    def __init__(self, path: str | Path):
        try:
            import onnx
            from onnx import numpy_helper
        except ImportError:
            raise ImportError("reading an .onnx file needs the onnx package: pip install "
                              "'heistbench[export]' (a zoo .npz needs nothing)") from None
        try:
            model = onnx.load(str(path))
        except Exception as e:  # protobuf raises several kinds on a damaged file
            raise ValueError(f"{str(path)!r} is not a readable ONNX model "
                             f"({type(e).__name__}: {e})") from None
        g = model.graph
        self.meta = {p.key: p.value for p in model.metadata_props}
        self.consts = {t.name: numpy_helper.to_array(t) for t in g.initializer}
        self.input = next(i.name for i in g.input if i.name not in self.consts)
        self.output = g.output[0].name
        self.nodes = [(n.op_type, list(n.input), list(n.output),
                       {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute})
                      for n in g.node]
        for op, *_ in self.nodes:
            if op not in self.OPS:
                raise ValueError(f"{str(path)!r}: operator {op} is not supported; this runtime "
                                 f"plays exported MLPs ({', '.join(sorted(self.OPS))})")

    @staticmethod
    def _gemm(a, b, c=None, alpha=1.0, beta=1.0, transA=0, transB=0):
        y = alpha * ((a.T if transA else a) @ (b.T if transB else b))
        return y if c is None else y + beta * c

    OPS = {"Gemm": _gemm.__func__, "MatMul": lambda a, b: a @ b, "Add": lambda a, b: a + b,
           "Relu": lambda x: np.maximum(x, 0), "Tanh": np.tanh, "Identity": lambda x: x}

    def __call__(self, x: np.ndarray) -> np.ndarray:
        env = dict(self.consts)
        env[self.input] = np.asarray(x, np.float32)
        for op, ins, outs, attrs in self.nodes:
            env[outs[0]] = self.OPS[op](*(env[i] for i in ins if i), **attrs)
        return env[self.output].astype(np.float32)


def save_npz(path: str | Path, layers: list[tuple[np.ndarray, np.ndarray, str]],
             meta: dict[str, Any], dtype: Any = np.float16) -> Path:
    """Write layers and metadata in the zoo format (weights in `dtype`, biases float32)."""
    arrays: dict[str, np.ndarray] = {"format": np.array(NPZ_FORMAT),
                                     "meta": np.array(json.dumps(meta)),
                                     "activations": np.array([a for _, _, a in layers])}
    for i, (w, b, _) in enumerate(layers):
        arrays[f"w{i}"] = np.asarray(w, dtype)
        arrays[f"b{i}"] = np.asarray(b, np.float32)
    path = Path(path)
    with open(path, "wb") as f:
        np.savez_compressed(f, **arrays)
    return path


def load_npz(path: str | Path) -> tuple[MLP, dict[str, Any]]:
    """(network, metadata) of a zoo-format file; ValueError when it is not one."""
    try:
        with np.load(path, allow_pickle=False) as z:
            if int(z["format"]) != NPZ_FORMAT:
                raise ValueError(f"format {int(z['format'])}, this runtime reads {NPZ_FORMAT}")
            meta = json.loads(str(z["meta"]))
            acts = [str(a) for a in z["activations"]]
            layers = [(z[f"w{i}"], z[f"b{i}"], a) for i, a in enumerate(acts)]
    except (OSError, KeyError, ValueError, json.JSONDecodeError) as e:
        raise ValueError(f"{str(path)!r} is not a heistbench policy file ({e})") from None
    return MLP(layers), meta


PLAY_MODES = ("sample", "greedy")  # an exported policy's default choice rule (meta "play")


class NumpyPolicy(Policy):
    """An exported actor played batched in NumPy, by sampling or greedily (the file's "play"
    metadata, sampling when absent, unless `deterministic` says): the same choice rule as
    `ModelPolicy`."""

    name = "numpy"

    def __init__(self, net: Any, meta: dict[str, Any], deterministic: bool = False,
                 seed: int | None = 0, name: str = "numpy"):
        self.net, self.meta, self.deterministic = net, meta, deterministic
        self.rng = np.random.default_rng(seed)
        self.name = name

    @classmethod
    def load(cls, path: str | Path, game: Any = None, seed: int | None = 0,
             deterministic: bool | None = None, name: str | None = None) -> NumpyPolicy:
        """An .onnx or zoo .npz file; given a `game`, refused unless it was made for it.
        `deterministic` None: the file's own play mode."""
        from .model import check_compatible

        p = Path(path)
        if not p.is_file():
            raise FileNotFoundError(f"no exported policy at {str(path)!r}")
        if p.suffix == ".onnx":
            net = OnnxGraph(p)
            if META_KEY not in net.meta:
                raise ValueError(f"{str(p)!r} carries no {META_KEY} metadata: export it "
                                 "with heistbench export")
            meta = json.loads(net.meta[META_KEY])
        else:
            net, meta = load_npz(p)
        if game is not None:
            check_compatible(meta, game, source=f"policy file {str(path)!r}")
        if deterministic is None:
            deterministic = meta.get("play", "sample") == "greedy"
        return cls(net, meta, deterministic=deterministic, seed=seed, name=name or p.stem)

    def logits(self, obs: np.ndarray) -> np.ndarray:
        return self.net(np.atleast_2d(obs))

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        obs = np.atleast_2d(obs)
        mask = action_mask(mask, self.meta.get("num_actions"), obs.shape[0])
        if obs.shape[0] == 0:
            return np.zeros(0, dtype=np.int64)
        return choose_from_logits(self.logits(obs), mask, self.rng, self.deterministic)
