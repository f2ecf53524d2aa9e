"""The bootstrap's defaults for every interval hunkmetrics reports (the study summary's
rates, the report's ROC AUCs): how many resamples, from which seed, at which level."""

from __future__ import annotations

RESAMPLES = 2000
SEED = 0
LEVEL = 0.95
