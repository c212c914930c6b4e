"""A Python program using the generated SDK (pulumi_cloudplatform) through the plugin, run as
an Automation API inline program (no Python language host is needed for that).

Phases: create (every lookup, a K8sClusterUpgrade whose progress is watched, two
StorageEvents), update (both limits changed in place), delete (both events removed), then a
no-change preview and refresh, then destroy. Each step prints one line `RESULT <json>`; the
jest test (tests/integration/pythonProgram.test.ts) asserts on those and on the simulator.

Environment: CLOUDPLATFORM_BASE_URL, CLOUDPLATFORM_TEST_API_KEY (set as secret stack config),
PULUMI_ROOT (dir whose bin/ holds pulumi), BACKEND_DIR, PULUMI_HOME, PATH (with the plugin).
"""
import json
import os
import sys

import pulumi
import pulumi.automation as auto
import pulumi_cloudplatform as cp

PHASE = {"name": "create"}
LIMITS = {"create": (1000, 10), "update": (2000, 20)}
UPGRADE_TYPE = "cloudplatform:index:K8sClusterUpgrade"


def emit(step, **fields):
    print("RESULT " + json.dumps({"step": step, **fields}, default=str), flush=True)


def program():
    called = []

    def look(name, fn):
        called.append(name)
        return fn()

    projects = look("getProjects", cp.get_projects)
    look("getProject", lambda: cp.get_project(id=projects.ids[0]))
    look("getRegions", cp.get_regions)
    region = look("getRegion", lambda: cp.get_region(id=76))
    look("getInstances", lambda: cp.get_instances(project_id=1, region_id=region.id))
    look("getDelegationStatus", lambda: cp.get_delegation_status(domain="example.com"))
    totals = look("getResellerTotals", lambda: cp.get_reseller_totals(metric="domains", from_="2026-09-01", to="2026-09-08"))
    look("getResellerPing", cp.get_reseller_ping)
    look("getCurrentClient", cp.get_current_client)
    tasks = look("getTasks", lambda: cp.get_tasks(project_id=1))
    if tasks.tasks:
        look("getTask", lambda: cp.get_task(task_id=tasks.tasks[0].id))
    clusters = look("getK8sClusters", lambda: cp.get_k8s_clusters(project_id=1, region_id=76, name="prod"))
    cluster = look("getK8sCluster", lambda: cp.get_k8s_cluster(project_id=1, region_id=76, cluster_name="prod-cluster"))
    look("getK8sUpgradeVersions", lambda: cp.get_k8s_upgrade_versions(project_id=1, region_id=76, cluster_name="prod-cluster"))
    look("getStreamingAiTasks", cp.get_streaming_ai_tasks)

    upgrade = cp.K8sClusterUpgrade("prod", project_id=1, region_id=76, cluster_name="prod-cluster", version="v1.31.2")
    pulumi.export("lookups", called)
    pulumi.export("resellerTotal", totals.total)
    pulumi.export("clusterVersionSeen", cluster.version)
    pulumi.export("clusterNamesSeen", clusters.names)
    pulumi.export("upgradePath", upgrade.upgrade_path)

    if PHASE["name"] in LIMITS:
        space, files = LIMITS[PHASE["name"]]
        a = cp.StorageEvent("space", name="reaching_used_space", storage_name="media", bytes=space)
        b = cp.StorageEvent("files", name="reaching_files_quantity", storage_name="media", count=files)
        pulumi.export("uuids", [a.uuid, b.uuid])


def main():
    root = os.environ["PULUMI_ROOT"]
    env = {k: os.environ[k] for k in ("PATH", "PULUMI_HOME", "PULUMI_CONFIG_PASSPHRASE") if k in os.environ}
    env.update({"PULUMI_SKIP_UPDATE_CHECK": "true", "PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION": "true"})
    work_dir = os.path.join(os.environ["BACKEND_DIR"], "..", "work")
    os.makedirs(work_dir, exist_ok=True)
    settings = auto.ProjectSettings(name="python-plugin", runtime="python", backend=auto.ProjectBackend(url="file://" + os.environ["BACKEND_DIR"]))
    opts = auto.LocalWorkspaceOptions(
        work_dir=work_dir,
        pulumi_home=os.environ["PULUMI_HOME"],
        env_vars=env,
        project_settings=settings,
        pulumi_command=auto.PulumiCommand(root=root),
    )
    stack = auto.create_or_select_stack(stack_name="test", project_name="python-plugin", program=program, opts=opts)
    stack.set_config("cloudplatform:baseUrl", auto.ConfigValue(value=os.environ["CLOUDPLATFORM_BASE_URL"]))
    stack.set_config("cloudplatform:apiKey", auto.ConfigValue(value=os.environ["CLOUDPLATFORM_TEST_API_KEY"], secret=True))

    for phase in ("create", "update", "delete"):
        PHASE["name"] = phase
        events = []
        up = stack.up(color="never", on_event=events.append)
        progress = [
            {"urn": e.diagnostic_event.urn, "ephemeral": bool(e.diagnostic_event.ephemeral), "message": e.diagnostic_event.message}
            for e in events
            if e.diagnostic_event is not None and e.diagnostic_event.urn and UPGRADE_TYPE in e.diagnostic_event.urn
        ]
        emit(phase, changes=up.summary.resource_changes, outputs={k: v.value for k, v in up.outputs.items()}, progress=progress, stdout=up.stdout)

    preview = stack.preview(expect_no_changes=True, color="never")
    emit("preview", changes=preview.change_summary)
    refresh = stack.refresh(expect_no_changes=True, color="never")
    emit("refresh", changes=refresh.summary.resource_changes)
    state = stack.export_stack()
    emit("state", deployment=state.deployment)
    destroy = stack.destroy(color="never")
    emit("destroy", changes=destroy.summary.resource_changes)
    stack.workspace.remove_stack("test")


if __name__ == "__main__":
    try:
        main()
    except Exception as err:  # the test shows this text; it must never contain the key
        print("ERROR " + str(err), file=sys.stderr, flush=True)
        sys.exit(1)
