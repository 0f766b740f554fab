from cdbandits.workflow.jobs import log_to_file
from cdbandits.workflow.notebooks import execute_notebook, export_html, rule_parameters

# The rule's named inputs, except the notebook itself and the library sources, and its
# params are the notebook's parameters.
with log_to_file(snakemake.log[0]):
    parameters = rule_parameters(dict(snakemake.input.items()), exclude=("notebook", "library"))
    parameters |= rule_parameters(dict(snakemake.params.items()))
    executed = execute_notebook(snakemake.input.notebook, snakemake.output.notebook, parameters)
    export_html(executed, snakemake.output.html)
