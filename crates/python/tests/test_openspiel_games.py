"""Every game of the catalog as an OpenSpiel game (`senat.openspiel`).

OpenSpiel's own random-simulation check (`pyspiel.random_sim_test`, with
serialisation) runs on every game, and OpenSpiel's Python MCTS bot plays
its uniform random bot on every game, unchanged (its C++ MCTS bot too, on
two games), and outcome-sampling MCCFR runs a few iterations on 2-player
dominoes, and its Python ISMCTS bot plays there (resampling through
`senat.Position.resample`). `open_spiel` comes from PyPI (`.ci/run`
installs it); the module is skipped, loudly, without it.
"""

import copy
import pickle

import numpy as np
import pytest

import senat

pyspiel = pytest.importorskip(
    "pyspiel", reason="!! open_spiel is not installed: the OpenSpiel games are NOT checked"
)
import senat.openspiel as so  # noqa: E402

so.register()

EVERY = ["senat", "senat_focus", "senat_focus4", "senat_debacle", "senat_dominoes", "senat_connect4"]


def test_register_names_every_game_once():
    assert so.register() == EVERY
    assert set(so.NAMES.values()) == set(senat.GAMES)
    assert all(name in pyspiel.registered_names() for name in EVERY)


@pytest.mark.parametrize(
    "name, params",
    [(n, {}) for n in EVERY] + [("senat_dominoes", {"players": 3}), ("senat_connect4", {"width": 5, "height": 4})],
)
def test_random_simulation_check(name, params):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_game_types_and_infos():
    t = pyspiel.load_game("senat_dominoes").get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.provides_information_state_tensor
    for name in EVERY:
        game = pyspiel.load_game(name)
        t = game.get_type()
        assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
        if name != "senat_dominoes":
            assert t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
            assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    c4 = pyspiel.load_game("senat_connect4(width=5,height=4)")
    assert (c4.num_distinct_actions(), c4.max_game_length(), c4.num_players()) == (5, 20, 2)
    assert c4.observation_tensor_shape() == [3, 4, 5]
    assert pyspiel.load_game("senat_focus4").num_players() == 4
    assert pyspiel.load_game("senat_dominoes", {"players": 3}).num_players() == 3
    with pytest.raises(senat.Error, match="parameter `colour`"):
        so.variant_text("connect4", {"colour": "red"})


def test_actions_tensors_and_serialisation_agree_with_the_package():
    game = pyspiel.load_game("senat_connect4")
    s = game.new_initial_state()
    for a in [3, 3, 4]:
        assert s.action_to_string(s.current_player(), a) == str(a + 1)
        s.apply_action(a)
    assert str(s) == "445"
    assert s.observation_tensor(0) == senat.Position("connect4", "445").tensor(0)
    t = game.deserialize_state(s.serialize())
    assert str(t) == str(s) and t.history() == s.history()
    assert str(pickle.loads(pickle.dumps(s))) == "445"
    d = pyspiel.load_game("senat_dominoes").new_initial_state()
    assert d.is_chance_node() and len(d.chance_outcomes()) == 28
    while d.is_chance_node():
        d.apply_action(d.chance_outcomes()[0][0])
    p = d.position
    assert d.information_state_string(1) == p.observation(1).text
    assert np.array_equal(d.information_state_tensor(0), np.array(p.tensor(0), np.float32))
    assert d.information_state_tensor(0) != d.information_state_tensor(1)
    assert copy.deepcopy(p) == p


@pytest.mark.parametrize(
    "name, params",
    [
        ("senat", {"closure": 8}),
        ("senat_focus", {"cap": 30}),
        ("senat_focus4", {"cap": 30}),
        ("senat_debacle", {"rounds": 1, "turns": 6}),
        ("senat_dominoes", {"rules": "openspiel"}),
        ("senat_connect4", {}),
    ],
)
def test_mcts_bot_plays_the_random_bot(name, params):
    from open_spiel.python.algorithms import evaluate_bots, mcts
    from open_spiel.python.bots import uniform_random

    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(7)
    n = game.num_players()
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 2.0, 12, evaluator, random_state=rng)] + [
        uniform_random.UniformRandomBot(p, rng) for p in range(1, n)
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == n and abs(sum(returns)) < 1e-9


@pytest.mark.parametrize("name, params", [("senat_connect4", {}), ("senat_dominoes", {"rules": "openspiel"})])
def test_the_cpp_mcts_bot_plays_the_random_bot(name, params):
    game = pyspiel.load_game(name, params)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 3)
    bots = [pyspiel.MCTSBot(game, evaluator, 2.0, 20, 1000, False, 5, False), pyspiel.make_uniform_random_bot(1, 7)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 11)
    assert len(returns) == 2 and abs(sum(returns)) < 1e-9


def test_outcome_sampling_mccfr_runs_on_two_player_dominoes():
    """One of OpenSpiel's information-set algorithms, unchanged, on a small
    dominoes variant (one round to one point): outcome-sampling MCCFR for a
    few iterations, its average policy a distribution over the legal
    actions."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = pyspiel.load_game("senat_dominoes", {"target": 1, "rounds": 1})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(30):
        solver.iteration()
    policy = solver.average_policy()
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 6:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        probs = policy.action_probabilities(state)
        assert set(probs) == set(state.legal_actions())
        assert abs(sum(probs.values()) - 1.0) < 1e-9
        state.apply_action(max(probs, key=probs.get))
        decisions += 1
    assert decisions > 0


def test_python_ismcts_bot_plays_two_player_dominoes():
    """OpenSpiel's Python ISMCTS bot, unchanged, on 2-player dominoes (one
    round to one point): it resamples the hidden tiles through the state's
    `resample_from_infostate` (`senat.Position.resample`), and its moves
    are legal. (Its C++ ISMCTS bot cannot call a Python game's resampling:
    pyspiel does not forward it.)"""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("senat_dominoes", {"target": 1, "rounds": 1})
    rng = np.random.RandomState(5)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 20, random_state=rng)
    for seat in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            elif state.current_player() == seat:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        assert abs(sum(state.returns())) < 1e-9


def test_resample_keeps_what_the_player_sees():
    p = senat.Position.start("dominoes")
    while p.is_chance:
        p = p.play_action(p.chance_actions()[0][0])
    seat = p.current_player
    drawn = [p.resample(seat, seed) for seed in range(1, 6)]
    assert all(q.observation(seat).text == p.observation(seat).text for q in drawn)
    assert len({q.text for q in drawn} | {p.text}) > 1
    assert p.observation(seat).resample(seat, 3).observation(seat).text == p.observation(seat).text
    with pytest.raises(senat.Error, match="perfect information"):
        senat.Position.start("connect4").resample(0)
