"""Trained-model policies: a MaskablePPO checkpoint (or a live network) as a batched policy.

A checkpoint is the SB3 `.zip` of a run with the run's metadata stored inside it (and beside it,
as the run directory's meta.json). Loading checks that metadata against the game it is asked
to play, so a model is never silently run on a game, player count, observation size or env
version it was not trained for.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from .base import Policy, action_mask, choose_from_logits

META_NAME = "heistbench_meta.json"  # the metadata file inside a checkpoint zip
MODEL_NAME = "model.zip"  # the final checkpoint of a run directory
# what must agree between a checkpoint and the game it plays
COMPATIBILITY_KEYS = ("game", "env_version", "num_players", "obs_size", "num_actions")


def game_signature(game: Any) -> dict[str, Any]:
    """The facts about a Game that a checkpoint must match."""
    return {"game": game.name, "env_version": int(game.version),
            "num_players": int(game.num_players), "obs_size": int(game.obs_size),
            "num_actions": int(game.num_actions)}


def checkpoint_file(path: str | Path) -> Path:
    """A run directory or a checkpoint .zip -> the .zip (FileNotFoundError if absent)."""
    p = Path(path)
    if p.is_dir():
        p = p / MODEL_NAME
    if not p.exists():
        raise FileNotFoundError(f"no checkpoint at {str(path)!r} (expected a run directory "
                                f"holding {MODEL_NAME}, or a checkpoint .zip)")
    return p


def write_meta(zip_path: str | Path, meta: dict[str, Any]) -> None:
    """Store the run metadata inside a saved SB3 checkpoint."""
    with zipfile.ZipFile(zip_path, "a") as z:
        z.writestr(META_NAME, json.dumps(meta, indent=2))


def read_meta(path: str | Path) -> dict[str, Any]:
    """The metadata of a checkpoint (ValueError when the file is corrupt or carries none)."""
    p = checkpoint_file(path)
    try:
        with zipfile.ZipFile(p) as z:
            if META_NAME in z.namelist():
                return json.loads(z.read(META_NAME))
    except (zipfile.BadZipFile, OSError, json.JSONDecodeError, KeyError) as e:
        raise ValueError(f"checkpoint {str(p)!r} is corrupt or not a heistbench checkpoint "
                         f"({type(e).__name__}: {e})") from None
    side = p.parent / "meta.json"
    if side.exists():
        try:
            return json.loads(side.read_text())
        except json.JSONDecodeError as e:
            raise ValueError(f"{side}: corrupt meta.json ({e})") from None
    raise ValueError(f"checkpoint {str(p)!r} carries no heistbench metadata ({META_NAME}) "
                     "and has no meta.json beside it")


def check_compatible(meta: dict[str, Any], game: Any, source: str = "checkpoint") -> None:
    """Raise ValueError listing every difference between a checkpoint's metadata and `game`."""
    want = game_signature(game)
    diffs = [f"{k}: checkpoint {meta.get(k)!r}, requested {want[k]!r}"
             for k in COMPATIBILITY_KEYS if meta.get(k) != want[k]]
    if diffs:
        raise ValueError(f"{source} does not fit {game.name} with {game.num_players} players: "
                         + "; ".join(diffs))


class ModelPolicy(Policy):
    """A MaskablePPO actor network played batched, by sampling (default) or greedily."""

    name = "model"

    def __init__(self, net: Any, meta: dict[str, Any] | None = None,
                 deterministic: bool = False, seed: int | None = 0, name: str = "model"):
        import torch

        self.net = net
        self.net.set_training_mode(False)
        self.meta = meta or {}
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        self.name = name
        self._torch = torch

    @classmethod
    def from_sb3(cls, sb3_policy: Any, deterministic: bool = False, seed: int | None = 0,
                 name: str = "snapshot") -> ModelPolicy:
        """A frozen copy of a live SB3 policy (for the self-play opponent pool)."""
        net = type(sb3_policy)(**sb3_policy._get_constructor_parameters())
        net.load_state_dict(sb3_policy.state_dict())
        for p in net.parameters():
            p.requires_grad_(False)
        return cls(net, deterministic=deterministic, seed=seed, name=name)

    @classmethod
    def load(cls, path: str | Path, game: Any, seed: int | None = 0,
             deterministic: bool = False) -> ModelPolicy:
        """Load a checkpoint for `game` (a Game), refusing one made for anything else."""
        p = checkpoint_file(path)
        meta = read_meta(p)
        check_compatible(meta, game, source=f"checkpoint {str(path)!r}")
        from sb3_contrib import MaskablePPO

        try:
            model = MaskablePPO.load(p, device="cpu")
        except Exception as e:  # a damaged archive fails inside SB3 in many ways
            raise ValueError(f"checkpoint {str(p)!r} could not be loaded "
                             f"({type(e).__name__}: {e})") from None
        return cls(model.policy, meta=meta, deterministic=deterministic, seed=seed,
                   name=Path(path).stem if p.name != MODEL_NAME else p.parent.name)

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Unmasked action logits [B, A]."""
        torch = self._torch
        net = self.net
        with torch.inference_mode():
            x = torch.as_tensor(np.asarray(obs, dtype=np.float32))
            # the actor's extractor itself: SB3's extract_features runs the critic's as well
            # where they are not shared (an oracle critic, whose input is wider)
            features = net.pi_features_extractor(x)
            return net.action_net(net.mlp_extractor.forward_actor(features)).numpy()

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Sampled (or greedy) legal actions; a row with no legal action (a finished game) is
        all -inf, whose argmax is 0."""
        obs = np.atleast_2d(obs)
        mask = action_mask(mask, self.meta.get("num_actions"), obs.shape[0])
        if obs.shape[0] == 0:
            return np.zeros(0, dtype=np.int64)
        return choose_from_logits(self.logits(obs), mask, self.rng, self.deterministic)
