"""What the Python Automation API programs of the integration tests share: a stack on a fresh
file backend with the cloudplatform provider configured from the environment, the `RESULT
<json>` lines the jest side reads (tests/integration/pluginSupport.ts), and the progress a
K8sClusterUpgrade reports on its own row.

Environment: CLOUDPLATFORM_BASE_URL, CLOUDPLATFORM_TEST_API_KEY (set as secret stack config),
PULUMI_ROOT (dir whose bin/ holds pulumi), BACKEND_DIR, PULUMI_HOME, PATH (with the plugin).
"""
import json
import os

import pulumi.automation as auto

STACK = "test"
UPGRADE_TYPE = "cloudplatform:index:K8sClusterUpgrade"


def emit(step, **fields):
    """Prints one `RESULT <json>` line for the jest test."""
    print("RESULT " + json.dumps({"step": step, **fields}, default=str), flush=True)


def open_stack(project_name, program, acquire_plugins=False):
    """The stack `test` of an inline `program` as project `project_name`, provider config set.

    The engine's automatic plugin download stays off unless `acquire_plugins` (the fresh-machine
    test, where the plugin must come from the URL the SDK names)."""
    env = {k: os.environ[k] for k in ("PATH", "PULUMI_HOME", "PULUMI_CONFIG_PASSPHRASE") if k in os.environ}
    env["PULUMI_SKIP_UPDATE_CHECK"] = "true"
    if not acquire_plugins:
        env["PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION"] = "true"
    work_dir = os.path.join(os.environ["BACKEND_DIR"], "..", "work")
    os.makedirs(work_dir, exist_ok=True)
    settings = auto.ProjectSettings(name=project_name, runtime="python", backend=auto.ProjectBackend(url="file://" + os.environ["BACKEND_DIR"]))
    opts = auto.LocalWorkspaceOptions(
        work_dir=work_dir,
        pulumi_home=os.environ["PULUMI_HOME"],
        env_vars=env,
        project_settings=settings,
        pulumi_command=auto.PulumiCommand(root=os.environ["PULUMI_ROOT"]),
    )
    stack = auto.create_or_select_stack(stack_name=STACK, project_name=project_name, program=program, opts=opts)
    stack.set_config("cloudplatform:baseUrl", auto.ConfigValue(value=os.environ["CLOUDPLATFORM_BASE_URL"]))
    stack.set_config("cloudplatform:apiKey", auto.ConfigValue(value=os.environ["CLOUDPLATFORM_TEST_API_KEY"], secret=True))
    return stack


def upgrade_progress(events):
    """The diagnostics of engine `events` that belong to a K8sClusterUpgrade's row."""
    return [
        {"urn": e.diagnostic_event.urn, "ephemeral": bool(e.diagnostic_event.ephemeral), "message": e.diagnostic_event.message}
        for e in events
        if e.diagnostic_event is not None and e.diagnostic_event.urn and UPGRADE_TYPE in e.diagnostic_event.urn
    ]


def up_fields(up, events):
    """What a `RESULT` line of an `up` reports: changes, outputs, upgrade progress, stdout."""
    return {
        "changes": up.summary.resource_changes,
        "outputs": {k: v.value for k, v in up.outputs.items()},
        "progress": upgrade_progress(events),
        "stdout": up.stdout,
    }
