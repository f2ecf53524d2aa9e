"""Datasets at scale: batch runs, their output files and exports."""
