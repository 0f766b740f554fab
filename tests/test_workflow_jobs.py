"""Run metadata and rule logs of workflow jobs (cdbandits.workflow.jobs)."""

import numpy as np
import pytest

from cdbandits.workflow.jobs import log_to_file, run_metadata


def test_metadata_is_reproducible():
    first = run_metadata({"k": [1, 2]}, seeds=np.array([3]))
    assert first == run_metadata({"k": [1, 2]}, seeds=np.array([3]))
    assert first["packages"]["numpy"] == np.__version__
    assert first["seeds"] == [3]


def test_log_to_file_records_failures(tmp_path):
    log = tmp_path / "logs" / "rule.log"
    with pytest.raises(ValueError):
        with log_to_file(log) as logger:
            logger.info("working")
            raise ValueError("bad input")
    text = log.read_text()
    assert "working" in text and "bad input" in text and "Traceback" in text
