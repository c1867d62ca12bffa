"""Hypothesis profiles (imported by the test modules that use Hypothesis).

Not a conftest.py: benchmarks/ has one, and two top-level ``conftest``
modules clash when pytest collects tests/ and benchmarks/ in one run.

The suite runs derandomized by default, so a CI run is reproducible: Hypothesis
draws its examples from a seed fixed by each test's source, like every other
random choice in the project. ``HYPOTHESIS_PROFILE=explore`` draws fresh random
examples (and more of them) for fuzzing sessions; a failure there prints a
``@reproduce_failure`` blob to pin it.
"""
import os

from hypothesis import settings

settings.register_profile("seeded", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True, max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "seeded"))
