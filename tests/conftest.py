"""Settings for the whole suite."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

# Hypothesis fails a test whose inputs are slow to make (too_slow) or whose example runs past
# a deadline, by the wall clock: on a shared machine under load, with the suite in parallel
# workers, that measures the machine's load and not the code. Speed goals live in bench/.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")
