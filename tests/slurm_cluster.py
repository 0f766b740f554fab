"""A one-node SLURM cluster for the tests, private to one test session.

Slurm comes from Debian's packages (``apt-get install slurm-wlm munge``, installed when
missing; Slurm 22.05 on Debian 12). Everything else lives in a fresh folder: the munge key
and socket, slurm.conf (free ports, no cgroups, no accounting), state and logs. The daemons
(munged, slurmctld, slurmd) run in the foreground as children of the test process, so no
systemd and no system-wide configuration is used or changed, and a second cluster on the
same machine does not interfere.

Every process that belongs to the cluster carries ``CDBANDITS_SLURM_CLUSTER=<folder>`` in
its environment: the daemons, the slurmstepd processes they start (which inherit slurmd's
environment) and the jobs (submitted with the environment of `SlurmCluster.environment`).
`SlurmCluster.stop` cancels the jobs, stops the daemons and then ends whatever still carries
that mark, and nothing else.

Inside each job, snakemake-executor-plugin-slurm-jobstep 0.6.1 removes every SLURM_*
variable but a few before it calls ``srun``, SLURM_CONF included, so ``srun`` would look for
/etc/slurm/slurm.conf. The cluster therefore puts an ``srun`` first on PATH that sets
SLURM_CONF again and runs the real one. It can also inject one transient failure (see
`SlurmCluster.fail_first_job_step`).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "MARK",
    "SlurmCluster",
    "SlurmUnavailable",
    "install_slurm",
    "marked_processes",
    "start_cluster",
]

MARK = "CDBANDITS_SLURM_CLUSTER"
PACKAGES = ["slurm-wlm", "munge"]
PROGRAMS = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "sinfo", "srun"]
PARTITION = "debug"
NODE = "node1"
# Finished jobs stay visible to squeue (status queries, and the tests' checks) this long.
MIN_JOB_AGE_SECONDS = 3600
# The node claims at least this much (SlurmdParameters=config_overrides lets it claim more
# than the machine has), so that sbatch accepts any job a rule of the tiny config asks for;
# memory is not a consumable resource here (CR_Core), so no job waits for it.
MIN_NODE_CPUS = 4
MIN_NODE_MEMORY_MB = 64 * 1024
ACTIVE_STATES = {"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED"}

SLURM_CONF = """\
ClusterName=cdbandits-test
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={controller_port}
SlurmdPort={node_port}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={directory}/run/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation={directory}/state
SlurmdSpoolDir={directory}/spool
SlurmctldPidFile={directory}/run/slurmctld.pid
SlurmdPidFile={directory}/run/slurmd.pid
SlurmctldLogFile={directory}/log/slurmctld.log
SlurmdLogFile={directory}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge={min_job_age}
KillWait=5
NodeName={node} NodeHostname={host} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={memory_mb}
PartitionName={partition} Nodes={node} Default=YES MaxTime=INFINITE State=UP
"""

# srun for the jobs (see the module docstring). With CDBANDITS_FAIL_FIRST set to a path, the
# first job step fails at once, as a step lost to a node problem would, and records its
# command line there; mkdir is atomic, so exactly one step fails.
SRUN_SHIM = """\
#!/bin/sh
export SLURM_CONF={directory}/slurm.conf
if [ -n "${{CDBANDITS_FAIL_FIRST:-}}" ] && mkdir "$CDBANDITS_FAIL_FIRST" 2>/dev/null; then
    printf '%s\\n' "$*" >"$CDBANDITS_FAIL_FIRST/command"
    echo "srun: injected transient failure of this job step" >&2
    exit 1
fi
exec {srun} "$@"
"""


class SlurmUnavailable(RuntimeError):
    """Slurm could not be installed or started here; the message says why."""


@dataclass
class SlurmCluster:
    """A running one-node cluster; `environment` is what clients and Snakemake need."""

    directory: Path
    environment: dict[str, str]
    partition: str = PARTITION
    daemons: list[subprocess.Popen] = field(default_factory=list)

    def run(self, *command: str, check: bool = True) -> subprocess.CompletedProcess:
        completed = subprocess.run(
            list(command), env=self.environment, capture_output=True, text=True, timeout=60
        )
        if check and completed.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {completed.stderr.strip()}")
        return completed

    def jobs(self, *fields: str) -> list[dict[str, str]]:
        """Every job the controller remembers (finished ones for MinJobAge), with the
        given squeue format fields (for example %i id, %T state, %k comment)."""
        output = self.run(
            "squeue", "--noheader", "--states=all", "--format=" + "|".join(fields)
        ).stdout
        return [dict(zip(fields, line.split("|"), strict=True)) for line in output.splitlines()]

    def node_state(self) -> str:
        return self.run("sinfo", "--noheader", "--Node", "--format=%T").stdout.strip()

    def fail_first_job_step(self, marker: Path) -> dict[str, str]:
        """Environment in which the first job step fails once; `marker` (a folder it
        creates) holds the step's command line."""
        return {**self.environment, "CDBANDITS_FAIL_FIRST": str(marker)}

    def logs(self) -> str:
        """The end of every daemon log, for failure messages."""
        parts = []
        for path in sorted((self.directory / "log").glob("*")):
            lines = path.read_text(errors="replace").splitlines()[-15:]
            parts.append(f"--- {path.name}\n" + "\n".join(lines))
        return "\n".join(parts)

    def stop(self) -> None:
        """Cancel all jobs, stop the daemons and end every process carrying the mark."""
        if self.daemons and all(daemon.poll() is None for daemon in self.daemons):
            self.run("scancel", f"--partition={self.partition}", check=False)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and self.active_jobs():
                time.sleep(0.5)
        for daemon in reversed(self.daemons):
            terminate(daemon)
        for pid in marked_processes(str(self.directory)):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(self.directory, ignore_errors=True)
        if left := marked_processes(str(self.directory)):
            raise RuntimeError(f"processes of the cluster outlived it: {left}")

    def active_jobs(self) -> list[str]:
        try:
            jobs = self.jobs("%i", "%T")
        except (RuntimeError, subprocess.TimeoutExpired):
            return []
        return [job["%i"] for job in jobs if job["%T"] in ACTIVE_STATES]


