"""Compiling the games' scalar rules with numba, cached on disk per game.

A game's rule functions are decorated with `jit` below; the batch drivers
(`drivers.py`) that call them are loaded once per game as a module of their own, with that
game's rule functions as globals, and are `@njit(cache=True)`: each driver's cached code holds
every rule it calls, so only the drivers are written to disk (a cache entry per rule function
would store the same code again at every level of the call graph, and load slower). Passing
rule functions to shared drivers as arguments instead defeats numba's cache.

The cache lives in a folder of the user's cache named after a hash of the game's source files
and the core's compiled files: numba itself only notices edits to a function's own file, and
the hash makes an edit to a component table, the RNG or a driver recompile the game too. Being
outside the package, it works when the package directory is read-only.

Two measured pitfalls shape the rule code: numba compiles a function anew for every literal
Python int passed to it (so decision and action ids are NumPy ints), and for every distinct
array type (so the drivers always get C-contiguous, writable arrays).

Threads are opt-in, in one place: `set_threads(n)` (or the environment variable
HEISTBENCH_THREADS). With more than one, the drivers run the games of a batch in parallel
(`prange`); results are the same with any number of threads, since no game reads another.
`NUMBA_DISABLE_JIT=1` runs the very same functions as plain Python, for debugging.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import inspect
import os
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numba

CORE = Path(__file__).resolve().parent
CORE_COMPILED = ("scalar.py", "drivers.py")  # the core files whose code games compile in
_threads = 1

if numba.config.DISABLE_JIT:  # plain-Python uint64 hashing wraps on purpose, as compiled code does
    warnings.filterwarnings("ignore", "overflow encountered in scalar", RuntimeWarning)


def cache_root() -> Path:
    """Where compiled rules are cached: $HEISTBENCH_CACHE_DIR, else the user's cache folder."""
    env = os.environ.get("HEISTBENCH_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "heistbench" / "numba"


def source_hash(folder: Path | None) -> str:
    """Hash of a game folder's .py files, the core's compiled files and the numba version."""
    h = hashlib.sha256(numba.__version__.encode())
    files = sorted(folder.rglob("*.py")) if folder is not None else []
    for path in files + [CORE / f for f in CORE_COMPILED]:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_dir(game: str, folder: Path | None) -> Path:
    """The cache folder of one game's compiled code (a new one whenever its sources change)."""
    return cache_root() / f"{game}-{source_hash(folder)}"


@contextlib.contextmanager
def _caching_into(path: Path) -> Iterator[None]:
    """numba reads its cache folder when a function is decorated: point it at `path`."""
    old = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(path)
    try:
        yield
    finally:
        numba.config.CACHE_DIR = old


def jit(fn: Callable | None = None, **options: Any) -> Any:
    """numba's `njit` for rule functions, which are compiled into the (cached) drivers that
    call them and so are not cached themselves: `@jit`, or `@jit(inline="always")` on one
    called from one place (fewer separately compiled functions compile faster)."""
    def wrap(f: Callable) -> Any:
        return numba.njit(**options)(f)
    return wrap if fn is None else wrap(fn)


def cached(fn: Callable) -> Any:
    """`njit(cache=True)` for a compiled core function outside the drivers, cached in the
    user's cache like the games' code (keyed on its file's source)."""
    source = Path(inspect.getfile(fn))
    digest = hashlib.sha256(source.read_bytes() + numba.__version__.encode()).hexdigest()[:16]
    with _caching_into(cache_root() / f"core-{source.stem}-{digest}"):
        return numba.njit(cache=True)(fn)


def load_drivers(game: str, folder: Path, **rules: Callable) -> ModuleType:
    """The core's batch drivers compiled for one game's rule functions (see `drivers.py` for
    the functions a game supplies; `asked_always` defaults to never)."""
    name = f"heistbench.envs.{game}._drivers"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, CORE / "drivers.py")
    mod = importlib.util.module_from_spec(spec)
    from .scalar import never_asked  # here: scalar imports this module
    mod.__dict__.update({"asked_always": never_asked, **rules})
    with _caching_into(cache_dir(game, folder)):
        spec.loader.exec_module(mod)
    sys.modules[name] = mod
    return mod


def is_cached(path: Path) -> bool:
    """Whether a game's cache folder holds compiled code (else the first run compiles)."""
    return path.is_dir() and any(path.rglob("*.nbi"))


def set_threads(n: int | None) -> int:
    """Run batches on `n` threads (None: all cores numba sees; 1, the default: no threads).
    Returns the number now in use."""
    global _threads
    limit = numba.config.NUMBA_NUM_THREADS
    n = limit if n is None else int(n)
    if not 1 <= n <= limit:
        raise ValueError(f"threads must be in 1..{limit} (numba's thread limit), got {n}")
    _threads = n
    if n > 1:
        numba.set_num_threads(n)
    return n


def threads() -> int:
    """The number of threads batches run on (1: none)."""
    return _threads


if os.environ.get("HEISTBENCH_THREADS"):
    set_threads(int(os.environ["HEISTBENCH_THREADS"]))
