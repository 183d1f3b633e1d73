"""`heistbench export CHECKPOINT --onnx`: a checkpoint's actor for play without torch."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export", help="export a checkpoint's policy to ONNX or the zoo format",
        description="Write the actor network of CHECKPOINT (its trunk, policy layers and action "
        "head; the critic is left out) with the checkpoint's metadata, as ONNX (input 'obs' "
        "float32 [batch, obs_size], output 'logits' [batch, num_actions]: mask the illegal "
        "actions) and/or as the zoo's .npz. Either plays without torch: "
        "heistbench.agents.runtime.NumpyPolicy.load(FILE, game), or make_policy(FILE, game). "
        "ONNX needs the onnx package (pip install 'heistbench[export]').")
    p.add_argument("checkpoint", help="a run directory or its model .zip")
    p.add_argument("--onnx", nargs="?", const="", metavar="FILE",
                   help="write ONNX (default FILE: model.onnx beside the checkpoint)")
    p.add_argument("--npz", nargs="?", const="", metavar="FILE",
                   help="write the zoo format (default FILE: model.npz beside the checkpoint)")
    p.add_argument("--dtype", choices=("float16", "float32"), default="float16",
                   help="weights of the .npz (default float16: half the size)")
    from heistbench.agents.runtime import PLAY_MODES

    p.add_argument("--play", choices=PLAY_MODES, default="sample",
                   help="how the exported policy chooses by default, recorded in its metadata: "
                   "sample from its distribution (default) or take its most likely move")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from heistbench.agents.export import export
    from heistbench.agents.model import checkpoint_file

    if args.onnx is None and args.npz is None:
        raise ValueError("say what to write: --onnx [FILE] and/or --npz [FILE]")
    ckpt = checkpoint_file(args.checkpoint)
    for fmt, out in (("onnx", args.onnx), ("npz", args.npz)):
        if out is None:
            continue
        path = Path(out) if out else ckpt.with_suffix(f".{fmt}")
        export(args.checkpoint, path, fmt=fmt, dtype=args.dtype, play=args.play)
        print(f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB)")
    return 0
