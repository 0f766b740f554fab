import itertools
import re
import warnings

import numpy as np
import pytest
from hostile_files import preflib_files, saved
from hypothesis import given

from cdbandits.comparisons.counts import count_pairs
from cdbandits.comparisons.preflib import election_log, pairwise_margins, read_preflib
from cdbandits.comparisons.records import ComparisonDataWarning, ComparisonLogError
from cdbandits.winners import condorcet_winner

HEADER = """# FILE NAME: test
# TITLE: A test election
# DATA TYPE: {kind}
# NUMBER ALTERNATIVES: 4
# NUMBER VOTERS: {voters}
# ALTERNATIVE NAME 1: Ann
# ALTERNATIVE NAME 2: Bob
# ALTERNATIVE NAME 3: Cy
# ALTERNATIVE NAME 4: Dee
"""


def election_file(tmp_path, kind, orders, voters=None):
    total = sum(int(line.split(":")[0]) for line in orders) if voters is None else voters
    path = tmp_path / f"test.{kind}"
    path.write_text(HEADER.format(kind=kind, voters=total) + "\n".join(orders) + "\n")
    return path


def brute_force_wins(orders, m, unranked):
    """wins[i, j] (ties half) by enumerating every voter's pairs, written independently."""
    wins = np.zeros((m, m))
    for count, groups in orders:
        level = {a: depth for depth, group in enumerate(groups) for a in group}
        for i, j in itertools.permutations(range(m), 2):
            if i in level and j in level:
                if level[i] < level[j]:
                    wins[i, j] += count
                elif level[i] == level[j]:
                    wins[i, j] += count / 2
            elif unranked == "below" and i in level:
                wins[i, j] += count
    return wins


def test_strict_complete_orders(tmp_path):
    election = read_preflib(election_file(tmp_path, "soc", ["3: 1,2,3,4", "2: 4,3,2,1"]))
    assert election.title == "A test election"
    assert election.alternatives == ("Ann", "Bob", "Cy", "Dee")
    assert election.orders[1] == ((3,), (2,), (1,), (0,))
    assert election.n_voters == 5
    counts = count_pairs(election_log(election))
    assert counts.wins[0, 3] == 3 and counts.wins[3, 0] == 2
    assert condorcet_winner(counts.skew_matrix()) == 0


@pytest.mark.parametrize("unranked", ["ignore", "below"])
def test_ties_and_unranked_alternatives_follow_the_documented_rules(tmp_path, unranked):
    orders = ["2: 2,{1,3}", "1: {3,4},1", "1: 4"]
    election = read_preflib(election_file(tmp_path, "toi", orders))
    parsed = [(2, ((1,), (0, 2))), (1, ((2, 3), (0,))), (1, ((3,),))]
    assert list(zip(election.counts.tolist(), election.orders, strict=True)) == parsed
    log = election_log(election, unranked)
    counts = count_pairs(log)
    np.testing.assert_array_equal(counts.wins, brute_force_wins(parsed, 4, unranked))
    assert counts.ties[0, 2] == 2 and counts.ties[2, 3] == 1
    # One resampling group per order line, weighted by its count ("1: 4" alone compares
    # nothing unless unranked alternatives count as below it).
    expected = [(0, 2.0), (1, 1.0), (2, 1.0)] if unranked == "below" else [(0, 2.0), (1, 1.0)]
    assert sorted(set(zip(log.group.tolist(), log.weight.tolist(), strict=True))) == expected


@pytest.mark.parametrize(
    ("kind", "line", "message"),
    [
        ("soc", "1: 1,2,3", "ranks 3 of 4 alternatives; a .soc file holds complete orders"),
        ("soc", "1: 1,{2,3},4", r"ties \(\{...\}\) are not allowed in a .soc file"),
        ("soi", "1: 1,5", "alternative 5 is not among 1..4"),
        ("soi", "1: 1,2,1", "alternative 1 appears twice"),
        ("soi", "1: 1,,2", "cannot read the order '1,,2'"),
        ("toi", "1 1,2", "expected 'count: a1,a2,...'"),
        ("toi", "0: 1,2", "expected 'count: a1,a2,...' with a positive count"),
    ],
)
def test_invalid_orders_name_file_and_line(tmp_path, kind, line, message):
    path = election_file(
        tmp_path, kind, ["1: 1,2,3,4" if kind != "toi" else "1: 1", line], voters=2
    )
    with pytest.raises(ComparisonLogError, match=re.escape(f"{path}:11: ") + message):
        read_preflib(path)


