# On a cluster, downloads run where Snakemake runs (compute nodes often have no network).
localrules:
    fetch_data_file,


rule fetch_data_file:
    output:
        data="results/data/{key}/{filename}",
    params:
        mirror=config["data_mirror"],
    log:
        "results/logs/fetch_data_file/{key}/{filename}.log",
    threads: 1
    resources:
        mem_mb=500,
        runtime=120,
    conda:
        CONDA_ENV
    script:
        "../scripts/fetch_data.py"
