"""Compiled scalar helpers that every game's rules call: the counter-based RNG (exactly the
streams of `rng.py`), draws from bags of counts, the terminal rewards, the observation
writers, and the cache prefetch of the batch loops.

Each works on one game: a key, a stream and a counter in, one number out. `NUMBA_DISABLE_JIT=1`
runs them as plain Python on NumPy scalars with the same results.
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import binding as llvm
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from .jit import jit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
INV53 = 1.0 / float(1 << 53)
U30, U27, U31, U11, ONE = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11), np.uint64(1)


@jit
def mix(z: np.uint64) -> np.uint64:
    """SplitMix64 finaliser (rng._mix on one value)."""
    z = (z ^ (z >> U30)) * M1
    z = (z ^ (z >> U27)) * M2
    return z ^ (z >> U31)


@jit
def bits(key: np.uint64, stream: int, counter: np.uint64) -> np.uint64:
    """64 random bits for (key, stream, counter): rng.bits on one value."""
    inner = mix(np.uint64(stream + 1) * GOLDEN + np.uint64(counter))
    return mix(np.uint64(key) ^ inner)


@jit
def uniform(key: np.uint64, stream: int, counter: np.uint64) -> float:
    """A uniform float in [0, 1) with 53-bit resolution: rng.uniform on one value."""
    return float(bits(key, stream, counter) >> U11) * INV53


@jit
def permutation(key: np.uint64, stream: int, n: int) -> np.ndarray:
    """A uniform random permutation of range(n): row of rng.permutations (stable argsort)."""
    u = np.empty(n, np.uint64)
    for i in range(n):
        u[i] = bits(key, stream, np.uint64(i))
    return stable_order(u)


@jit
def stable_order(u: np.ndarray) -> np.ndarray:
    """The indices that sort u, equal values in index order (np.argsort(kind="stable")). An
    insertion sort: the arrays here are a deck long, and numba's argsort costs seconds of
    compile time."""
    n = u.shape[0]
    order = np.arange(n)
    for i in range(1, n):
        k = order[i]
        j = i - 1
        while j >= 0 and u[order[j]] > u[k]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = k
    return order


@jit
def draw_from_counts(counts: np.ndarray, u: float) -> int:
    """Index drawn uniformly from a bag of counts with the uniform u (rng.draw_from_counts on
    one row); -1 when the bag is empty."""
    total = 0
    for k in range(counts.shape[0]):
        total += int(counts[k])
    if total <= 0:
        return -1
    target = int(np.floor(u * total))
    cum = 0
    for k in range(counts.shape[0]):
        cum += int(counts[k])
        if cum > target:
            return k
    return counts.shape[0]


@jit
def single_legal(mask: np.ndarray) -> int:
    """The only legal action of a mask, or -1 when there are none or several."""
    found = -1
    for a in range(mask.shape[0]):
        if mask[a]:
            if found >= 0:
                return -1
            found = a
    return found


@jit(inline="always")
def never_asked(g, c) -> bool:
    """The drivers' default `asked_always`: every single-option decision may be played
    without asking (with auto_forced)."""
    return False


@jit(inline="always")
def game_over(g) -> None:
    """The game is over by the rules: nobody is to act. The drivers then hand out the rewards
    of the final tally (`drivers.tally_rewards`)."""
    g.terminated = 1
    g.current_player = -1
    g.legal_action_mask[:] = 0


@jit
def terminal_rewards(rewards: np.ndarray, keys: np.ndarray, scores: np.ndarray,
                     kind: int, scale: float) -> None:
    """Zero-sum rewards of one finished game (Game.terminal_rewards on one row), by the index
    `kind` of options.REWARD_MODES: winners by rank key share +1 and the others -1
    (win_loss), the score margin over the others' mean / scale (score), or
    (N - 1 - 2 rank) / (N - 1) with tied players sharing their average rank (rank). A solo
    game (N = 1) wins when its rank key is positive: +1, else -1; score: its score / scale."""
    n = keys.shape[0]
    if n == 1:  # a solo game: its rank key says whether the objective was met
        if kind == 1:
            rewards[0] = np.float32(float(scores[0]) / scale)
        else:
            rewards[0] = np.float32(1.0 if keys[0] > 0 else -1.0)
        return
    if kind == 1:
        total = 0.0
        for p in range(n):
            total += float(scores[p])
        for p in range(n):
            s = float(scores[p])
            rewards[p] = np.float32((s - (total - s) / (n - 1)) / scale)
        return
    if kind == 2:
        for p in range(n):
            above, tied = 0, 0
            for q in range(n):
                above += keys[q] > keys[p]
                tied += keys[q] == keys[p]
            rank = above + (tied - 1) / 2
            rewards[p] = np.float32((n - 1 - 2 * rank) / (n - 1))
        return
    best = keys[0]
    for p in range(1, n):
        if keys[p] > best:
            best = keys[p]
    k = 0
    for p in range(n):
        if keys[p] == best:
            k += 1
    losers = n - k
    for p in range(n):
        if losers == 0:
            rewards[p] = 0.0
        elif keys[p] == best:
            rewards[p] = np.float32(1.0 / k)
        else:
            rewards[p] = np.float32(-1.0 / losers)


# == observation writers: one value or one one-hot at column i, returning the next column ==
@jit
def put(out: np.ndarray, i: int, v, scale: float) -> int:
    """A count times its scale, in float32."""
    out[i] = np.float32(v) * np.float32(scale)
    return i + 1


@jit(inline="always")
def put_all(out: np.ndarray, i: int, src: np.ndarray, scale: float) -> int:
    """`put` of each value of a 1-D array in turn (Grifters measured a `put` per value of its
    19-value arrays faster: taking the sub-array view costs more than the loop saves)."""
    s = np.float32(scale)
    n = src.shape[0]
    for k in range(n):
        out[i + k] = np.float32(src[k]) * s
    return i + n


@jit
def put_capped(out: np.ndarray, i: int, v, scale: float) -> int:
    """A count times its scale, in float32, capped at 1."""
    out[i] = min(np.float32(v) * np.float32(scale), np.float32(1.0))
    return i + 1


@jit
def put_hot(out: np.ndarray, i: int, size: int, k: int) -> int:
    """A one-hot of `size` columns, hot at k (none when k is outside 0..size-1)."""
    for x in range(size):
        out[i + x] = 1.0 if x == k else 0.0
    return i + size


@jit(inline="always")
def mark_hot(out: np.ndarray, i: int, size: int, k: int) -> int:
    """`put_hot` into a row zeroed beforehand: only the hot column is written."""
    hot = (k >= 0) & (k < size)  # no branch: a branch on `out` keeps its refcount calls
    out[i + k * hot] = np.float32(hot)
    return i + size


# == memory: the cache ahead of a batch loop ==================================================
CACHE_LINE = 64
# the intrinsic's name is mangled by pointer type: LLVM 17 and later know only opaque pointers
_PREFETCH = "llvm.prefetch.p0" if llvm.llvm_version_info >= (17,) else "llvm.prefetch.p0i8"


def _prefetcher(context, builder, sig, args, index):
    """The start (as a byte pointer) of `args[0][index]` and a function `fetch(offset, write)`
    that emits `llvm.prefetch` (keep in all cache levels) of the line at that byte offset."""
    aryty = sig.args[0]
    ary = context.make_array(aryty)(context, builder, args[0])
    byte = ir.IntType(8).as_pointer()
    start = builder.bitcast(cgutils.get_item_pointer(context, builder, aryty, ary, index,
                                                     wraparound=False), byte)
    i32 = ir.IntType(32)
    fn = cgutils.get_or_insert_function(
        builder.module, ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32]), _PREFETCH)

    def fetch(offset, write: int) -> None:
        builder.call(fn, [builder.gep(start, [offset]), i32(write), i32(3), i32(1)])
    return ary, fetch


def _prefetch_codegen(context, builder, sig, args):
    """Every cache line of record i, for reading (its size is known when compiling)."""
    _, fetch = _prefetcher(context, builder, sig, args, [args[1]])
    size = context.get_abi_sizeof(context.get_data_type(sig.args[0].dtype))
    for offset in (*range(0, size, CACHE_LINE), size - 1):  # the last line too, if unaligned
        fetch(ir.Constant(ir.IntType(64), offset), 0)
    return context.get_dummy_value()


def _prefetch_row_codegen(context, builder, sig, args):
    """Every cache line of row i of a C-contiguous 2-D array, for writing."""
    zero = context.get_constant(types.intp, 0)
    ary, fetch = _prefetcher(context, builder, sig, args, [args[1], zero])
    row_bytes = cgutils.unpack_tuple(builder, ary.strides, 2)[0]
    line = context.get_constant(types.intp, CACHE_LINE)
    lines = builder.sdiv(builder.add(row_bytes, context.get_constant(types.intp, CACHE_LINE - 1)),
                         line)
    with cgutils.for_range(builder, lines) as loop:
        fetch(builder.mul(loop.index, line), 1)
    return context.get_dummy_value()


if numba.config.DISABLE_JIT:
    def prefetch(records: np.ndarray, i: int) -> None:
        """Plain Python has no cache to warm."""

    def prefetch_row(rows: np.ndarray, i: int) -> None:
        """Plain Python has no cache to warm."""
else:
    @intrinsic
    def prefetch_row(typingctx, rows, i):
        """Start fetching row i of an output array for writing, ahead of the game that
        writes it: a row is written column by column, and each first write to a cache line
        not in the cache waits for memory."""
        return types.void(rows, i), _prefetch_row_codegen

    @intrinsic
    def prefetch(typingctx, records, i):
        """Start loading the game record `records[i]` into the cache while the current game
        is worked on: a game's observation reads its record out of order, and a batch is far
        larger than the cache, so without it each read waits on memory in turn."""
        return types.void(records, i), _prefetch_codegen
