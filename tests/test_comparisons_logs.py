import json
import re

import numpy as np
import pandas as pd
import pytest
from hostile_files import log_files, saved
from hypothesis import given
from hypothesis import strategies as st

from cdbandits.comparisons.counts import count_pairs
from cdbandits.comparisons.logs import LOG_PRESETS, LogSpec, read_log, read_logs, table_format
from cdbandits.comparisons.records import (
    FIRST_WINS,
    SECOND_WINS,
    TIE,
    ComparisonDataWarning,
    ComparisonLogError,
)


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def test_outcome_column_accepts_numbers_and_words(tmp_path):
    log = read_log(
        write(
            tmp_path / "log.csv",
            "first,second,outcome\na,b,1\nb,c,0\nc,a,0.5\na,c,1.0\nb,a,First\nc,b,TIE\n",
        )
    )
    assert log.items == ("a", "b", "c")
    assert log.outcome.tolist() == [FIRST_WINS, SECOND_WINS, TIE, FIRST_WINS, FIRST_WINS, TIE]
    assert log.origin[0] == f"{tmp_path / 'log.csv'}:2"


def test_configured_columns_and_outcome_values(tmp_path):
    path = write(tmp_path / "log.csv", "x,left,right,result\n7,a,b,-1\n8,b,a,+1\n9,a,b,0\n")
    spec = LogSpec(
        first="left",
        second="right",
        outcome="result",
        first_values=("1",),
        second_values=("-1",),
        tie_values=("0",),
    )
    log = read_log(path, spec)
    assert log.outcome.tolist() == [SECOND_WINS, FIRST_WINS, TIE]
    assert count_pairs(log).wins.tolist() == [[0, 0.5], [2.5, 0]]
    with pytest.raises(ValueError, match="listed for more than one outcome"):
        LogSpec(first_values=("1",), second_values=("1.0",))


def test_an_unknown_outcome_names_file_line_and_column(tmp_path):
    path = write(tmp_path / "log.csv", "first,second,outcome\na,b,1\n\nb,c,2\n")
    message = re.escape(f"{path}:4: column 'outcome': outcome '2' is not one of 1, first")
    with pytest.raises(ComparisonLogError, match=message):
        read_log(path)


def test_line_numbers_follow_quoted_newlines(tmp_path):
    path = write(
        tmp_path / "log.csv",
        'first,second,outcome,note\na,b,1,"two\nlines"\nb,,0,x\n',
    )
    with pytest.raises(ComparisonLogError, match=re.escape(f"{path}:4: column 'second': item")):
        read_log(path)


def test_winner_column_and_its_errors(tmp_path):
    path = write(
        tmp_path / "log.txt",
        "# topic first second winner\nt1 a b b\nt1 b c b\n\nt2 x y tie\n",
    )
    spec = LogSpec(
        names=("topic", "first", "second", "winner"), outcome_from="winner", context="topic"
    )
    log = read_log(path, spec)
    assert log.outcome.tolist() == [SECOND_WINS, FIRST_WINS, TIE]
    assert log.contexts == ("t1", "t2")
    assert log.origin[2] == f"{path}:5"
    write(path, "t1 a b b\nt1 b c a\n")
    with pytest.raises(
        ComparisonLogError,
        match=re.escape(f"{path}:2: column 'winner': winner 'a' is neither the first item 'b'"),
    ):
        read_log(path, spec)
    write(path, "t1 a b b\nt1 b c\n")
    with pytest.raises(ComparisonLogError, match=re.escape(f"{path}:2: 3 fields, expected 4")):
        read_log(path, spec)


def test_first_always_wins_with_a_drop_rule(tmp_path):
    path = write(
        tmp_path / "atp.csv",
        "winner_name,loser_name,score\nA,B,6-3 6-4\nB,C,W/O\nC,A,6-4 2-1 RET\nA,C,Walkover\n",
    )
    with pytest.warns(ComparisonDataWarning, match=r"dropped 2 of 4 rows whose 'score' matches"):
        log = read_log(path, LOG_PRESETS["atp"])
    assert log.items == ("A", "B", "C")
    assert count_pairs(log).wins.tolist() == [[0, 1, 0], [0, 0, 0], [1, 0, 0]]
    assert [log.origin[row] for row in range(2)] == [f"{path}:2", f"{path}:4"]