def test_header_problems(tmp_path):
    path = election_file(tmp_path, "soc", ["1: 1,2,3,4"], voters=3)
    with pytest.raises(ComparisonLogError, match="NUMBER VOTERS 3, the orders count 1"):
        read_preflib(path)
    path.write_text("1: 1,2\n")
    with pytest.raises(ComparisonLogError, match="no valid '# NUMBER ALTERNATIVES: m' header"):
        read_preflib(path)
    wrong = tmp_path / "x.soc"
    wrong.write_text(HEADER.format(kind="toc", voters=1) + "1: 1,2,3,4\n")
    with pytest.raises(ComparisonLogError, match="DATA TYPE toc, the suffix .soc"):
        read_preflib(wrong)
    with pytest.raises(ComparisonLogError, match="not a PrefLib order file"):
        read_preflib(tmp_path / "x.csv")


def test_repeated_names_are_made_distinct(tmp_path):
    path = tmp_path / "dup.soc"
    path.write_text(
        HEADER.format(kind="soc", voters=1).replace("NAME 3: Cy", "NAME 3: Ann") + "1: 1,2,3,4\n"
    )
    assert read_preflib(path).alternatives == ("Ann (#1)", "Bob", "Ann (#3)", "Dee")


def real_files(data_mirror):
    return sorted((data_mirror / "preflib-sports").glob("*/*.[st]o[ci]"))


def test_every_real_election_gives_the_majority_margins(data_mirror):
    files = real_files(data_mirror)
    assert len(files) == 20 + 28 + 67 + 69
    for path in files:
        election = read_preflib(path)
        counts = count_pairs(election_log(election))
        above = pairwise_margins(election)
        np.testing.assert_array_equal(counts.wins - counts.wins.T, above - above.T, str(path))
        assert counts.comparisons.max() <= election.n_voters


def test_one_real_election_against_the_brute_force_count(data_mirror):
    election = read_preflib(data_mirror / "preflib-sports/00006-skate/00006-00000001.toc")
    orders = list(zip(election.counts.tolist(), election.orders, strict=True))
    for unranked in ("ignore", "below"):
        wins = count_pairs(election_log(election, unranked)).wins
        np.testing.assert_array_equal(wins, brute_force_wins(orders, 30, unranked))


def test_condorcet_winners_match_the_folder_readme(data_mirror):
    # README: all 20 skate .soc majority graphs have a Condorcet winner; 50 of the 67
    # f1seasons .soc ones have a strict Condorcet winner.
    found = {}
    for path in real_files(data_mirror):
        if path.suffix == ".soc":
            P = count_pairs(election_log(read_preflib(path))).skew_matrix()
            found.setdefault(path.parent.name, []).append(condorcet_winner(P) is not None)
    assert (sum(found["00006-skate"]), len(found["00006-skate"])) == (20, 20)
    assert (sum(found["00052-f1seasons"]), len(found["00052-f1seasons"])) == (50, 67)


def preflib_text(kind, m, body, names=""):
    return f"# DATA TYPE: {kind}\n# NUMBER ALTERNATIVES: {m}\n{names}{body}"


def test_items_are_the_ranked_alternatives_and_the_others_are_reported(tmp_path):
    path = tmp_path / "few.soi"
    path.write_text(preflib_text("soi", 10**9, "2: 5,2\n1: 2,7\n"))
    election = read_preflib(path)
    assert election.n_alternatives == 10**9 and election.ranked_alternatives().tolist() == [1, 4, 6]
    with pytest.warns(ComparisonDataWarning, match="999,999,997 of 1,000,000,000 declared"):
        log = election_log(election)
    assert log.items == ("2", "5", "7")
    counts = count_pairs(log)
    assert counts.wins[1, 0] == 2 and counts.wins[0, 2] == 1
    below = count_pairs(election_log(election, "below"))  # unranked: the other ranked ones
    assert below.wins[0, 2] == 1 + 2 and below.wins[1, 2] == 2
    small = tmp_path / "small.soi"
    small.write_text(preflib_text("soi", 4, "2: 1,2\n"))
    assert election_log(read_preflib(small), alternatives="all").items == ("1", "2", "3", "4")
    with pytest.raises(ComparisonLogError, match="declares 1,000,000,000 alternatives"):
        election_log(election, alternatives="all")


