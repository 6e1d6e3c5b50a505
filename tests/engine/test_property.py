"""Random legal play over every scenario finishes without error; replay == live."""

import glob

import pytest

from engine import load_scenario, replay
from engine.bot import play_random_game
from tests.engine.paths import SCN_DIR

FILES = sorted(glob.glob(f"{SCN_DIR}/*.m44"))


def test_the_bundled_scenarios_are_found():
    """Guards the parametrised tests below against an empty (vacuous) file list (eight
    battles and the three lessons' boards)."""
    assert len(FILES) == 11


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.rsplit("/", 1)[-1])
def test_random_games_finish_and_replay_equals_live(path):
    scn = load_scenario(path)
    for seed in (1, 2):
        st, actions = play_random_game(scn, seed, max_turns=400, record=True)
        assert st.turn <= 401
        assert replay(scn, seed, actions) == st


def test_pegasus_random_games_mostly_finish():
    scn = load_scenario(f"{SCN_DIR}/2-PegasusBridge.m44")
    done = sum(play_random_game(scn, s, max_turns=600)[0].game_over for s in range(6))
    assert done >= 5


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.rsplit("/", 1)[-1])
def test_apply_never_changes_the_input_state(path):
    """Copy-on-write units: every rule takes a unit with ``state.mut`` before changing it,
    so the state passed to ``apply`` (shared units included) is never modified."""
    assert_apply_pure(load_scenario(path), 3)


def assert_apply_pure(scn, seed: int, max_turn: int = 60) -> None:
    """A random game in which every ``apply`` leaves its input state unchanged."""
    from engine import apply, is_chance, legal_actions, new_game, sample_chance, to_act
    from engine.bot import RandomBot

    st = new_game(scn, seed)
    bot = RandomBot(seed)
    while not st.game_over and st.turn <= max_turn:
        before = st.snapshot()
        a = sample_chance(st) if is_chance(st) else bot.rng.choice(legal_actions(st, to_act(st)[0]))
        new, _ = apply(st, a)
        assert st.snapshot() == before, a
        st = new


def test_cached_targets_and_moves_equal_uncached():
    """The memoised battle targets and movement searches give the uncached answers."""
    from engine import apply, is_chance, legal_actions, new_game, sample_chance, to_act
    from engine.bot import RandomBot
    from engine.procedures import battle as B
    from engine.procedures import movement as M

    for path in FILES[:4]:
        scn = load_scenario(path)
        st = new_game(scn, 7)
        bot = RandomBot(7)
        while not st.game_over and st.turn <= 40:
            play = st.play
            for uid in play.ordered if play else []:
                u = st.units.get(uid)
                if u is None:
                    continue
                assert B.targets(st, u, play) == B.targets_uncached(st, u, play)
                base = M.move_allowance(st, u, play)
                if base > 0:
                    assert M._search(st, u, play, None, False) == M._search_uncached(
                        st, u, play, base, False
                    )
            a = (
                sample_chance(st)
                if is_chance(st)
                else bot.rng.choice(legal_actions(st, to_act(st)[0]))
            )
            st, _ = apply(st, a)
