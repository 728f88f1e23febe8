from skat_env.core.cards import mask_of, names_of, parse_cards
from skat_env.core.tables import (
    CLUBS_GAME,
    DIAMONDS_GAME,
    EFFECTIVE_SUIT,
    FOLLOW_MASK,
    GRAND,
    HEARTS_GAME,
    HIGHER,
    LOWER,
    NULL,
    SPADES_GAME,
    TRUMP,
)
from skat_env.core.tricks import beats, legal_cards, trick_winner


def legal(hand: str, game: int, led: str | None) -> list[str]:
    led_id = parse_cards(led)[0] if led else -1
    return sorted(names_of(legal_cards(mask_of(parse_cards(hand)), game, led_id)))


def winner(game: int, cards: str) -> int:
    return trick_winner(game, parse_cards(cards))


def test_follow__jack_is_trump_not_its_printed_suit():
    # Hearts game, SA led: SJ is a trump, so the hand has no spade and may play anything.
    assert legal("SJ H7 D7 C7", HEARTS_GAME, "SA") == sorted(["SJ", "H7", "D7", "C7"])


def test_follow__null_jacks_follow_their_printed_suit():
    assert legal("SJ H7 D7 C7", NULL, "SA") == ["SJ"]


def test_follow__grand_jack_led_requires_a_jack():
    assert legal("DJ CA C7 HA", GRAND, "CJ") == ["DJ"]
    assert legal("CA C7 HA", GRAND, "CJ") == sorted(["CA", "C7", "HA"])


def test_follow__trump_suit_led_by_a_jack_requires_trump_suit_cards():
    assert legal("HA H7 SA", HEARTS_GAME, "DJ") == ["H7", "HA"]
    assert legal("HA H7 SA", SPADES_GAME, "DJ") == ["SA"]


def test_follow__led_suit_must_be_followed_and_trump_is_not_the_suit():
    assert legal("CA DJ D7", DIAMONDS_GAME, "C9") == ["CA"]
    assert legal("DJ D7 HA", DIAMONDS_GAME, "C9") == sorted(["DJ", "D7", "HA"])


def test_follow__anything_when_leading():
    assert legal("CA DJ D7", CLUBS_GAME, None) == sorted(["CA", "DJ", "D7"])


def test_effective_suit__jacks_and_trump_suit():
    cj, ha, h7 = parse_cards("CJ HA H7")
    assert EFFECTIVE_SUIT[HEARTS_GAME][cj] == TRUMP
    assert EFFECTIVE_SUIT[HEARTS_GAME][ha] == TRUMP
    assert EFFECTIVE_SUIT[GRAND][ha] != TRUMP
    assert EFFECTIVE_SUIT[NULL][cj] == EFFECTIVE_SUIT[NULL][parse_cards("C7")[0]]
    assert EFFECTIVE_SUIT[NULL][h7] == EFFECTIVE_SUIT[NULL][ha]


def test_winner__suit_game():
    assert winner(HEARTS_GAME, "SA S7 H7") == 2  # lowest trump beats the led ace
    assert winner(HEARTS_GAME, "HA DJ HT") == 1  # any jack beats the trump ace
    assert winner(HEARTS_GAME, "SJ CJ HJ") == 1  # CJ is the top trump
    assert winner(HEARTS_GAME, "ST SA CA") == 1  # off-suit ace does not win
    assert winner(CLUBS_GAME, "ST SK SQ") == 0  # ten beats king in suit games
    assert winner(CLUBS_GAME, "S9 ST DA") == 1


def test_winner__grand():
    assert winner(GRAND, "CA DJ CT") == 1  # only jacks are trumps
    assert winner(GRAND, "HA HT H7") == 0
    assert winner(GRAND, "DJ HJ SJ") == 2
    assert winner(GRAND, "SA ST HA") == 0


def test_winner__null():
    assert winner(NULL, "ST SJ S9") == 1  # jack above ten in null
    assert winner(NULL, "SQ SK SA") == 2
    assert winner(NULL, "S7 HA CA") == 0  # no trumps
    assert winner(NULL, "HT H9 HJ") == 2


def test_higher_and_lower_sets_agree_with_beats():
    """``tables.HIGHER`` / ``LOWER`` (the players' card-set form of the ranking) say what
    :func:`beats` says for every pair of cards of one effective suit, in every game."""
    for g in range(6):
        for c in range(32):
            for d in range(32):
                same = FOLLOW_MASK[g][c] >> d & 1
                assert bool(HIGHER[g][c] >> d & 1) == bool(same and beats(g, d, c))
                assert bool(LOWER[g][c] >> d & 1) == bool(same and d != c and beats(g, c, d))
