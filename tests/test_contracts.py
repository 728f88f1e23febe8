"""The learned contract model: features, inference, expected scores, data, training, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat_env.agents.contract_model import (
    HAND_FEATURES,
    HEADS,
    N_FEATURES,
    SEARCH_MODEL,
    ContractModel,
    expected_utility,
    features,
    load_default,
    matadors_of,
)
from skat_env.agents.heuristic import HeuristicAgent
from skat_env.cli import contracts as cli
from skat_env.core.cards import parse_cards
from skat_env.core.game import SKAT, Game
from skat_env.core.scoring import matadors
from skat_env.core.tables import BID_VALUES
from skat_env.encoding.view import player_view
from skat_env.training import contract_data as cd
from skat_env.training.contract_train import calibration, inputs, targets, train, widened

hands = st.lists(st.integers(0, 31), min_size=10, max_size=10, unique=True)


def cards(names: str) -> int:
    return sum(1 << c for c in parse_cards(names))


def swap_suits(mask: int, a: int, b: int) -> int:
    """The card set with printed suits ``a`` and ``b`` exchanged (jacks stay: their order
    is fixed in every trump game)."""
    out = 0
    for c in range(32):
        if mask >> c & 1 and c & 7 == 3:
            out |= 1 << c
        elif mask >> c & 1:
            s = c >> 3
            s = b if s == a else a if s == b else s
            out |= 1 << (s * 8 + (c & 7))
    return out


# --- features and model ----------------------------------------------------------------


@pytest.mark.slow
@given(hands, st.sampled_from([(0, 1), (0, 3), (1, 2), (2, 3)]), st.integers(0, 2))
def test_features__the_same_game_in_another_suit_has_the_same_features(hand, pair, position):
    a, b = pair
    ten = sum(1 << c for c in hand)
    x = features(np.array([ten]), np.array([0]), np.array([a]), np.array([1]), np.array([position]))
    swapped = swap_suits(ten, a, b)
    y = features(np.array([swapped]), np.array([0]), np.array([b]), np.array([1]),
                 np.array([position]))  # fmt: skip
    assert x.shape == (1, N_FEATURES)
    np.testing.assert_array_equal(x, y)


def test_features__trumps_first_then_the_longest_side_suit():
    ten = cards("CJ HJ SA ST S9 HA H7 D8 DK DQ")  # spades game: 2 jacks + 3 spades
    x = features(np.array([ten]), np.array([cards("S7 C7")]), np.array([1]), np.array([0]),
                 np.array([0]))[0]  # fmt: skip
    # jacks CJ SJ HJ DJ, then spades A T K Q 9 8 7, then diamonds (3: K Q 8), hearts, clubs
    assert x[:11].tolist() == [1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0]
    assert x[11:18].tolist() == [0, 0, 1, 1, 0, 1, 0]
    assert x[32 + 10] == 1 and x[32 + 31] == 1  # buried S7 (trump 7) and C7 (clubs 7)


@pytest.mark.slow
@given(st.lists(hands, min_size=1, max_size=5), st.lists(st.integers(0, 4), min_size=5, max_size=5))
def test_matadors_of__agrees_with_the_scoring_rules(hs, kinds):
    sets = [sum(1 << c for c in h) for h in hs]
    ks = kinds[: len(sets)]
    got = matadors_of(np.array(ks), np.array(sets))
    assert got.tolist() == [matadors(k, s) for k, s in zip(ks, sets, strict=True)]


def test_features__the_auction_columns_are_the_opponents_bids_higher_first():
    ten = np.array([cards("CJ HJ SA ST S9 HA H7 D8 DK DQ")] * 2)
    args = (ten, np.zeros(2, np.int64), np.array([1, 4]), np.ones(2, np.int64), np.array([0, 2]))
    x = features(*args, opponents=(20, 36))
    np.testing.assert_array_equal(x, features(*args, opponents=np.array([[36, 20], [36, 20]])))
    np.testing.assert_allclose(x[:, HAND_FEATURES:], [[36 / 30, 20 / 30, 0]] * 2, rtol=1e-6)
    nobody = features(*args, opponents=(0, 0))  # both passed without a bid
    assert nobody[:, HAND_FEATURES:].tolist() == [[0, 0, 0]] * 2
    running = features(*args)  # the auction not over: bids not known
    assert running[:, HAND_FEATURES:].tolist() == [[0, 0, 1]] * 2
    np.testing.assert_array_equal(running[:, :HAND_FEATURES], x[:, :HAND_FEATURES])


def tiny_model(seed: int = 0, inputs: int = N_FEATURES) -> ContractModel:
    rng = np.random.default_rng(seed)
    w = [rng.normal(size=(inputs, 8)).astype(np.float32),
         rng.normal(size=(8, len(HEADS))).astype(np.float32)]  # fmt: skip
    b = [np.zeros(8, np.float32), rng.normal(size=len(HEADS)).astype(np.float32)]
    return ContractModel(np.zeros(inputs, np.float32), np.ones(inputs, np.float32),
                         w, b, {"test": True})  # fmt: skip


def test_a_model_without_the_auction_inputs_loads_and_ignores_them(tmp_path):
    tiny_model(4, HAND_FEATURES).save(tmp_path / "old.npz")
    old = ContractModel.load(tmp_path / "old.npz")
    assert old.n_inputs == HAND_FEATURES
    ten = np.array([cards("CJ SJ CA CT CK C9 SA HA D7 D8")])
    args = (ten, np.array([0]), np.array([0]), np.array([1]), np.array([2]))
    np.testing.assert_array_equal(old.predict(*args), old.predict(*args, opponents=(48, 30)))
    tiny_model(4, 50).save(tmp_path / "odd.npz")
    with pytest.raises(ValueError, match="wrong shape"):
        ContractModel.load(tmp_path / "odd.npz")


def test_widened__predicts_as_before_and_takes_the_new_inputs():
    old = tiny_model(5, HAND_FEATURES)
    rng = np.random.default_rng(5)
    sets = np.array([sum(1 << int(c) for c in rng.permutation(32)[:10]) for _ in range(20)])
    x = features(sets, np.zeros(20, np.int64), rng.integers(0, 7, 20), rng.integers(0, 2, 20),
                 rng.integers(0, 3, 20), rng.choice([0, 18, 24, 48], size=(20, 2)))  # fmt: skip
    wide = widened(old, x)
    assert wide.n_inputs == N_FEATURES and widened(wide, x) is wide
    np.testing.assert_allclose(wide.probabilities(x), old.probabilities(x), rtol=1e-5)


@pytest.mark.slow
@settings(max_examples=30)
@given(st.lists(hands, min_size=1, max_size=8), st.integers(0, 6), st.integers(0, 1000))
def test_probabilities__are_consistent(hs, kind, seed):
    sets = np.array([sum(1 << c for c in h) for h in hs])
    n = len(sets)
    p = tiny_model(seed).predict(sets, np.zeros(n, np.int64), np.full(n, kind), np.ones(n, int),
                                 np.zeros(n, int))  # fmt: skip
    win, sn, sw, lsn = p.T
    assert np.all((0 <= sw) & (sw <= sn) & (sn <= win) & (win <= 1))
    assert np.all((0 <= lsn) & (lsn <= 1 - win + 1e-7))


def test_model__save_and_load_give_the_same_predictions(tmp_path):
    m = tiny_model(3)
    m.save(tmp_path / "m.npz")
    back = ContractModel.load(tmp_path / "m.npz")
    x = features(np.array([cards("CJ SJ CA CT CK C9 SA HA D7 D8")]), np.array([0]),
                 np.array([0]), np.array([1]), np.array([2]))  # fmt: skip
    np.testing.assert_allclose(back.probabilities(x), m.probabilities(x), rtol=1e-6)
    assert back.meta == {"test": True}
    (tmp_path / "bad.npz").write_bytes(b"not a model")
    with pytest.raises(ValueError, match="not a contract model"):
        ContractModel.load(tmp_path / "bad.npz")


def test_the_shipped_model_loads_and_says_how_it_was_trained():
    m = load_default()
    plots = Path(__file__).resolve().parents[1] / "models"  # the docs' calibration plots
    assert (plots / "contracts.png").exists() and (plots / "contracts_search.png").exists()
    assert "command" in m.meta and m.meta["rows"] > 100_000
    search = ContractModel.load(SEARCH_MODEL)  # fine-tuned from it on search games
    assert search.meta["init"]["command"] == m.meta["command"]
    assert "--init" in search.meta["command"] and search.meta["rows"] > 30_000


# --- expected utility: worked examples ---------------------------------------------------


def test_expected_utility__worked_examples():
    sure_win, sure_loss = [1, 0, 0, 0], [0, 0, 0, 0]
    # clubs with 2 (value 3 x 12 = 36): win 36 + 50; loss -72 - 50 and the defenders' 2 x 40
    p = np.array([sure_win, sure_loss], dtype=float)
    u = expected_utility(p, np.array([0, 0]), np.array([0, 0]), np.array([2, 2]), 18)
    assert u.tolist() == [86, -202]
    # at bid 40 the clubs game worth 36 is overbid: lost at 48 (the next multiple of 12)
    u = expected_utility(p[:1], np.array([0]), np.array([0]), np.array([2]), 40)
    assert u.tolist() == [-96 - 50 - 80]
    # schneider made (p 1) adds a level: 4 x 12 = 48; announced schneider in a hand game
    # (with 2, hand, schneider, announced: 5 x 12) that is not made is lost
    p = np.array([[1, 1, 0, 0], [1, 0, 0, 0]], dtype=float)
    u = expected_utility(p, np.array([0, 0]), np.array([0, 1]), np.array([2, 2]), 18, [0, 1])
    assert u.tolist() == [48 + 50, -2 * 72 - 50 - 80]
    # null at 23: a 3 in 4 chance; at bid 24 null is not declarable
    p = np.array([[0.75, 0, 0, 0]])
    u = expected_utility(p, np.array([5]), np.array([0]), np.array([0]), 23)
    assert u.tolist() == [0.75 * 73 + 0.25 * (-46 - 50 - 80)]
    assert expected_utility(p, np.array([5]), np.array([0]), np.array([0]), 24)[0] == -np.inf


# --- the data generator ------------------------------------------------------------------


def test_deal_rows__are_a_function_of_seed_and_index():
    agent = cd.make_agent("heuristic")
    a = cd.deal_rows(7, 5, agent)
    assert a == cd.deal_rows(7, 5, agent) and a
    assert a != cd.deal_rows(8, 5, agent)
    for row in a:
        r = dict(zip(cd.COLUMNS, row, strict=True))
        assert r["kept"].bit_count() == 10 and r["position"] == 5 % 3
        assert r["buried"].bit_count() == (0 if r["hand"] else 2)
        assert not r["kept"] & r["buried"]


def test_auction__the_chosen_position_wins_at_the_bid_its_opponents_push_it_to():
    bidder, seen = HeuristicAgent(), set()
    for i in range(40):
        deal, position, _ = cd.deal_variants(5, i)
        game = cd.auction(deal, position, bidder)
        seat = game.seat_of(position)
        assert game.declarer == seat and game.phase == SKAT
        fresh = Game(deal, dealer=2)
        opp = [s for s in range(3) if s != seat]
        for s in opp:  # each opponent bid up to its own limit, no further
            assert game.bids[s] <= bidder.bid_limit(player_view(fresh, s))
        top = max(game.bids[s] for s in opp)
        nxt = BID_VALUES[BID_VALUES.index(top) + 1] if top else 18
        assert top <= game.bid <= nxt
        seen.add(top > 0)
        quiet = cd.auction(deal, position)
        assert quiet.bid == 18 and quiet.declarer == seat and not any(quiet.bids[s] for s in opp)
    assert seen == {True, False}


@pytest.mark.slow
def test_deal_rows__record_the_auction_and_play_no_null_below_the_bid():
    agent, bids = cd.make_agent("heuristic"), set()
    for i in range(60):
        for row in cd.deal_rows(2, i, agent, agent):
            r = dict(zip(cd.COLUMNS, row, strict=True))
            assert r["bid"] >= r["opp_high"] >= r["opp_low"] >= 0 and r["bid"] >= 18
            assert cd.playable(r["kind"], r["hand"], r["bid"])
            won = r["declarer_tricks"] == 0 if r["kind"] >= 5 else r["declarer_points"] >= 61
            assert r["won"] == won  # card play won, whatever the bid
            bids.add(r["bid"])
        for row in cd.deal_rows(2, i, agent):  # no auction: 18, the others' bids not known
            assert row[-3:] == (18, -1, -1)
    assert len(bids) > 3
    assert not cd.playable(5, 0, 24) and cd.playable(5, 0, 23) and cd.playable(6, 1, 59)
    assert cd.playable(0, 0, 60)


def test_load__reads_a_format_1_shard_as_bid_18_with_the_opponents_bids_not_known(tmp_path):
    cd.generate(tmp_path / "d", seed=3, deals=6, shard_deals=6, progress=False, bidder="")
    (shard,) = (tmp_path / "d").glob("shard_*.npz")
    with np.load(shard) as z:
        old = {k: z[k] for k in z.files if k not in ("bid", "opp_high", "opp_low")}
    np.savez(shard, **old)
    data = cd.load(tmp_path / "d")
    assert set(data["bid"]) == {18} and set(data["opp_high"]) == set(data["opp_low"]) == {-1}
    assert len(data["bid"]) == len(data["deal"])


def test_play_variant__declares_the_variant_at_18():
    deal = list(range(32))
    game = cd.play_variant(deal, 1, 6, 0, (1 << 10) | (1 << 31), cd.make_agent("heuristic"))
    assert game.result.contract == "null ouvert" and game.result.bid == 18
    assert game.declarer == game.seat_of(1) and game.discarded == (1 << 10) | (1 << 31)


def _rows(folder) -> dict:
    return {k: v.tolist() for k, v in cd.load(folder).items()}


@pytest.mark.slow
def test_generate__resumes_to_the_same_rows_with_any_worker_count(tmp_path):
    whole = cd.generate(tmp_path / "a", seed=3, deals=8, shard_deals=3, progress=False)
    assert whole["deals"] == 8 and whole["columns"] == cd.COLUMNS
    shards = sorted((tmp_path / "a").glob("shard_*.npz"))
    assert len(shards) == 3
    shards[1].unlink()  # an interrupted run: one shard missing
    cd.generate(tmp_path / "a", seed=3, deals=8, shard_deals=3, progress=False)
    cd.generate(tmp_path / "b", seed=3, deals=8, shard_deals=3, workers=2, progress=False)
    assert _rows(tmp_path / "a") == _rows(tmp_path / "b")
    assert sorted(set(_rows(tmp_path / "a")["deal"])) == list(range(8))
    with pytest.raises(ValueError, match="another dataset"):
        cd.generate(tmp_path / "a", seed=4, deals=8, shard_deals=3, progress=False)


# --- training, calibration, CLI ------------------------------------------------------------


def test_train__fits_and_reports_calibration(tmp_path):
    cd.generate(tmp_path / "d", seed=1, deals=60, shard_deals=30, progress=False)
    data = cd.load(tmp_path / "d")
    y, w = targets(data)
    null = data["kind"] >= 5
    assert (w[null, 1:] == 0).all() and (y[:, 0] == data["won"]).all()
    model = train(data, hidden=(8,), epochs=2, progress=False)
    cal = model.meta["calibration"]
    assert "suit" in cal and set(cal) <= {"suit", "grand", "null"}
    assert cal == calibration(model, data)
    assert sum(b["rows"] for b in cal["suit"]["bins"]) == cal["suit"]["rows"]


@pytest.mark.slow
def test_cli__generates_trains_and_refuses_to_overwrite(tmp_path, capsys):
    folder, out = tmp_path / "d", tmp_path / "m.npz"
    assert cli.main(["generate", str(folder), "--deals", "40", "--shard-deals", "20",
                     "--no-progress"]) == 0  # fmt: skip
    argv = ["train", str(folder), "--out", str(out), "--hidden", "8", "--epochs", "1"]
    assert cli.main(argv) == 0
    assert out.exists() and out.with_suffix(".png").exists()
    assert ContractModel.load(out).meta["command"].endswith("--epochs 1")
    assert cli.main(argv) == 2
    assert "exists" in capsys.readouterr().err
    assert cli.main(["generate", str(folder), "--deals", "0"]) == 2
    assert cli.main(["generate", str(folder), "--player", "nobody"]) == 2
    assert cli.main(["generate", str(folder), "--auction", "nobody"]) == 2
    manifest = json.loads((folder / "dataset.json").read_text())
    assert manifest["card_player"] == "heuristic" and manifest["auction"] == "heuristic"
    quiet = tmp_path / "q"
    assert cli.main(["generate", str(quiet), "--deals", "3", "--auction", "none",
                     "--no-progress"]) == 0  # fmt: skip
    assert json.loads((quiet / "dataset.json").read_text())["auction"] == ""
    assert set(cd.load(quiet)["bid"]) == {18}
    assert cli.main(["generate", str(quiet), "--deals", "6", "--no-progress"]) == 2  # other data


def test_train__init_fine_tunes_from_a_model_and_never_ends_worse(tmp_path, capsys):
    cd.generate(tmp_path / "d", seed=1, deals=80, shard_deals=40, progress=False)
    data = cd.load(tmp_path / "d")
    base = train(data, hidden=(8, 4), epochs=1, progress=False)
    same = train(data, epochs=0, progress=False, init=base)  # no epoch: the start is kept
    x = inputs(data)
    assert np.array_equal(same.probabilities(x), base.probabilities(x))
    assert [w.shape for w in same.weights] == [w.shape for w in base.weights]
    tuned = train(data, epochs=3, lr=1e-3, progress=False, init=base)
    loss = tuned.meta["held_out_loss"]
    assert len(loss) == 4 and min(loss) <= loss[0]  # the start competes with the epochs
    out = tmp_path / "tuned.npz"
    base.save(tmp_path / "base.npz")
    argv = ["train", str(tmp_path / "d"), "--out", str(out), "--epochs", "1",
            "--init", str(tmp_path / "base.npz"), "--lr", "1e-3"]  # fmt: skip
    assert cli.main(argv) == 0
    assert ContractModel.load(out).meta["init"]["path"] == str(tmp_path / "base.npz")
    assert cli.main([*argv[:-2], "--lr", "0", "--force"]) == 2
    assert "--lr must be in (0, 1)" in capsys.readouterr().err
    (tmp_path / "junk.npz").write_bytes(b"junk")
    assert cli.main([*argv[:6], "--init", str(tmp_path / "junk.npz"), "--force"]) == 2
    assert "not a contract model" in capsys.readouterr().err
