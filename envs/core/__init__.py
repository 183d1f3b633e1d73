"""Machinery shared by every heistbench game."""

from .aec import HeistAECEnv, make_env_fns
from .game import Game
from .layout import ActionLayout, ActionRange, Block, Field, ObservationLayout
from .options import COMMON_OPTIONS, Option, options_table, resolve_options
from .state import BatchState

__all__ = ["ActionLayout", "ActionRange", "BatchState", "Block", "COMMON_OPTIONS", "Field",
           "Game", "HeistAECEnv", "ObservationLayout", "Option", "make_env_fns",
           "options_table", "resolve_options"]
