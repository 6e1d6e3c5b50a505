"""Glicko-2 updates and the casual rules (app/ratings/service.py), without a server."""

from __future__ import annotations

from types import SimpleNamespace

from app.ratings.service import START, casual_reason, updated


def seat(side: str, ident: str | None, bot: bool = False) -> SimpleNamespace:
    return SimpleNamespace(side=side, identity_id=ident, is_bot=bot, bot_reason=None)


def game(**kw: object) -> SimpleNamespace:
    base = {"rated": True, "turn": 3, "seats": [seat("AXIS", "a"), seat("ALLIES", "b")]}
    return SimpleNamespace(**{**base, **kw})


def test_glickman_example_rating_period() -> None:
    """Glickman's worked example ("Example of the Glicko-2 system", 2013): a 1500/200
    player beating 1400/30 and losing to 1550/100 and 1700/300 ends at 1464.06 / 151.52
    (the paper's rounded steps; the library 1464.05);
    one composite opponent of equal strength gives the same direction for one game."""
    from glicko2 import Player

    p = Player(rating=1500, rd=200, vol=0.06)
    p.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert abs(p.getRating() - 1464.06) < 0.05 and abs(p.getRd() - 151.52) < 0.05
    won = updated(START, [START], 1.0)
    lost = updated(START, [START], 0.0)
    drawn = updated(START, [START], 0.5)
    assert won[0] > 1500 > lost[0] and round(drawn[0], 6) == 1500 and won[1] < 350


def test_team_result_against_the_opposing_humans_as_one() -> None:
    """Overlord: each human of the winning side gains, against the opponents' mean."""
    strong, weak = (1800.0, 60.0, 0.06), (1200.0, 60.0, 0.06)
    vs_mixed = updated(START, [strong, weak], 1.0)
    vs_equal = updated(START, [(1500.0, 60.0, 0.06)], 1.0)
    assert round(vs_mixed[0], 6) == round(vs_equal[0], 6)  # mean 1500, same deviation
    assert updated(START, [strong], 1.0)[0] > vs_equal[0]  # a stronger side: more


def test_casual_reasons() -> None:
    accounts = {"a", "b"}
    assert casual_reason(game(), accounts, False) is None
    assert casual_reason(game(rated=False), accounts, False) == "casual"
    assert (
        casual_reason(
            game(seats=[seat("AXIS", "a"), seat("ALLIES", None, bot=True)]),
            accounts,
            False,
        )
        == "bot"
    )
    assert casual_reason(game(), {"a"}, False) == "guest"
    assert casual_reason(game(turn=1), accounts, False) == "before_turn_2"
    assert casual_reason(game(turn=None), accounts, False) == "before_turn_2"
    assert casual_reason(game(), accounts, True) == "undo"
