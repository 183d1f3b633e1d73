"""`heistbench compile [GAME]`: compile the games' rules into the on-disk cache, once."""

from __future__ import annotations

import argparse
import time


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compile", help="compile the games' rules once (install does this)",
        description="Compile every game's rules (numba) into the cache, so that later runs "
        "start in about a second. A game whose sources did not change loads from the cache; "
        "an edited one compiles again. The cache is $HEISTBENCH_CACHE_DIR, else "
        "~/.cache/heistbench/numba.")
    p.add_argument("game", nargs="?", help="a game name (default: every game)")
    p.add_argument("--threads", type=int, default=2, metavar="N",
                   help="also compile the threaded drivers, warmed on N threads "
                   "(default: 2; 1 skips them)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from heistbench.envs import GAMES, _resolve, game
    from heistbench.envs.core.sampling import warm_up as warm_sampling

    warm_sampling()  # the random policy's compiled sampler
    for name in [_resolve(args.game)] if args.game else GAMES:
        for variant, options in [("", {}), *game(name).variants.items()]:
            compile_one(name, variant, game(name, **options), args.threads)
    return 0


def compile_one(name: str, variant: str, g, threads: int) -> None:
    """Warm up one game's drivers (and the threaded ones) and say where they are cached."""
    from heistbench.envs.core import jit

    t = time.perf_counter()
    g.warm_up()
    if threads > 1:
        try:
            jit.set_threads(min(threads, jit.numba.config.NUMBA_NUM_THREADS))
            g.warm_up()
        finally:
            jit.set_threads(1)
    label = f"{name} ({variant})" if variant else name
    cache = g.cache_name or g.rules_folder.name
    print(f"{label}: ready in {time.perf_counter() - t:.1f} s "
          f"(cache {jit.cache_dir(cache, g.rules_folder)})")