def test_a_missing_column_lists_the_columns_and_suggests_a_preset(tmp_path):
    path = write(tmp_path / "atp.csv", "winner_name,loser_name,score\nA,B,6-0\n")
    with pytest.raises(ComparisonLogError) as error:
        read_log(path)
    message = str(error.value)
    assert "no column 'first', 'second', 'outcome'" in message
    assert "'winner_name', 'loser_name', 'score'" in message
    assert "--preset atp" in message


def test_a_missing_column_or_a_field_count_suggests_the_column_options(tmp_path):
    path = write(tmp_path / "votes.csv", "a,b,c\nx,y,1\n")
    with pytest.raises(ComparisonLogError, match="--first COL --second COL and --outcome COL"):
        read_log(path)
    path = write(tmp_path / "votes.csv", "first,second,outcome\nx,y\n")
    with pytest.raises(ComparisonLogError, match=r"votes.csv:2: 2 fields, expected 3 .*--names"):
        read_log(path)
    path = write(tmp_path / "votes.txt", "first second outcome\nx y 1 extra\n")
    with pytest.raises(ComparisonLogError, match=r"votes.txt:2: 4 fields.*--first COL"):
        read_log(path)


def test_json_logs_are_winner_loser_objects_or_any_keys_named_by_the_spec(tmp_path):
    path = write(
        tmp_path / "games.json",
        '[{"winner": "a", "loser": "b"}, {"winner": "b", "loser": "c", "weight": 3},'
        ' {"winner": 7, "loser": "a", "round": 1}]',
    )
    log = read_log(path)
    assert log.items == ("a", "b", "c", "7")
    assert (log.outcome == FIRST_WINS).all() and log.weight.tolist() == [1.0, 3.0, 1.0]
    assert log.origin[1] == f"{path}: entry 2"
    keyed = write(tmp_path / "keyed.json", '[{"p": "a", "q": "b", "o": "0.5"}]')
    log = read_log(keyed, LogSpec(first="p", second="q", outcome="o"))
    assert log.outcome.tolist() == [TIE]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"winner": "a", "loser": "b"}', "a JSON log is an array of objects"),
        ('[{"winner": "a", "loser": "b"}, ["a", "b"]]', "entry 2: expected an object"),
        ('[{"winner": "a", "loser": ["b"]}]', "entry 1: key 'loser': expected a string or a n"),
        ('[{"winner": true, "loser": "b"}]', "key 'winner': expected a string or a number"),
        ('[{"winner": "a", "loser": "b"}, {"winner": "a"}]', "entry 2: no key 'loser'"),
        ('[{"w": "a", "l": "b"}]', "no column 'winner', 'loser'; the file has 'w', 'l'; name"),
        ('[{"winner": "a", "loser": "b", "weight": -1}]', "weight '-1' is not a positive"),
        ("[]", "empty JSON array"),
        ('[{"winner": "a",', "cannot read as JSON"),
        ("[" * 100000 + "]" * 100000, "cannot read as JSON"),
    ],
)
def test_json_that_is_not_a_log_is_refused_naming_the_entry(tmp_path, content, message):
    path = write(tmp_path / "log.json", content)
    with pytest.raises(ComparisonLogError, match=re.escape(message)):
        read_log(path)


def test_weights_are_frequencies_and_bad_ones_are_named(tmp_path):
    expanded = read_log(write(tmp_path / "a.csv", "first,second,outcome\n" + "a,b,1\n" * 3))
    weighted = read_log(
        write(tmp_path / "b.csv", "first,second,outcome,n\na,b,1,3\n"), LogSpec(weight="n")
    )
    np.testing.assert_array_equal(count_pairs(expanded).wins, count_pairs(weighted).wins)
    write(tmp_path / "c.csv", "first,second,outcome,n\na,b,1,3\na,b,0,-1\n")
    with pytest.raises(ComparisonLogError, match=r"c.csv:3: column 'n': weight '-1' is not a"):
        read_log(tmp_path / "c.csv", LogSpec(weight="n"))


