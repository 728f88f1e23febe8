"""skat_env.search.pimc: the search's settings, the utility it maximises and the expected
score of a contract over worlds (the PIMC player itself is tests/test_pimc.py)."""

from __future__ import annotations

import pytest

from skat_env.core.cards import FULL_DECK
from skat_env.core.scoring import Contract
from skat_env.core.tables import NULL
from skat_env.search.pimc import Outcome, SearchConfig, expected_score, utility


def test_search_config_rejects_bad_values() -> None:
    for kw in ({"worlds": 0}, {"seconds": 0.0}, {"pool": 0}, {"budget": -1.0}):
        with pytest.raises(ValueError):
            SearchConfig(**kw)


def test_utility_tracks_the_score() -> None:
    """More card points never lower the declarer's utility; 61 and 90 are steps."""
    c = Contract(0)
    twelve = FULL_DECK & 0xFFF  # clubs and spades top cards: with matadors
    values = [utility(c, 18, twelve, p) for p in range(121)]
    assert all(b >= a for a, b in zip(values, values[1:], strict=False))
    assert values[61] - values[60] > 100 and values[90] > values[89]
    null = Contract(NULL)
    assert utility(null, 23, 0, 1) > 0 > utility(null, 23, 0, 0)


def test_expected_score_rules() -> None:
    """Won: value + 50; lost: -2 value - 50; below the bid: lost at the overbid value;
    slack moves a share of the losses to wins."""
    c = Contract(0)  # clubs, base 12
    outs = [Outcome(True, 36, 1.0), Outcome(False, 36, 1.0)]
    assert expected_score(outs, c, 36) == ((36 + 50) + (-2 * 36 - 50)) / 2
    assert expected_score(outs, c, 40) == -2 * 48 - 50  # overbid: next multiple of 12
    assert expected_score(outs, c, 36, slack=0.5) > expected_score(outs, c, 36)
    assert expected_score(outs, c, 36, slack=1.0) == 36 + 50
    close = [Outcome(0.5, 36, 1.0)]  # unsettled within the node limit: half a win
    assert expected_score(close, c, 36) == expected_score(outs, c, 36)
