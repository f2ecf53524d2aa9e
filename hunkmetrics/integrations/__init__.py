"""Plug-ins for evaluation harnesses: each module imports its harness's package, which is
an extra (or the harness's own environment), never a dependency of the library."""
