"""Benchmarks: figures, never assertions (docs/benchmarks.md). Each runs as a script."""
