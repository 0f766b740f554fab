"""Provenance records: config hash, seeds, git state, the written record, the workflow hook."""

import hashlib
import json
import os
import subprocess
import sys
from datetime import datetime

import pytest
from conftest import REPO_ROOT

from cdbandits.workflow.provenance import (
    build_provenance,
    canonical_config_json,
    config_sha256,
    find_seeds,
    git_state,
    installed_packages,
    machine_info,
    run_time_markdown,
    utc_now,
    write_provenance,
)

CONFIG = {
    "seed": 11,
    "data_mirror": None,
    "winners": {"solver": None, "clone_ks": [5, 6]},
    "online": {"seeds": 30, "horizons": [1000, 10000]},
    "oracle": {"bootstrap_seed": 3, "nested": {"seed_offset": 2}},
}

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "test",
    "GIT_AUTHOR_EMAIL": "test@example.org",
    "GIT_COMMITTER_NAME": "test",
    "GIT_COMMITTER_EMAIL": "test@example.org",
}


def test_config_hash_ignores_key_order_and_sees_every_value():
    reordered = {key: CONFIG[key] for key in reversed(list(CONFIG))}
    assert config_sha256(reordered) == config_sha256(CONFIG)
    changed = {**CONFIG, "winners": {"solver": None, "clone_ks": [5, 7]}}
    assert config_sha256(changed) != config_sha256(CONFIG)
    expected = hashlib.sha256(canonical_config_json(CONFIG).encode()).hexdigest()
    assert config_sha256(CONFIG) == expected


def test_canonical_config_rejects_values_json_cannot_hold():
    with pytest.raises(ValueError, match="Out of range float"):
        canonical_config_json({"tolerance": float("nan")})


def test_find_seeds_collects_every_seed_entry_by_its_dotted_path():
    assert find_seeds(CONFIG) == {
        "online.seeds": 30,
        "oracle.bootstrap_seed": 3,
        "seed": 11,
    }


def test_utc_now_is_an_iso_time_in_utc():
    stamp = utc_now()
    assert stamp.endswith("Z")
    parsed = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    assert parsed.utcoffset().total_seconds() == 0


def git(repository, *arguments):
    return subprocess.run(
        ["git", "-C", str(repository), *arguments],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_IDENTITY},
    ).stdout.strip()


def test_git_state_reports_the_commit_and_modified_tracked_files(tmp_path):
    git(tmp_path, "init", "--quiet")
    (tmp_path / "tracked.txt").write_text("one\n")
    git(tmp_path, "add", "tracked.txt")
    git(tmp_path, "commit", "--quiet", "-m", "first")
    head = git(tmp_path, "rev-parse", "HEAD")

    assert git_state(tmp_path) == {"commit": head, "dirty": False}
    (tmp_path / "untracked.txt").write_text("not part of the commit\n")
    assert git_state(tmp_path) == {"commit": head, "dirty": False}
    (tmp_path / "tracked.txt").write_text("two\n")
    assert git_state(tmp_path) == {"commit": head, "dirty": True}


def test_git_state_outside_a_repository_says_why(tmp_path):
    state = git_state(tmp_path)
    assert state["commit"] is None and state["dirty"] is None
    assert "not a git repository" in state["unavailable"]


def test_installed_packages_and_machine_describe_this_environment():
    packages = installed_packages()
    assert packages["numpy"] == __import__("numpy").__version__
    assert "snakemake" in packages and list(packages) == sorted(packages)
    machine = machine_info()
    assert machine["cpu_count"] == os.cpu_count()
    assert machine["python_executable"] == sys.executable


def test_written_record_holds_every_field(tmp_path):
    path = tmp_path / "results" / "provenance.json"
    started = utc_now()
    returned = write_provenance(
        path, CONFIG, started_at=started, repository=REPO_ROOT, command=["snakemake", "-c1"]
    )
    record = json.loads(path.read_text())
    assert record == returned
    assert set(record) == {
        "started_at",
        "finished_at",
        "command",
        "working_directory",
        "git",
        "config",
        "config_sha256",
        "seeds",
        "packages",
        "lock_sha256",
        "machine",
    }
    assert record["started_at"] == started <= record["finished_at"]
    assert record["command"] == ["snakemake", "-c1"]
    assert record["config"] == CONFIG
    assert record["config_sha256"] == config_sha256(CONFIG)
    assert record["seeds"]["seed"] == 11
    lock = (REPO_ROOT / "envs" / "requirements.lock").read_bytes()
    assert record["lock_sha256"] == hashlib.sha256(lock).hexdigest()
    assert record["git"]["commit"] == git(REPO_ROOT, "rev-parse", "HEAD")


def test_run_time_states_the_minutes_between_start_and_end(tmp_path):
    record = {
        "started_at": "2026-01-01T10:00:00Z",
        "finished_at": "2026-01-01T10:21:27Z",
        "command": ["/some/venv/bin/snakemake", "--cores", "all"],
        "machine": {"cpu_count": 2, "memory_bytes": 24 * 2**30},
    }
    text = run_time_markdown(record)
    assert text.startswith("The run took 21.4 minutes (`snakemake --cores all`, ")
    assert "on 2 CPUs, 24 GiB;" in text
    path = tmp_path / "provenance.json"
    written = write_provenance(path, CONFIG, utc_now(), repository=REPO_ROOT, command=["x"])
    assert (tmp_path / "run_time.md").read_text() == run_time_markdown(written)


def test_a_checkout_without_a_lock_records_none(tmp_path):
    record = build_provenance(CONFIG, utc_now(), utc_now(), repository=tmp_path, command=[])
    assert record["lock_sha256"] is None
    assert record["git"]["commit"] is None


@pytest.mark.workflow
def test_a_dry_run_writes_no_provenance(tmp_path):
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "snakemake",
            "--snakefile",
            str(REPO_ROOT / "Snakefile"),
            "--directory",
            str(tmp_path),
            "--configfile",
            str(REPO_ROOT / "config/test.yaml"),
            "--dry-run",
            "--cores",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert completed.returncode == 0, completed.stderr
    assert not (tmp_path / "results" / "provenance.json").exists()
