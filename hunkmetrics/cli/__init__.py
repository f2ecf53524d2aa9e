"""The `hunkmetrics` command line (Typer + Rich). The library never imports this."""
