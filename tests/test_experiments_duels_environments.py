"""Matrices built from the data files (cdbandits.experiments.duels.environments)."""

import numpy as np
import pytest
from duels_cases import CYCLE, LINEAR

from cdbandits.experiments.duels.environments import (
    build_environment,
    environment_instance,
    environment_summary,
    has_population,
    read_environment,
    read_winner,
    subset_arms,
    write_environment,
    write_winner,
)
from cdbandits.experiments.duels.settings import DuelsEnvironment

ATP_HEADER = "tourney_id,winner_name,loser_name,score\n"

ADVERSARY = DuelsEnvironment.from_config(
    {"name": "adv", "kind": "online", "setting": "adversarial",
     "parameters": {"n_policies": 20, "n_contexts": 10, "margin": 0.6}},
    "e",
)  # fmt: skip


def atp_file(path, matches):
    path.write_text(
        ATP_HEADER + "".join(f"t,{won},{lost},{score}\n" for won, lost, score in matches)
    )
    return path


def test_atp_matrix_is_the_share_of_matches_won_among_the_top_players(tmp_path):
    first = atp_file(
        tmp_path / "a.csv",
        [("Ann", "Bea", "6-1 6-1"), ("Ann", "Bea", "6-1 6-1"), ("Bea", "Ann", "6-4 6-4")],
    )
    second = atp_file(
        tmp_path / "b.csv",
        [
            ("Cid", "Ann", "6-3 6-3"),
            ("Bea", "Cid", "6-2 6-2"),
            ("Cid", "Bea", "W/O"),  # a walkover is not a match played
            ("Dan", "Ann", "7-6 7-6"),
        ],
    )
    environment = DuelsEnvironment(
        name="atp",
        kind="atp",
        data=("atp_matches_2000", "atp_matches_2001"),
        title="ATP",
        players=3,
    )
    matrix, names = build_environment(environment, [first, second])
    # wins: Ann 2, Bea 2, Cid 1, Dan 1 -> Ann, Bea (ties by name), then Cid before Dan
    assert names == ("Ann", "Bea", "Cid")
    expected = np.array([[0.5, 2 / 3, 0.0], [1 / 3, 0.5, 1.0], [1.0, 0.0, 0.5]])
    np.testing.assert_allclose(matrix, expected)


def test_atp_pairs_that_never_met_stop_the_build(tmp_path):
    path = atp_file(tmp_path / "a.csv", [("Ann", "Bea", "6-1"), ("Cid", "Dan", "6-1")])
    environment = DuelsEnvironment(name="atp", kind="atp", data=("atp_matches_2000",), players=4)
    with pytest.raises(ValueError, match="never met"):
        build_environment(environment, [path])


def test_preflib_matrix_is_the_share_of_voters(tmp_path):
    path = tmp_path / "e.soc"
    path.write_text(
        "# DATA TYPE: soc\n# NUMBER ALTERNATIVES: 3\n# NUMBER VOTERS: 4\n"
        "# ALTERNATIVE NAME 1: x\n# ALTERNATIVE NAME 2: y\n# ALTERNATIVE NAME 3: z\n"
        "3: 1,2,3\n1: 3,2,1\n"
    )
    environment = DuelsEnvironment(
        name="vote", kind="preflib", data=("preflib_00052_00000058_soc",)
    )
    matrix, names = build_environment(environment, [path])
    assert names == ("x", "y", "z")
    np.testing.assert_allclose(matrix, [[0.5, 0.75, 0.75], [0.25, 0.5, 0.75], [0.25, 0.25, 0.5]])


def test_matrix_files_in_skew_form_become_probabilities(tmp_path):
    path = tmp_path / "m.npy"
    np.save(path, 2 * CYCLE - 1)
    environment = DuelsEnvironment(name="m", kind="matrix", data=("pref_arxiv",))
    matrix, names = build_environment(environment, [path])
    np.testing.assert_allclose(matrix, CYCLE)
    assert names == ("ranker 0", "ranker 1", "ranker 2", "ranker 3")


def test_a_subset_larger_than_the_matrix_is_refused(tmp_path):
    path = tmp_path / "m.npy"
    np.save(path, CYCLE)
    with pytest.raises(ValueError, match="arms = 5 exceeds the 4 arms of m.npy"):
        build_environment(
            DuelsEnvironment(name="m", kind="matrix", data=("pref_arxiv",), arms=5), [path]
        )


def test_subsets_are_drawn_per_seed_and_repeatable():
    environment = DuelsEnvironment(name="m", kind="matrix", data=("pref_arxiv",), arms=5)
    draws = [subset_arms(environment, 40, seed=3, seed_index=index) for index in range(6)]
    for arms in draws:
        assert arms.size == 5 and len(set(arms)) == 5 and (np.diff(arms) > 0).all()
    assert len({tuple(arms) for arms in draws}) > 1
    np.testing.assert_array_equal(draws[2], subset_arms(environment, 40, seed=3, seed_index=2))
    whole = DuelsEnvironment(name="m", kind="matrix", data=("pref_arxiv",))
    np.testing.assert_array_equal(subset_arms(whole, 4, 3, 0), np.arange(4))


