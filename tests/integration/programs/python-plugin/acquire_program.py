"""A fresh CI machine: a Python program on the SDK installed from the release wheel runs
`pulumi up` (and `destroy`) with an empty PULUMI_HOME, no plugin on PATH and automatic plugin
acquisition on, so the engine downloads the plugin from the URL the wheel names
(`pulumi-plugin.json` `server`, `_utilities.get_plugin_download_url()`). Run by
tests/integration/release.test.ts as an Automation API inline program (no Python language host).

Prints one `RESULT <json>` line per step. Environment: CLOUDPLATFORM_BASE_URL,
CLOUDPLATFORM_TEST_API_KEY, PULUMI_ROOT, BACKEND_DIR, PULUMI_HOME, PULUMI_CONFIG_PASSPHRASE, PATH.
"""
import pulumi
import pulumi_cloudplatform as cp
from pulumi_cloudplatform import _utilities

from inline_support import emit, open_stack


def program():
    region = cp.get_region(id=76)
    event = cp.StorageEvent("space", name="reaching_used_space", storage_name="media", bytes=1000)
    pulumi.export("region", region.id)
    pulumi.export("uuid", event.uuid)


def main():
    stack = open_stack("fresh-ci", program, acquire_plugins=True)
    emit("sdk", downloadUrl=_utilities.get_plugin_download_url(), version=_utilities.get_version())
    up = stack.up(color="never")
    emit("up", changes=up.summary.resource_changes, outputs={k: v.value for k, v in up.outputs.items()}, stdout=up.stdout)
    destroy = stack.destroy(color="never")
    emit("destroy", changes=destroy.summary.resource_changes)


if __name__ == "__main__":
    main()
