# Included by the Snakefile. Before the first job of a run with the SLURM executor (the
# profile in this folder, or --executor slurm), refuse settings with which the executor
# plugin would wait forever or lose outputs; preflight.py beside this file says why. Dry
# runs, cluster jobs (--no-hooks) and other executors skip it.
import importlib.util
import sys

_preflight_spec = importlib.util.spec_from_file_location(
    "cdbandits_slurm_preflight", f"{workflow.basedir}/workflow/profiles/slurm/preflight.py"
)
slurm_preflight = importlib.util.module_from_spec(_preflight_spec)
sys.modules[_preflight_spec.name] = slurm_preflight
_preflight_spec.loader.exec_module(slurm_preflight)


onstart:
    if workflow.executor_plugin.name == "slurm":
        slurm_preflight.check_settings(
            workflow.executor_settings.status_command,
            workflow.executor_settings.init_seconds_before_status_checks,
            workflow.executor_settings.array_jobs,
        )
