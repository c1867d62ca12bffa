"""The browser tests' Chromium: Debian's, as pytest-playwright's launch options (no browser
download here). A module the browser tests import the fixture from (not a conftest.py:
see hypothesis_profiles.py)."""
import os

import pytest

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """pytest-playwright's launch options, with Debian's chromium (no browser download here)."""
    if not os.path.exists(CHROMIUM):
        message = f"{CHROMIUM} is missing: apt-get install -y chromium (the browser tests need it)"
        if os.environ.get("FIVEUP_SKIP_BROWSER", "") in ("", "0"):
            pytest.fail(message + "; FIVEUP_SKIP_BROWSER=1 leaves them out")
        pytest.skip(message + " (FIVEUP_SKIP_BROWSER=1)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ["--no-sandbox"]}
