"""Machinery shared by every heistbench game."""

from .aec import HeistAECEnv, make_env_fns
from .game import Game
from .layout import (
    OBS_BOUNDS,
    ActionLayout,
    ActionRange,
    Block,
    Field,
    ObservationLayout,
    observation_box,
)
from .options import COMMON_OPTIONS, Option, options_table, resolve_options
from .records import RecordState as BatchState  # the batch state of every game

__all__ = ["OBS_BOUNDS", "ActionLayout", "ActionRange", "BatchState", "Block", "COMMON_OPTIONS",
           "Field", "Game", "HeistAECEnv", "ObservationLayout", "Option", "make_env_fns",
           "observation_box", "options_table", "resolve_options"]
