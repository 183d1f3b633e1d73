"""Which kinds of decision a learner gets wrong, or right, against a game's heuristic.

    python scripts/decision_study.py copy GAME [--players N] [--decisions 680000]
    python scripts/decision_study.py hybrid GAME POLICY [--players N] [--games 600]

`copy` fits an actor of the learner's default sizes (a 256-unit trunk, then 128: ReLU
throughout, where the learner's SB3 head uses tanh; no critic) offline to the heuristic's
decisions in the heuristic's own games, then reports, per kind of decision, how often its
first choice is the heuristic's in unseen positions, beside how often the heuristic agrees
with itself (ties broken by another random stream): where a copy stays far below that
ceiling, the observation does not make the decision learnable. `hybrid` seats the heuristic
everywhere, but in one seat one kind of decision is taken by POLICY (greedy): kinds where
that seat wins more than the heuristic alone are where the policy plays better.

A kind of decision is the observation's `decision` one-hot (its names: the kernel's
`DECISION_NAMES`); games without that field are not covered.
"""

from __future__ import annotations

import argparse
import importlib

import numpy as np
from heistbench.agents import make_policy
from heistbench.agents.base import Policy
from heistbench.training.evaluate import SELECTION_SEEDS_VERSION, evaluate
from heistbench.training.imitation import bot_rounds

from heistbench import envs


def decision_names(game) -> list[str]:
    kernel = importlib.import_module(type(game).__module__)
    names = getattr(kernel, "DECISION_NAMES", None)
    span = game.observation_layout.slice_of("decision")
    width = span.stop - span.start
    return [names[d] if names is not None and d < len(names) else str(d) for d in range(width)]


def kinds(game, obs: np.ndarray) -> np.ndarray:
    return game.obs_fields(obs)["decision"].argmax(axis=1)


def heuristic_decisions(game, decisions: int, seed: int) -> tuple[np.ndarray, ...]:
    """(obs, masks, actions) of at least `decisions` of the heuristic's decisions with a
    choice, every seat of its own games (the warm start's rounds, all of each kept)."""
    rounds, n = [], 0
    for r in bot_rounds(game, make_policy("heuristic", game, seed=1), seed, keep=1.0):
        rounds.append(r)
        n += len(r.action)
        if n >= decisions:
            break
    return tuple(np.concatenate([getattr(r, k) for r in rounds]) for k in ("obs", "mask", "action"))


def copy_study(game, decisions: int, epochs: int) -> None:
    import torch
    from heistbench.training.config import TrainConfig

    cfg = TrainConfig()
    obs, masks, actions = heuristic_decisions(game, decisions, seed=1)
    t_obs, t_masks, t_actions = heuristic_decisions(game, decisions // 7, seed=2)
    torch.manual_seed(0)
    layers, width = [], obs.shape[1]
    for size in [cfg.trunk, *cfg.net_arch]:
        layers += [torch.nn.Linear(width, size), torch.nn.ReLU()]
        width = size
    net = torch.nn.Sequential(*layers, torch.nn.Linear(width, game.num_actions))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    x, m, y = torch.tensor(obs), torch.tensor(masks.astype(bool)), torch.tensor(actions)
    for _ in range(epochs):
        for idx in torch.randperm(len(y)).split(2048):
            logits = net(x[idx]).masked_fill(~m[idx], -1e9)
            loss = torch.nn.functional.cross_entropy(logits, y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        pred = net(torch.tensor(t_obs)).masked_fill(~torch.tensor(t_masks.astype(bool)), -1e9)
    copy_pick = pred.argmax(axis=1).numpy()
    other = make_policy("heuristic", game, seed=7).act(t_obs, t_masks)  # the ceiling
    k, names = kinds(game, t_obs), decision_names(game)
    print(f"{len(y):,} decisions, {epochs} passes; {len(t_actions):,} unseen positions\n")
    print("| decision | share | copy agrees | heuristic agrees with itself |")
    print("|---|---|---|---|")
    for d in np.unique(k):
        s = k == d
        copied, itself = (copy_pick[s] == t_actions[s]).mean(), (other[s] == t_actions[s]).mean()
        print(f"| {names[d]} | {100 * s.mean():.1f}% | {100 * copied:.1f}% | {100 * itself:.1f}% |")
    print(f"| all | 100% | {100 * (copy_pick == t_actions).mean():.1f}% | "
          f"{100 * (other == t_actions).mean():.1f}% |")


class Hybrid(Policy):
    """The heuristic, but `policy` takes the decisions of kind `kind`."""

    def __init__(self, game, policy: Policy, kind: int):
        self.game, self.policy, self.kind = game, policy, kind
        self.heuristic = make_policy("heuristic", game, seed=5)
        self.name = "hybrid"

    def reset(self) -> None:
        self.policy.reset()
        self.heuristic.reset()

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        actions = self.heuristic.act(obs, mask)
        mine = kinds(self.game, obs) == self.kind
        if mine.any():
            actions[mine] = self.policy.act(obs[mine], mask[mine])
        return actions


def hybrid_study(game, spec: str, games: int) -> None:
    policy = make_policy(spec, game)
    policy.deterministic = True
    opponent = make_policy("heuristic", game, seed=1)

    def rate(p: Policy) -> str:
        r = evaluate(game, p, opponent, games, version=SELECTION_SEEDS_VERSION)
        return f"{100 * r.win_rate:.1f}% [{100 * r.ci_low:.1f}, {100 * r.ci_high:.1f}]"

    asked = np.unique(kinds(game, heuristic_decisions(game, 20_000, seed=1)[0]))
    names = decision_names(game)
    print("| decisions taken by the policy | win rate |")
    print("|---|---|")
    print(f"| none (the heuristic) | {rate(make_policy('heuristic', game, seed=9))} |")
    print(f"| all (the policy, greedy) | {rate(policy)} |")
    for d in asked:
        print(f"| {names[d]} | {rate(Hybrid(game, policy, int(d)))} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("study", choices=("copy", "hybrid"))
    ap.add_argument("game")
    ap.add_argument("policy", nargs="?", help="hybrid: the policy spec (a run, zoo:ENTRY, ...)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--decisions", type=int, default=680_000, help="copy: decisions fitted")
    ap.add_argument("--epochs", type=int, default=6, help="copy: passes over them")
    ap.add_argument("--games", type=int, default=600, help="hybrid: games per row")
    args = ap.parse_args()
    game = envs.game(args.game, num_players=args.players)
    if "decision" not in game.observation_layout.names:
        raise SystemExit(f"{args.game}'s observation has no 'decision' field")
    if args.study == "copy":
        copy_study(game, args.decisions, args.epochs)
    elif args.policy is None:
        raise SystemExit("hybrid needs a POLICY (a run directory, zoo:ENTRY, ...)")
    else:
        hybrid_study(game, args.policy, args.games)


if __name__ == "__main__":
    main()
