from cdbandits.files import write_csv, write_json, write_text
from cdbandits.oracle_methods.experiments import EXPERIMENTS, combine_shards
from cdbandits.oracle_methods.summary import (
    bound_checks,
    bound_table,
    bound_table_markdown,
    json_records,
    learned_summary,
    read_table,
    scaling_crossovers,
    theory_table,
)
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    oracle, seed = snakemake.params.oracle, snakemake.params.seed
    tables = {
        experiment: combine_shards(
            [read_table(path) for path in snakemake.input[experiment]], experiment
        )
        for experiment in EXPERIMENTS
    }
    for experiment, table in tables.items():
        write_csv(snakemake.output[experiment], table)
    summary, detail = bound_table(
        bound_checks(tables), oracle["delta"], seed, read_table(snakemake.input.online)
    )
    write_csv(snakemake.output.bound_table, summary)
    write_csv(snakemake.output.bound_detail, detail)
    write_text(snakemake.output.markdown, bound_table_markdown(summary))
    crossovers = scaling_crossovers(read_table(snakemake.input.scaling))
    write_csv(snakemake.output.crossovers, crossovers)
    learned = learned_summary(tables["learned"])
    write_csv(snakemake.output.learned_summary, learned)
    environment = oracle["environment"]
    theory = theory_table(
        oracle["theory_epsilons"], oracle["delta"], environment["n_actions"],
        sorted({int(tables["explore_first"]["n_policies"].iloc[0]), 10**6}),
    )  # fmt: skip
    write_csv(snakemake.output.theory, theory)
    log.info("bound table:\n%s", summary[["statement", "coverage", "empirical_rate"]])
    write_json(
        snakemake.output.summary,
        {
            "bound_table": json_records(summary),
            "all_bounds_met": bool(summary["meets_guarantee"].all()),
            "scaling_crossovers": json_records(crossovers),
            "learned_oracles": json_records(learned),
            "metadata": run_metadata(oracle, seeds=seed),
        },
    )
