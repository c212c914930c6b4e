"""A fresh CI machine: a Python program on the SDK installed from the release wheel runs
`pulumi up` (and `destroy`) with an empty PULUMI_HOME, no plugin on PATH and automatic plugin
acquisition on, so the engine downloads the plugin from the URL the wheel names
(`pulumi-plugin.json` `server`, `_utilities.get_plugin_download_url()`). Run by
tests/integration/release.test.ts as an Automation API inline program (no Python language host).

Prints one `RESULT <json>` line per step. Environment: CLOUDPLATFORM_BASE_URL,
CLOUDPLATFORM_TEST_API_KEY, PULUMI_ROOT, BACKEND_DIR, PULUMI_HOME, PULUMI_CONFIG_PASSPHRASE, PATH.
"""
import json
import os

import pulumi
import pulumi.automation as auto
import pulumi_cloudplatform as cp
from pulumi_cloudplatform import _utilities


def program():
    region = cp.get_region(id=76)
    event = cp.StorageEvent("space", name="reaching_used_space", storage_name="media", bytes=1000)
    pulumi.export("region", region.id)
    pulumi.export("uuid", event.uuid)


def emit(step, **fields):
    print("RESULT " + json.dumps({"step": step, **fields}, default=str), flush=True)


def main():
    env = {k: os.environ[k] for k in ("PATH", "PULUMI_HOME", "PULUMI_CONFIG_PASSPHRASE") if k in os.environ}
    env["PULUMI_SKIP_UPDATE_CHECK"] = "true"
    work_dir = os.path.join(os.environ["BACKEND_DIR"], "..", "work")
    os.makedirs(work_dir, exist_ok=True)
    settings = auto.ProjectSettings(name="fresh-ci", runtime="python", backend=auto.ProjectBackend(url="file://" + os.environ["BACKEND_DIR"]))
    opts = auto.LocalWorkspaceOptions(
        work_dir=work_dir,
        pulumi_home=os.environ["PULUMI_HOME"],
        env_vars=env,
        project_settings=settings,
        pulumi_command=auto.PulumiCommand(root=os.environ["PULUMI_ROOT"]),
    )
    stack = auto.create_or_select_stack(stack_name="ci", project_name="fresh-ci", program=program, opts=opts)
    stack.set_config("cloudplatform:baseUrl", auto.ConfigValue(value=os.environ["CLOUDPLATFORM_BASE_URL"]))
    stack.set_config("cloudplatform:apiKey", auto.ConfigValue(value=os.environ["CLOUDPLATFORM_TEST_API_KEY"], secret=True))
    emit("sdk", downloadUrl=_utilities.get_plugin_download_url(), version=_utilities.get_version())
    up = stack.up(color="never")
    emit("up", changes=up.summary.resource_changes, outputs={k: v.value for k, v in up.outputs.items()}, stdout=up.stdout)
    destroy = stack.destroy(color="never")
    emit("destroy", changes=destroy.summary.resource_changes)


if __name__ == "__main__":
    main()
