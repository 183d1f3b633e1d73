"""The core response-window mechanism, and how Vaults uses it."""

import numpy as np
from heistbench.envs.core import windows as win
from heistbench.envs.vaults.kernel import WIN_ACTION, Vaults

from .helpers import legal, play, scenario
from .test_scenarios import ALARM, CRACK0, CREW0, DRAW, HEAVY, MECHANIC, PILE1, PILES_V1, TINKER


def _state(batch: int) -> win.WindowState:
    z = np.zeros(batch, np.int8)
    return win.WindowState(current_player=z.copy(), legal_action_mask=np.zeros((batch, 1), bool),
                           terminated=z.astype(bool), truncated=z.astype(bool),
                           rewards=np.zeros((batch, 4), np.float32),
                           steps=np.zeros(batch, np.int32), key=np.zeros(batch, np.uint64),
                           **win.window_arrays(batch))


def test_visits_left_of_active_with_active_last_and_closes_after_a_cycle():
    st = _state(1)
    g = np.array([0])
    win.open_window(st, g, 1, np.array([2]))
    can = np.ones((1, 4), bool)
    seen = []
    for _ in range(4):
        s = win.next_responder(st, g, can, 4)
        seen.append(int(s[0]))
        win.record_pass(st, g)
    assert seen == [3, 0, 1, 2]
    assert win.next_responder(st, g, can, 4)[0] == -1 and st.win_kind[0] == win.NO_WINDOW


def test_skips_count_as_passes_and_a_response_restarts_the_count():
    st = _state(2)
    g = np.array([0, 1])
    win.open_window(st, g, 1, np.array([0, 0]))
    can = np.array([[False, False, True], [False, False, False]])
    s = win.next_responder(st, g, can, 3)
    assert s.tolist() == [2, -1]  # game 1: nobody may respond, closes at once
    win.record_response(st, g[:1])
    s = win.next_responder(st, g[:1], can[:1], 3)
    assert s.tolist() == [2]  # seats 0 and 1 skipped, 2 passes so far: 2 may still act
    win.record_pass(st, g[:1])
    assert win.next_responder(st, g[:1], can[:1], 3).tolist() == [-1]


def test_no_windows_option():
    g = Vaults(num_players=2, auto_forced=False, first_player=0, response_windows="none")
    st = scenario(g, hands={1: [ALARM]}, piles=PILES_V1, crews={(0, 0): [HEAVY, MECHANIC]})
    play(g, st, CRACK0, PILE1)
    assert st.loot[0, 0] == 50 and st.current_player[0] == 0


def test_every_action_window_skips_the_active_player():
    g = Vaults(num_players=2, auto_forced=False, first_player=0,
               response_windows="every_action")
    st = scenario(g, hands={0: [TINKER, ALARM], 1: [ALARM]}, piles=PILES_V1,
                  crews={(0, 0): [HEAVY, MECHANIC]})
    play(g, st, DRAW)
    assert st.current_player[0] == 1 and st.win_kind[0] == WIN_ACTION
    assert ALARM not in legal(st)  # Lockdown is for crack windows; no tool for effect B
    play(g, st, 93)
    assert st.current_player[0] == 0 and st.win_kind[0] == 0
    play(g, st, TINKER, CREW0)
    assert st.current_player[0] == 1
