"""The response windows: who is asked, and when."""

from heistbench.envs.vaults.kernel import WIN_ACTION, Vaults

from .helpers import legal, play, scenario
from .test_scenarios import (
    ALARM,
    CRACK0,
    CREW0,
    DRAW,
    HEAVY,
    MECHANIC,
    PASS,
    PILE1,
    PILES_V1,
    TINKER,
)


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
    play(g, st, PASS)
    assert st.current_player[0] == 0 and st.win_kind[0] == 0
    play(g, st, TINKER, CREW0)
    assert st.current_player[0] == 1
