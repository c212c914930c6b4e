"""A Python program using the generated SDK (pulumi_cloudplatform) through the plugin, run as
an Automation API inline program (no Python language host is needed for that).

Phases: create (every lookup, a K8sClusterUpgrade whose progress is watched, two
StorageEvents), update (both limits changed in place), delete (both events removed), then a
no-change preview and refresh, then destroy. Each step prints one line `RESULT <json>`; the
jest test (tests/integration/pythonProgram.test.ts) asserts on those and on the simulator.

Environment: see inline_support.py.
"""
import sys

import pulumi
import pulumi_cloudplatform as cp

from inline_support import STACK, emit, open_stack, up_fields

PHASE = {"name": "create"}
LIMITS = {"create": (1000, 10), "update": (2000, 20)}


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
    stack = open_stack("python-plugin", program)

    for phase in ("create", "update", "delete"):
        PHASE["name"] = phase
        events = []
        up = stack.up(color="never", on_event=events.append)
        emit(phase, **up_fields(up, events))

    preview = stack.preview(expect_no_changes=True, color="never")
    emit("preview", changes=preview.change_summary)
    refresh = stack.refresh(expect_no_changes=True, color="never")
    emit("refresh", changes=refresh.summary.resource_changes)
    state = stack.export_stack()
    emit("state", deployment=state.deployment)
    destroy = stack.destroy(color="never")
    emit("destroy", changes=destroy.summary.resource_changes)
    stack.workspace.remove_stack(STACK)


if __name__ == "__main__":
    try:
        main()
    except Exception as err:  # the test shows this text; it must never contain the key
        print("ERROR " + str(err), file=sys.stderr, flush=True)
        sys.exit(1)
