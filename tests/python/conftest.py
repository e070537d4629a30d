"""pytest setup for the Python package tests: 8 host devices for jax (set before jax is
imported anywhere), and the repository's test data folder. The tests import the
INSTALLED package (`pip install .`), never python/redist from the source tree."""

import os
import pathlib

os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8"

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"
