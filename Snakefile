# Reproduces "Contextual Dueling Bandits" (Dudik et al., COLT 2015) and its extensions.
# Run:  envs/venv.sh snakemake --cores all       (see README.md)
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/winners.smk"
include: "workflow/rules/appendix.smk"
include: "workflow/rules/letor.smk"
include: "workflow/rules/online.smk"
include: "workflow/rules/oracle.smk"
include: "workflow/rules/real_data.smk"
include: "workflow/rules/duels.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/provenance.smk"
include: "workflow/rules/slurm_preflight.smk"


# Every family's target rule (each ends its rules file), and the figures of RESULTS.md copied to
# figures/ when the config is the default one.
rule all:
    input:
        rules.winners.input,
        rules.appendix.input,
        rules.letor.input,
        rules.online.input,
        rules.oracle.input,
        rules.real_data.input,
        rules.duels.input,
        rules.publish_figures.output if is_default_config() else [],
    default_target: True
