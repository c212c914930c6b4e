"""Validates simulator answers (JSON on stdin) with the official Python SDK's models, strictly.

Input: {"cluster": {...}, "clusterList": {...}, "aiTaskPage": {...}} and optionally
"clusters": [...] (more single clusters), "regions": [...], "tasks": [...], "instances": [...]
(items of those lists). Each answer is checked with the model the SDK parses it with; the AI
task page also as the SDK's page (`SyncPageStreamingAI`, which needs only `results`). Prints one
line per model that refused an answer, with pydantic's errors, and exits 1 if any did.
"""
import json
import sys

from gcore.pagination import SyncPageStreamingAI
from gcore.types.cloud.instance import Instance
from gcore.types.cloud.k8s.k8s_cluster import K8SCluster
from gcore.types.cloud.k8s.k8s_cluster_list import K8SClusterList
from gcore.types.cloud.region import Region
from gcore.types.cloud.task import Task
from gcore.types.streaming.ai_task import AITask

answers = json.load(sys.stdin)
checks = [("K8SCluster", K8SCluster, answers["cluster"]), ("K8SClusterList", K8SClusterList, answers["clusterList"])]
checks += [(f"K8SCluster {c.get('name')}", K8SCluster, c) for c in answers.get("clusters", [])]
checks += [("SyncPageStreamingAI[AITask]", SyncPageStreamingAI[AITask], answers["aiTaskPage"])]
checks += [(f"AITask {t.get('task_id')}", AITask, t) for t in answers["aiTaskPage"]["results"]]
checks += [(f"Region {r.get('id')}", Region, r) for r in answers.get("regions", [])]
checks += [(f"Task {t.get('id')}", Task, t) for t in answers.get("tasks", [])]
checks += [(f"Instance {i.get('name')}", Instance, i) for i in answers.get("instances", [])]

failed = 0
for name, model, value in checks:
    try:
        model.model_validate(value, strict=False)
    except Exception as err:  # pydantic.ValidationError: report every field at once
        failed += 1
        print(f"{name}: {err}")
print(f"checked {len(checks)} answers, {failed} refused")
sys.exit(1 if failed else 0)
