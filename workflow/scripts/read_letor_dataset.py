import numpy as np

from cdbandits.files import write_json
from cdbandits.letor import concatenate, read_letor
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]):
    params = snakemake.params
    data = concatenate(
        [
            read_letor(path, n_features=params.n_features, last_query=params.last_query)
            for path in snakemake.input.files
        ]
    )
    data.save(snakemake.output.data)
    write_json(
        snakemake.output.summary,
        {
            "dataset": snakemake.wildcards.dataset,
            "files": list(data.sources),
            "last_query": params.last_query,
            "queries": data.n_queries,
            "documents": data.n_documents,
            "features": data.n_features,
            "documents_per_query": {
                "min": int(data.documents_per_query.min()),
                "mean": float(data.documents_per_query.mean()),
                "max": int(data.documents_per_query.max()),
            },
            "label_counts": np.bincount(data.labels).tolist(),
            "truncated_qids": data.truncated_qids.tolist(),
        },
    )
