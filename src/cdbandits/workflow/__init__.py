"""Support for the Snakemake workflow: rule jobs, notebooks, provenance, code dependencies.

Nothing here is science: these modules run the library inside the workflow's rules. The
rules files call :func:`code_dependencies.source_files` to declare the library code a rule
runs; each job wraps its work in :func:`jobs.log_to_file` and stores
:func:`jobs.run_metadata` beside its results; :mod:`notebooks` executes and renders the
result notebooks; :mod:`provenance` writes ``results/provenance.json``.
"""

__all__: list[str] = []
