"""The typed configuration of a self-play run, loaded from a YAML file in configs/.

Everything that shapes a run lives in `TrainConfig`; a YAML file sets any subset of its fields.
An unknown key or a value of the wrong type is an error naming the key, so a typo can never
silently fall back to a default.
"""

from __future__ import annotations

import dataclasses
import difflib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

CONFIG_DIR = Path(__file__).resolve().parent.parent / "configs"


@dataclass
class TrainConfig:
    """Self-play MaskablePPO on one game (CleanRL-style: one field, one line of docs)."""

    # --- the game ---
    game: str | None = None
    """env name ("big_score" or "big_score_v1"); None = given on the command line"""
    num_players: int = 2
    """seats at the table"""
    options: dict[str, Any] = field(default_factory=dict)
    """further game options (see the env module's docs)"""
    seed: int = 0
    """seed of torch, the opponent draws and the game seeds"""

    # --- environment and opponents ---
    num_envs: int = 512
    """games stepped together by the vector env"""
    opponents: dict[str, float] = field(
        default_factory=lambda: {"self": 0.6, "heuristic": 0.3, "random": 0.1})
    """opponent mix per seat: share of frozen snapshots ("self"), "heuristic", "random"""
    pool_size: int = 8
    """frozen snapshots kept in the opponent pool (oldest replaced first)"""
    snapshot_every: int = 100_000
    """learner steps between snapshots entering the pool"""

    # --- warm start ---
    init_from: str | None = None
    """a checkpoint (run directory or .zip) whose weights start the learner, to continue a run;
    its game and network must match this config's; it replaces the copy (imitate)"""
    imitate: str | None = None
    """a bot the learner copies before self-play: "heuristic" or any policy name of
    make_policy (training.imitation); None = self-play from a random start"""
    imitate_decisions: int = 1_000_000
    """the bot's decisions the learner is fitted to before self-play"""
    imitate_epochs: int = 2
    """passes over each round of the bot's decisions"""
    imitate_dagger: float = 0.0
    """share of those decisions taken in the learner's own games, the bot naming its move
    (DAgger); 0 = the bot's own games only"""

    # --- PPO ---
    total_timesteps: int = 2_000_000
    """learner decisions to train on"""
    n_steps: int = 16
    """rollout length per game between updates"""
    batch_size: int = 2048
    """minibatch size"""
    n_epochs: int = 4
    """passes over each rollout"""
    learning_rate: float = 3e-4
    """Adam step size (annealed linearly to 0 when anneal_lr)"""
    anneal_lr: bool = True
    """anneal the learning rate linearly to 0 over the run"""
    gamma: float = 1.0
    """discount (terminal-only rewards: no discount needed)"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    clip_range: float = 0.2
    """PPO clip range"""
    ent_coef: float = 0.01
    """entropy bonus"""
    vf_coef: float = 0.5
    """value loss weight"""
    max_grad_norm: float = 0.5
    """gradient clipping"""
    trunk: int = 256
    """width of the hidden layer shared by policy and value (0 = no shared layer)"""
    net_arch: list[int] = field(default_factory=lambda: [128])
    """hidden layers of the policy head and of the value head, after the trunk"""
    oracle_critic: bool = False
    """the critic sees every seat's view (the hidden state), the actor only its own
    (networks.OracleCriticPolicy): each gets a trunk of its own"""

    # --- evaluation, logging, resources ---
    eval_every: int = 200_000
    """learner steps between evaluations (0 = only at the end)"""
    eval_games: int = 200
    """games per opponent in each periodic evaluation (seats rotated)"""
    eval_vs: list[str] = field(default_factory=lambda: ["heuristic", "random"])
    """opponents of the periodic evaluation"""
    final_eval_games: int = 2000
    """games per opponent in the evaluation at the end of the run"""
    torch_threads: int = 1
    """torch intra-op threads"""


_FIELDS = {f.name: f for f in dataclasses.fields(TrainConfig)}
_HINTS = typing.get_type_hints(TrainConfig)


def _check_type(key: str, value: Any, hint: Any) -> Any:
    """The value converted to the field's type, or a ValueError naming the key."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _check_type(key, value, inner[0])
    if hint is Any:
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise ValueError(f"config key {key!r}: expected true/false, got {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"config key {key!r}: expected an integer, got {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"config key {key!r}: expected a number, got {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise ValueError(f"config key {key!r}: expected a string, got {value!r}")
        return value
    if origin is list:
        if not isinstance(value, list):
            raise ValueError(f"config key {key!r}: expected a list, got {value!r}")
        return [_check_type(f"{key}[{i}]", v, args[0]) for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise ValueError(f"config key {key!r}: expected a mapping, got {value!r}")
        return {_check_type(f"{key} key", k, args[0]): _check_type(f"{key}.{k}", v, args[1])
                for k, v in value.items()}
    raise TypeError(f"unsupported config type {hint!r} for {key!r}")


def config_from_dict(data: dict[str, Any], source: str = "config") -> TrainConfig:
    """A TrainConfig from a mapping; unknown keys and wrong types raise ValueError."""
    if not isinstance(data, dict):
        raise ValueError(f"{source}: expected a mapping of config keys, got {type(data).__name__}")
    values = {}
    for key, value in data.items():
        if key not in _FIELDS:
            close = difflib.get_close_matches(str(key), _FIELDS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"{source}: unknown config key {key!r}{hint}; known keys: "
                             f"{', '.join(_FIELDS)}")
        values[key] = _check_type(key, value, _HINTS[key])
    cfg = TrainConfig(**values)
    validate(cfg, source)
    return cfg


def validate(cfg: TrainConfig, source: str = "config") -> None:
    """Checks across fields (positive sizes, a known opponent mix)."""
    for key in ("num_envs", "n_steps", "batch_size", "n_epochs", "total_timesteps",
                "pool_size", "snapshot_every", "torch_threads", "imitate_decisions",
                "imitate_epochs"):
        if getattr(cfg, key) <= 0:
            raise ValueError(f"{source}: config key {key!r} must be positive, "
                             f"got {getattr(cfg, key)}")
    if cfg.trunk < 0:
        raise ValueError(f"{source}: config key 'trunk' must be >= 0")
    if cfg.oracle_critic and cfg.trunk == 0:
        raise ValueError(f"{source}: config key 'oracle_critic' needs a trunk (trunk > 0): "
                         "the actor's trunk is what reads its own columns of the oracle view")
    for key in ("eval_every", "eval_games", "final_eval_games"):
        if getattr(cfg, key) < 0:
            raise ValueError(f"{source}: config key {key!r} must be >= 0")
    bad = set(cfg.opponents) - {"self", "heuristic", "random"}
    if bad:
        raise ValueError(f"{source}: config key 'opponents': unknown opponent "
                         f"{sorted(bad)[0]!r}; use self, heuristic, random")
    if any(v < 0 for v in cfg.opponents.values()) or sum(cfg.opponents.values()) <= 0:
        raise ValueError(f"{source}: config key 'opponents': shares must be >= 0, sum > 0")
    if not 0.0 <= cfg.imitate_dagger <= 1.0:
        raise ValueError(f"{source}: config key 'imitate_dagger' is a share in [0, 1], got "
                         f"{cfg.imitate_dagger}")
    if cfg.init_from is not None and not cfg.init_from.strip():
        raise ValueError(f"{source}: config key 'init_from': name a run directory or a "
                         "checkpoint .zip, or leave it out")
    if cfg.imitate is not None and not cfg.imitate.strip():
        raise ValueError(f"{source}: config key 'imitate': name a bot (e.g. heuristic) or "
                         "leave it out")
    bad_vs = [v for v in cfg.eval_vs if v not in ("heuristic", "random")]
    if bad_vs:
        raise ValueError(f"{source}: config key 'eval_vs': unknown opponent {bad_vs[0]!r}; "
                         "use heuristic, random")


def available_configs() -> list[str]:
    return sorted(p.stem for p in CONFIG_DIR.glob("*.yaml"))


def config_path(name_or_path: str) -> Path:
    """A packaged config name ("quick", "big_score") or a path to a YAML file."""
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") or p.exists():
        if not p.exists():
            raise FileNotFoundError(f"config file {name_or_path!r} does not exist")
        return p
    p = CONFIG_DIR / f"{name_or_path}.yaml"
    if not p.exists():
        raise ValueError(f"unknown config {name_or_path!r}; packaged configs: "
                         f"{', '.join(available_configs())} (or give a path to a .yaml file)")
    return p


def default_config(game: str, num_players: int | None = None) -> str:
    """The packaged config a game trains with: `<game>_<n>p` where there is one for that
    player count (the largest count of every game has one; a solo game: `<game>_solo`),
    else `<game>` (2 players), whose num_players the caller then overrides."""
    base = game.rsplit("_v", 1)[0]
    names = [] if num_players is None else [f"{base}_{num_players}p"]
    names += [f"{base}_solo"] if num_players == 1 else []
    return next((n for n in names if (CONFIG_DIR / f"{n}.yaml").exists()), base)


def load_config(name_or_path: str, overrides: dict[str, Any] | None = None) -> TrainConfig:
    """Read a YAML config (a packaged name or a path), then apply `overrides` (key -> value)."""
    path = config_path(name_or_path)
    try:
        data = yaml.safe_load(path.read_text()) or {}
    except yaml.YAMLError as e:
        raise ValueError(f"{path}: not valid YAML: {e}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping of config keys")
    data.update(overrides or {})
    return config_from_dict(data, source=str(path))


def parse_overrides(items: list[str]) -> dict[str, Any]:
    """["key=value", ...] with YAML-typed values ("ent_coef=0.02", "net_arch=[64,64]")."""
    out = {}
    for item in items:
        if "=" not in item:
            raise ValueError(f"override {item!r}: expected key=value")
        key, text = item.split("=", 1)
        out[key.strip()] = yaml.safe_load(text)
    return out


def to_dict(cfg: TrainConfig) -> dict[str, Any]:
    return dataclasses.asdict(cfg)
