# results/provenance.json: package versions, git commit, config and its hash, seeds, machine,
# start and end time of each run that built something (cdbandits.workflow.provenance). It is written
# by the onsuccess handler, not by a rule: no rule depends on it, so a new commit or a new
# run never makes a rule rerun, and dry runs, --report and "nothing to be done" leave it as
# it was. Cluster jobs run with --no-hooks; only the main Snakemake process writes it.
from cdbandits.workflow.provenance import utc_now, write_provenance

# When Snakemake read the workflow: the start of the run, DAG building included.
WORKFLOW_STARTED_AT = utc_now()


onsuccess:
    write_provenance(
        "results/provenance.json",
        config,
        started_at=WORKFLOW_STARTED_AT,
        repository=workflow.basedir,
    )
