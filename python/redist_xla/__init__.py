"""Checks redist's emitted XLA programs by running them on XLA:CPU (see docs/hlo.md)."""
