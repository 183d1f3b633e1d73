"""heistbench: heist board games with partial information for reinforcement-learning research."""

__version__ = "0.1.0"
