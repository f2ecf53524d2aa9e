"""Dataset clients: batch runs over many patches, mining a git history, their JSON Lines
results (written and read back by `records`), and flat exports of them.

    inputs     what a batch reads: a directory of patches or a manifest CSV
    executors  where tasks run: local processes or a Dask cluster
    scheduler  the one driver loop of every parallel run
    batch      characterize every patch of a dataset (`run_batch`)
    commits    mine's git walk: commits, changed files, source diffs
    mine       mine a git history for multi-hunk bug fixes (`mine`)
    records    JSON Lines writing, and the one typed reader of results files
    export     results as one flat table (CSV or Parquet)
"""
