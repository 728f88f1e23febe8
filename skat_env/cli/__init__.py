"""Command-line front ends, importable so that console scripts can point at their ``main``."""