def test_summary_names_the_winners():
    names = ("a", "b", "c", "d")
    cycle = environment_summary(
        DuelsEnvironment(name="c", kind="matrix", data=("pref_arxiv",)), CYCLE, names
    )
    assert cycle["condorcet_winner"] is None
    assert set(cycle["von_neumann_support"]) == {"a", "b", "c"}
    np.testing.assert_allclose(list(cycle["von_neumann_support"].values()), 1 / 3, atol=1e-9)
    linear = environment_summary(
        DuelsEnvironment(name="l", kind="matrix", data=("pref_arxiv",), arms=3),
        LINEAR,
        tuple("vwxyz"),
    )
    assert linear["condorcet_winner"] == "v" and linear["copeland_winners"] == ["v"]
    assert linear["arms_per_seed"] == 3 and linear["subset"]


def test_environment_files_round_trip_exactly(tmp_path):
    path = tmp_path / "env.csv"
    names = ("Roger Federer", "Rafael Nadal", "x,y", "4")
    matrix = (2 * CYCLE - 1 + 1) / 2  # not exactly CYCLE: stored bit for bit
    write_environment(path, matrix, names)
    read, read_names = read_environment(path)
    assert read_names == names
    np.testing.assert_array_equal(read, matrix)


def test_an_invalid_matrix_file_is_refused(tmp_path):
    path = tmp_path / "env.csv"
    write_environment(path, CYCLE * 1.5, ("a", "b", "c", "d"))
    with pytest.raises(ValueError):
        read_environment(path)


def test_a_corrupted_environment_file_is_refused(tmp_path):
    path = tmp_path / "env.csv"
    write_environment(path, CYCLE, ("a", "b", "c", "d"))
    path.write_text(path.read_text().replace("\nb,", "\nq,"))
    with pytest.raises(ValueError, match="row names differ"):
        read_environment(path)


def test_a_contextual_environment_is_its_context_averaged_matrix_drawn_from_the_seed():
    entry = {"name": "ctx", "kind": "contextual", "contexts": 6, "actions": 3, "features": 2,
             "policies": 10}  # fmt: skip
    environment = DuelsEnvironment.from_config(entry, "e")
    instance = environment_instance(environment, seed=4)
    matrix, names = build_environment(environment, [], instance)
    again, _ = build_environment(environment, [], environment_instance(environment, seed=4))
    np.testing.assert_array_equal(matrix, again)
    assert names == ("action 0", "action 1", "action 2")
    np.testing.assert_allclose(matrix + matrix.T, 1.0)
    summary = environment_summary(environment, matrix, names, instance)
    assert summary["contextual"]["n_policies"] == 10 and summary["contextual"]["n_contexts"] == 6
    with pytest.raises(ValueError, match="'ctx' needs its ContextualInstance"):
        build_environment(environment, [])
    with pytest.raises(ValueError, match="got AdversarialInstance"):
        environment_summary(environment, matrix, names, environment_instance(ADVERSARY, 4))


def test_the_adversary_has_no_winners_and_its_summary_says_what_it_is():
    environment = ADVERSARY
    instance = environment_instance(environment, seed=4)
    assert (
        environment_instance(DuelsEnvironment(name="m", kind="matrix", data=("pref_arxiv",)), 4)
        is None
    )
    matrix, names = build_environment(environment, [], instance)
    # its P_t before any play: action 1 beats the others by the margin
    np.testing.assert_allclose(matrix[1], [0.8, 0.5, 0.8])
    np.testing.assert_allclose(matrix + matrix.T, 1.0)
    summary = environment_summary(environment, matrix, names, instance)
    assert summary["condorcet_winner"] is None and summary["von_neumann_support"] == {}
    assert summary["copeland_winners"] == [] and summary["n_arms"] == 3
    context = summary["contextual"]
    assert context["adversary"] == "counter-play" and context["margin"] == 0.6
    assert context["von_neumann_winner"] is None and context["n_policies"] == 20
    with pytest.raises(ValueError, match="'adv' needs its AdversarialInstance"):
        build_environment(environment, [])


def test_a_stored_winner_rebuilds_the_same_environment_and_summary(tmp_path):
    entry = {"name": "ctx", "kind": "contextual", "contexts": 6, "actions": 3, "features": 2,
             "policies": 10}  # fmt: skip
    environment = DuelsEnvironment.from_config(entry, "e")
    assert has_population(environment) and not has_population(ADVERSARY)
    solved = environment_instance(environment, seed=4)
    write_winner(tmp_path / "ctx.json", solved)
    checked = environment_instance(environment, 4, read_winner(tmp_path / "ctx.json"))
    np.testing.assert_array_equal(checked.distributions, solved.distributions)
    matrix, names = build_environment(environment, [], solved)
    assert environment_summary(environment, matrix, names, checked) == environment_summary(
        environment, matrix, names, solved
    )


def test_a_malformed_winner_file_is_refused_by_name(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"bad.json: not JSON"):
        read_winner(tmp_path / "bad.json")
    (tmp_path / "short.json").write_text('{"support": [0]}')
    with pytest.raises(ValueError, match=r"short.json: a winner record needs the fields"):
        read_winner(tmp_path / "short.json")
