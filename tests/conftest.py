"""Hypothesis profiles for the whole suite, chosen once here instead of test by test.

`ci` (when CI=true, as CI runs `make test`) tries 100 examples a property, Hypothesis's
own default; `dev` (the default on a developer's machine) 25, for a quick `make test`.
HYPOTHESIS_PROFILE=ci|dev picks one by hand. A test's own `@settings` still wins.
Neither has a deadline: the e2e and database properties wait on real files and processes,
whose timing says nothing about the code under test.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
_default = "ci" if os.environ.get("CI", "").lower() in ("1", "true", "yes") else "dev"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or _default)
