"""The simulator for the integration tests: `cloudplatform-simulator` (the npm package's bin; set
CLOUDPLATFORM_SIMULATOR to another command, e.g. "npx cloudplatform-simulator") started once per
test session on a free port, stopped at the end."""
import json
import os
import shlex
import subprocess
import urllib.request

import pytest


class Simulator:
    """A running simulator: its URL and key, and its admin API (no key needed)."""

    def __init__(self, url, api_key):
        self.url = url
        self.api_key = api_key

    def admin(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method, headers={"content-type": "application/json"})
        with urllib.request.urlopen(request) as response:
            text = response.read().decode()
        return json.loads(text) if text else None

    def requests(self, method=None, path=None):
        log = self.admin("GET", "/__admin/requests")["requests"]
        return [r for r in log if (method is None or r["method"] == method) and (path is None or r["path"] == path)]

    def state(self):
        return self.admin("GET", "/__admin/state")


@pytest.fixture(scope="session")
def simulator():
    command = shlex.split(os.environ.get("CLOUDPLATFORM_SIMULATOR", "cloudplatform-simulator"))
    process = subprocess.Popen(
        [*command, "--port", "0", "--time-scale", "60", "--quiet"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        # It prints "cloudplatform-simulator listening on <url>", then "api key: <key>".
        url = process.stdout.readline().strip().rsplit(" ", 1)[-1]
        api_key = process.stdout.readline().strip().rsplit(" ", 1)[-1]
        if not url.startswith("http://"):
            raise RuntimeError(f"{command} did not start: {url!r}")
        yield Simulator(url, api_key)
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(autouse=True)
def reset_simulator(request):
    """Each integration test starts from the seed."""
    if "simulator" in request.fixturenames:
        request.getfixturevalue("simulator").admin("POST", "/__admin/reset")