def test_the_comparisons_are_counted_before_they_are_built(tmp_path):
    import tracemalloc

    path = tmp_path / "full.soc"
    order = ",".join(map(str, range(1, 3001)))
    path.write_text(preflib_text("soc", 3000, f"1: {order}\n2: {order}\n"))
    election = read_preflib(path)
    tracemalloc.start()
    try:
        with pytest.raises(
            ComparisonLogError,
            match=r"the 2 orders over 3,000 alternatives stand for 8,997,000 pairwise "
            r"comparisons, more than the limit of 5,000,000",
        ):
            election_log(election)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**20
    assert election_log(election, max_records=9_000_000).n_records == 8_997_000


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            preflib_text("soc", 2, "99999999999999999999: 1,2\n"),
            r":3: count 9+ is larger than 2\*\*53",
        ),
        (
            preflib_text("soc", 2, "9007199254740993: 1,2\n"),
            r":3: count 9007199254740993 is larger",
        ),
        (
            preflib_text("soc", 2, "1: 1,2\n", "# ALTERNATIVE NAME 5: E\n"),
            r":3: ALTERNATIVE NAME of",
        ),
        (
            preflib_text("soi", 3, "1: 1,99999999999999999999999\n"),
            r"alternative 9+ is not among 1..3",
        ),
        (preflib_text("soi", 3, "1: 1," + " " * 10_000 + "x\n"), r":3: cannot read the order"),
        (preflib_text("soi", "x", "1: 1\n"), "no valid '# NUMBER ALTERNATIVES: m' header"),
    ],
)
def test_numbers_out_of_range_and_undeclared_names(tmp_path, content, message):
    path = tmp_path / "e.soi"
    path.write_text(content)
    with pytest.raises(ComparisonLogError, match=re.escape(str(path)) + ".*" + message):
        read_preflib(path)


def test_encodings(tmp_path):
    path = tmp_path / "e.soc"
    text = preflib_text("soc", 2, "1: 1,2\n", "# ALTERNATIVE NAME 1: Zoë\n")
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert read_preflib(path).alternatives == ("Zoë", "2")
    path.write_bytes(text.encode("cp1252"))
    with pytest.raises(ComparisonLogError, match=re.escape(f"{path}:3: byte 0xEB at column 25")):
        read_preflib(path)
    path.write_bytes(text.encode("utf-16"))
    with pytest.raises(ComparisonLogError, match="is UTF-16 text"):
        read_preflib(path)
    path.write_bytes(text.replace("Zoë", "Zo\0").encode())
    with pytest.raises(ComparisonLogError, match=re.escape(f"{path}:3: holds a NUL byte")):
        read_preflib(path)


def test_repeated_names_are_told_apart_among_the_items_only(tmp_path):
    path = tmp_path / "names.soi"
    names = "".join(f"# ALTERNATIVE NAME {i}: Same\n" for i in range(1, 30_001))
    path.write_text(preflib_text("soi", 30_000, "1: 1,2\n", names))
    election = read_preflib(path)
    assert election_log(election).items == ("Same (#1)", "Same (#2)")
    assert election.alternative_names([29_999]) == ("Same",)
    assert len(set(election.alternatives)) == 30_000


@given(file=preflib_files())
def test_any_preflib_file_is_read_or_refused_with_the_readers_own_error(tmp_path_factory, file):
    path, _ = saved(tmp_path_factory, file)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ComparisonDataWarning)
            log = election_log(read_preflib(path))
    except ComparisonLogError as error:
        assert str(error).startswith(str(path))
    else:
        assert len(log.items) <= read_preflib(path).n_alternatives