def test_parquet_reads_like_csv_and_names_rows(tmp_path):
    frame = pd.DataFrame(
        {"first": ["a", "b", "c"], "second": ["b", "c", "a"], "outcome": [1.0, 0.0, 0.5]}
    )
    frame.to_parquet(tmp_path / "log.parquet")
    frame.to_csv(tmp_path / "log.csv", index=False)
    from_parquet = count_pairs(read_log(tmp_path / "log.parquet"))
    np.testing.assert_array_equal(
        from_parquet.wins, count_pairs(read_log(tmp_path / "log.csv")).wins
    )
    frame.loc[1, "first"] = None
    frame.to_parquet(tmp_path / "bad.parquet")
    with pytest.raises(ComparisonLogError, match=r"bad.parquet: row 2: column 'first': value is"):
        read_log(tmp_path / "bad.parquet")


def test_unreadable_files_give_errors_not_tracebacks(tmp_path):
    with pytest.raises(ComparisonLogError, match="no such file"):
        read_log(tmp_path / "missing.csv")
    write(tmp_path / "ragged.csv", "first,second,outcome\na,b,1\na,b,1,extra,more\n")
    with pytest.raises(ComparisonLogError, match="ragged.csv:3: 5 fields, expected 3"):
        read_log(tmp_path / "ragged.csv")
    write(tmp_path / "quote.csv", 'first,second,outcome\na,"b,1\n')
    with pytest.raises(
        ComparisonLogError, match="quote.csv:2: cannot read as CSV: unexpected end of data"
    ):
        read_log(tmp_path / "quote.csv")
    (tmp_path / "binary.parquet").write_bytes(b"not parquet")
    with pytest.raises(ComparisonLogError, match="binary.parquet: cannot read as Parquet"):
        read_log(tmp_path / "binary.parquet")
    (tmp_path / "latin1.txt").write_bytes("first second outcome\n\xe9 b 1\n".encode("latin-1"))
    with pytest.raises(ComparisonLogError, match="not UTF-8"):
        read_log(tmp_path / "latin1.txt")


def test_format_from_suffix():
    assert table_format("x.CSV") == "csv"
    assert table_format("x.tsv") == "tsv"
    assert table_format("x.pq") == "parquet"
    assert table_format("x.txt") == "whitespace"
    assert table_format("x.JSON") == "json"
    assert table_format("x.txt", "csv") == "csv"


def test_several_files_form_one_log_or_one_context_each(tmp_path):
    one = write(tmp_path / "2019.csv", "first,second,outcome\na,b,1\n")
    two = write(tmp_path / "2020.csv", "first,second,outcome\nc,a,1\n")
    pooled = read_logs([one, two])
    assert pooled.items == ("a", "b", "c") and pooled.context is None
    per_file = read_logs([one, two], context_per_file=True)
    assert per_file.contexts == ("2019.csv", "2020.csv")


def test_atp_preset_on_the_real_files_agrees_with_plain_pandas(data_mirror):
    paths = [data_mirror / f"tennis-atp-sackmann/atp_matches_{year}.csv" for year in (2018, 2019)]
    with pytest.warns(ComparisonDataWarning, match="2 files: dropped 35 of 5703 rows"):
        log = read_logs(paths, LOG_PRESETS["atp"])
    matches = pd.concat(pd.read_csv(path) for path in paths)
    played = matches[~matches["score"].str.contains("W/O|Walkover", case=False)]
    assert log.n_records == len(played)
    counts = count_pairs(log)
    djokovic, nadal = log.items.index("Novak Djokovic"), log.items.index("Rafael Nadal")
    head_to_head = played[
        played["winner_name"].isin(["Novak Djokovic", "Rafael Nadal"])
        & played["loser_name"].isin(["Novak Djokovic", "Rafael Nadal"])
    ]
    assert counts.wins[djokovic, nadal] == (head_to_head["winner_name"] == "Novak Djokovic").sum()
    assert counts.wins[nadal, djokovic] == (head_to_head["winner_name"] == "Rafael Nadal").sum()


