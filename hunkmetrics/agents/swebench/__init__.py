"""SWE-bench and Multi-SWE-bench results as `agents evaluate` input (docs/agents.md,
"SWE-bench and Multi-SWE-bench"): the dataset's gold patches as developer patches
(`dataset`), predictions files (`predictions`), the harnesses' per-instance reports and run
reports as outcomes (`reports`), and the runs they make together (`layout`)."""
