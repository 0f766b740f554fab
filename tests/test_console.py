import errno
import io
import math

import pytest

from cdbandits import console
from cdbandits.console import finite_json, json_text, write_report


def test_non_finite_values_become_null_and_are_listed():
    report = {"a": [1.0, math.nan, {"b": math.inf}], "c": -math.inf, "d": "nan", "e": 2}
    clean, paths = finite_json(report)
    assert clean == {"a": [1.0, None, {"b": None}], "c": None, "d": "nan", "e": 2}
    assert paths == ["a[1] (nan)", "a[2].b (inf)", "c (-inf)"]
    assert json_text(clean).count("null") == 3
    with pytest.raises(ValueError):
        json_text(report)


class Failing(io.StringIO):
    def __init__(self, error):
        super().__init__()
        self.error = error

    def flush(self):
        raise self.error


@pytest.mark.parametrize(
    ("stream", "status", "message"),
    [
        (None, 2, "p: standard output is closed; the report cannot be written\n"),
        (Failing(BrokenPipeError(errno.EPIPE, "Broken pipe")), 1, ""),
        (
            Failing(OSError(errno.ENOSPC, "No space left on device")),
            2,
            "p: cannot write the report to standard output: No space left on device\n",
        ),
    ],
)
def test_write_errors_are_one_line_and_a_status(monkeypatch, capsys, stream, status, message):
    monkeypatch.setattr(console.sys, "stdout", stream)
    assert write_report("p", "report") == status
    assert capsys.readouterr().err == message


def test_a_written_report_ends_with_a_line_end(capsys):
    assert write_report("p", "report") == 0
    assert capsys.readouterr().out == "report\n"