def test_trec_dl_preset_on_the_real_judgments(data_mirror):
    path = data_mirror / "trec-dl-human-preferences-yan2022/judgments.txt"
    log = read_log(path, LOG_PRESETS["trec-dl"])
    assert log.n_records == 11681
    assert len(log.contexts) == 50
    rows = [line.split() for line in path.read_text().splitlines()]
    topic = [row for row in rows if row[0] == "23287"]
    passages = {p for row in topic for p in row[1:3]}
    sub = log.for_context("23287")
    assert set(sub.items) == passages and sub.n_records == len(topic)
    counts = count_pairs(sub)
    a, b, winner = topic[0][1:]
    i, j = sub.items.index(a), sub.items.index(b)
    same_pair = [row for row in topic if {row[1], row[2]} == {a, b}]
    assert counts.wins[i, j] == sum(row[3] == a for row in same_pair)
    assert counts.comparisons[i, j] == len(same_pair)


def test_utf8_with_a_byte_order_mark_and_what_is_not_utf8(tmp_path):
    path = tmp_path / "log.csv"
    path.write_bytes(b"\xef\xbb\xbffirst,second,outcome\r\na,b,1\r\n")
    assert read_log(path).items == ("a", "b")
    path.write_bytes("first,second,outcome\na,b,1\nb,Zoë,1\n".encode("cp1252"))
    with pytest.raises(ComparisonLogError, match=re.escape(f"{path}:3: byte 0xEB at column 5")):
        read_log(path)
    path.write_bytes(b"first,second,outcome\na,b\x00,1\n")
    with pytest.raises(ComparisonLogError, match=re.escape(f"{path}:2: holds a NUL byte")):
        read_log(path)


def test_the_record_limit_counts_every_file(tmp_path):
    one = write(tmp_path / "one.csv", "first,second,outcome\n" + "a,b,1\n" * 6)
    two = write(tmp_path / "two.txt", "first second outcome\n" + "a b 1\n" * 6)
    assert read_logs([one, two], max_records=12).n_records == 12
    with pytest.raises(ComparisonLogError, match=r"two.txt: the log holds more than 11 comp"):
        read_logs([one, two], max_records=11)
    frame = pd.DataFrame({"first": ["a"] * 3, "second": ["b"] * 3, "outcome": [1] * 3})
    frame.to_parquet(tmp_path / "three.parquet")
    with pytest.raises(ComparisonLogError, match=r"three.parquet: the log holds more than 2"):
        read_log(tmp_path / "three.parquet", max_records=2)


@pytest.mark.parametrize(
    ("weight", "message"),
    [
        ("1e19", "is larger than 2\\*\\*53"),
        ("9007199254740993", "is larger than 2\\*\\*53"),
        ("nan", "is not a positive number"),
        ("1_0", None),
    ],
)
def test_weights_beyond_exact_counts_are_refused(tmp_path, weight, message):
    path = write(tmp_path / "w.csv", f"first,second,outcome,n\na,b,1,{weight}\n")
    if message is None:
        assert read_log(path, LogSpec(weight="n")).weight.tolist() == [10.0]
        return
    with pytest.raises(
        ComparisonLogError, match=f"w.csv:2: column 'n': weight '{weight}' {message}"
    ):
        read_log(path, LogSpec(weight="n"))


def test_a_header_only_log_is_empty(tmp_path):
    log = read_log(write(tmp_path / "h.csv", "first,second,outcome\n"))
    assert log.n_records == 0 and log.items == ()


@given(file=log_files())
def test_any_log_is_read_or_refused_with_the_readers_own_error(tmp_path_factory, file):
    path, options = saved(tmp_path_factory, file)
    try:
        log = read_log(path, LogSpec(weight="n" if options else None))
    except ComparisonLogError as error:
        assert str(error).startswith(str(path))
    else:
        assert log.n_records <= path.read_bytes().count(b"\n")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["winner", "loser", "weight", "x"]), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(value=json_values)
def test_any_json_is_read_or_refused_with_the_readers_own_error(tmp_path_factory, value):
    path = tmp_path_factory.mktemp("json") / "log.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    try:
        log = read_log(path)
    except ComparisonLogError as error:
        assert str(error).startswith(str(path))
    else:
        assert log.n_records == len(value) and (log.weight > 0).all()