def terminate(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


def marked_processes(directory: str) -> list[int]:
    """Processes whose environment holds MARK=directory."""
    mark = f"{MARK}={directory}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environment = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if mark in environment:
            found.append(int(entry.name))
    return found


def missing_programs() -> list[str]:
    return [program for program in PROGRAMS if shutil.which(program, path=system_path()) is None]


def system_path() -> str:
    """PATH with the sbin folders, where Debian puts the daemons."""
    return os.pathsep.join([os.environ.get("PATH", ""), "/usr/local/sbin", "/usr/sbin", "/sbin"])


def install_slurm() -> None:
    """Install Slurm and munge from Debian's packages when a program is missing."""
    missing = missing_programs()
    if not missing:
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise SlurmUnavailable(
            f"{', '.join(missing)} not installed, and installing needs root and apt-get "
            f"(apt-get install {' '.join(PACKAGES)})"
        )
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-q", *PACKAGES]
    completed = subprocess.run(install, capture_output=True, text=True, env=environment)
    if completed.returncode != 0:  # maybe stale package lists: refresh once
        subprocess.run(["apt-get", "update", "-q"], capture_output=True, env=environment)
        completed = subprocess.run(install, capture_output=True, text=True, env=environment)
    if completed.returncode != 0 or missing_programs():
        raise SlurmUnavailable(f"`{' '.join(install)}` failed: {completed.stderr.strip()[-2000:]}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def memory_mb() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) // 1024
    raise SlurmUnavailable("no MemTotal in /proc/meminfo")


def write_files(directory: Path) -> None:
    """The munge key, slurm.conf and the srun shim; folders with the modes munged wants."""
    directory.chmod(0o755)  # munged's socket folder must be reachable by everyone
    for name, mode in [("run", 0o755), ("etc", 0o700), ("log", 0o700), ("state", 0o700)]:
        (directory / name).mkdir(mode=mode)
    (directory / "spool").mkdir(mode=0o755)
    (directory / "bin").mkdir(mode=0o755)
    key = directory / "etc" / "munge.key"
    key.touch(mode=0o600)
    key.write_bytes(os.urandom(1024))
    (directory / "slurm.conf").write_text(
        SLURM_CONF.format(
            host=socket.gethostname().split(".")[0],
            controller_port=free_port(),
            node_port=free_port(),
            directory=directory,
            min_job_age=MIN_JOB_AGE_SECONDS,
            node=NODE,
            cpus=max(os.cpu_count() or 1, MIN_NODE_CPUS),
            memory_mb=max(memory_mb(), MIN_NODE_MEMORY_MB),
            partition=PARTITION,
        )
    )
    srun = directory / "bin" / "srun"
    srun.write_text(SRUN_SHIM.format(directory=directory, srun=shutil.which("srun")))
    srun.chmod(0o755)


def start_daemon(cluster: SlurmCluster, name: str, *arguments: str) -> None:
    with open(cluster.directory / "log" / f"{name}.out", "w") as log:
        cluster.daemons.append(
            subprocess.Popen(
                [shutil.which(name, path=system_path()), *arguments],
                env=cluster.environment,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )


def wait_for(cluster: SlurmCluster, what: str, ready, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        exited = [
            Path(daemon.args[0]).name for daemon in cluster.daemons if daemon.poll() is not None
        ]
        if exited or time.monotonic() > deadline:
            reason = f"{', '.join(exited)} exited" if exited else f"no {what} in {timeout} s"
            raise SlurmUnavailable(f"Slurm did not start ({reason}):\n{cluster.logs()}")
        time.sleep(0.2)


def start_cluster(directory: Path | None = None) -> SlurmCluster:
    """Install Slurm if needed, start munged, slurmctld and slurmd with their files in
    `directory` (an empty folder, removed by `SlurmCluster.stop`; default: a new one in the
    temporary folder) and wait until the node is idle. Raises SlurmUnavailable, having
    stopped whatever it started."""
    install_slurm()
    directory = directory or Path(tempfile.mkdtemp(prefix="cdbandits-slurm-"))
    environment = {
        **os.environ,
        "PATH": f"{directory / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        "SLURM_CONF": str(directory / "slurm.conf"),
        MARK: str(directory),
    }
    cluster = SlurmCluster(directory, environment)
    try:
        write_files(directory)
        socket_path = directory / "run" / "munge.socket"
        start_daemon(
            cluster,
            "munged",
            "--foreground",
            f"--socket={socket_path}",
            f"--key-file={directory / 'etc' / 'munge.key'}",
            f"--pid-file={directory / 'run' / 'munged.pid'}",
            f"--seed-file={directory / 'state' / 'munged.seed'}",
        )
        wait_for(cluster, "munge socket", socket_path.exists)
        start_daemon(cluster, "slurmctld", "-D", "-i")
        start_daemon(cluster, "slurmd", "-D", "-N", NODE)

        def node_idle() -> bool:
            return cluster.run("sinfo", check=False).returncode == 0 and (
                cluster.node_state() == "idle"
            )

        wait_for(cluster, "idle node", node_idle)
    except BaseException:
        cluster.stop()
        raise
    return cluster
