# Before the first job of a run with the SLURM executor (workflow/profiles/slurm, or
# --executor slurm), refuse settings with which the executor plugin would wait forever or
# lose outputs (cdbandits.workflow.slurm_preflight says why). Dry runs, cluster jobs
# (--no-hooks) and other executors skip it.
from cdbandits.workflow.slurm_preflight import check_settings as check_slurm_settings


onstart:
    if workflow.executor_plugin.name == "slurm":
        check_slurm_settings(
            workflow.executor_settings.status_command,
            workflow.executor_settings.init_seconds_before_status_checks,
            workflow.executor_settings.array_jobs,
        )
