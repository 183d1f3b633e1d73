"""Constructor options declared as data, validated with errors that say what is allowed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One keyword option of a game: its default and what values are allowed."""

    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None  # allowed values, if a closed set
    check: Callable[[Any], bool] | None = None  # predicate for open sets
    allowed: str = ""  # how to describe an open set in an error message

    def describe_allowed(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        return self.allowed or "see the docs"


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def _is_pos_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v > 0


# the terminal reward modes; the compiled rules get the index (scalar.terminal_rewards)
REWARD_MODES = ("win_loss", "score", "rank")

COMMON_OPTIONS: dict[str, Option] = {
    "reward": Option("win_loss", "terminal reward: 'win_loss' (winners share +1, the others "
                     "share -1), 'score' (normalised score margin) or 'rank' ((N - 1 - 2 rank) "
                     "/ (N - 1), rank 0 = first, tied players sharing their average rank)",
                     REWARD_MODES),
    "validate": Option(True, "check every action and raise ValueError on an illegal one "
                       "(turn off on the training hot path; compiled rules always check, "
                       "at no cost)", check=_is_bool, allowed="a bool"),
    "auto_forced": Option(True, "apply decisions that have a single legal action without "
                          "asking the agent", check=_is_bool, allowed="a bool"),
    "max_steps": Option(None, "agent-step bound after which a game is truncated (safety net; "
                        "None = the game's proven bound with margin)",
                        check=lambda v: v is None or _is_pos_int(v),
                        allowed="None or a positive int"),
    "reveal_hidden": Option(False, "oracle mode: every player observes every seat's private "
                            "view (for debugging and oracle baselines)", check=_is_bool,
                            allowed="a bool"),
}


def resolve_options(game: str, spec: Mapping[str, Option], given: Mapping[str, Any]
                    ) -> dict[str, Any]:
    """Fill defaults and validate `given` against `spec`; raise ValueError naming the culprit."""
    unknown = sorted(set(given) - set(spec))
    if unknown:
        raise ValueError(f"{game}: unknown option(s) {', '.join(map(repr, unknown))}; "
                         f"allowed options: {', '.join(sorted(spec))}")
    out = {}
    for name, opt in spec.items():
        value = given.get(name, opt.default)
        ok = True
        if name in given:
            if opt.choices is not None:
                ok = any(value == c and type(value) is type(c) for c in opt.choices)
            elif opt.check is not None:
                try:
                    ok = bool(opt.check(value))
                except Exception:  # a check that cannot even run on the value rejects it
                    ok = False
        if not ok:
            raise ValueError(f"{game}: invalid value {value!r} for option {name!r}; "
                             f"allowed: {opt.describe_allowed()}")
        out[name] = value
    return out


def options_table(spec: Mapping[str, Option]) -> str:
    """Markdown table of options for the docs."""
    rows = ["| option | default | allowed | meaning |", "|---|---|---|---|"]
    for name, opt in spec.items():
        rows.append(f"| `{name}` | `{opt.default!r}` | {opt.describe_allowed()} | {opt.doc} |")
    return "\n".join(rows)
