"""pyproject.toml, the lock, the conda environment, the README and CI must agree."""

import re
import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version


def lock_pins(repo_root):
    text = (repo_root / "envs/requirements.lock").read_text()
    pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", text, flags=re.MULTILINE))
    return {canonicalize_name(name): version for name, version in pins.items()}


def test_every_declared_dependency_is_pinned_in_the_lock(repo_root):
    project = tomllib.loads((repo_root / "pyproject.toml").read_text())["project"]
    declared = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        declared.extend(extra)
    pins = lock_pins(repo_root)
    for text in declared:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is declared in pyproject.toml but not pinned in the lock"
        assert requirement.specifier.contains(Version(pins[name])), (
            f"lock pins {name}=={pins[name]}, outside pyproject's {requirement.specifier}; "
            "run envs/update_lock.sh"
        )


def test_lock_pins_carry_hashes(repo_root):
    text = (repo_root / "envs/requirements.lock").read_text()
    entries = re.split(r"\n(?=[A-Za-z0-9_.-]+==)", text.strip())
    assert entries and all("--hash=sha256:" in entry for entry in entries)


def test_conda_environment_pins_exactly_the_lock(repo_root):
    conda = (repo_root / "envs/cdbandits.yaml").read_text()
    conda_pins = {
        canonicalize_name(name): version
        for name, version in re.findall(r"^\s+- ([A-Za-z0-9_.-]+)==(\S+)$", conda, re.MULTILINE)
    }
    assert conda_pins == lock_pins(repo_root), "run envs/update_lock.sh"
    assert "python=3.11" in conda


def test_ci_runs_the_readme_test_command(repo_root):
    readme = (repo_root / "README.md").read_text()
    commands = re.findall(r"^envs/venv\.sh .+$", readme, flags=re.MULTILINE)
    test_command = next(command for command in commands if "pytest" in command)
    assert any("snakemake" in command for command in commands)
    ci = (repo_root / ".ci/run").read_text().splitlines()
    assert test_command in ci


def test_every_rule_that_runs_code_follows_the_house_style(repo_root):
    for rules in (repo_root / "workflow/rules").glob("*.smk"):
        blocks = re.split(r"^(?=rule \w+:)", rules.read_text(), flags=re.MULTILINE)[1:]
        for block in blocks:
            name = block.split(":")[0]
            assert not re.search(r"^    run:", block, re.MULTILINE), f"{rules.name}: {name}"
            if re.search(r"^    (script|notebook|shell):", block, re.MULTILINE):
                assert "    conda:\n        CONDA_ENV" in block, f"{rules.name}: {name}"
                for directive in ("output", "log", "threads", "resources"):
                    assert f"    {directive}:" in block, f"{rules.name}: {name} {directive}"
    assert (repo_root / "envs/cdbandits.yaml").is_file()
