"""Validates simulator answers (JSON on stdin) with the official Python SDK's models, strictly.

Input: {"cluster": {...}, "clusterList": {...}, "aiTaskPage": {...}}. Prints one line per model
that refused an answer, with pydantic's errors, and exits 1 if any did.
"""
import json
import sys

from gcore.types.cloud.k8s.k8s_cluster import K8SCluster
from gcore.types.cloud.k8s.k8s_cluster_list import K8SClusterList
from gcore.types.streaming.ai_task import AITask

answers = json.load(sys.stdin)
checks = [("K8SCluster", K8SCluster, answers["cluster"]), ("K8SClusterList", K8SClusterList, answers["clusterList"])]
checks += [(f"AITask {t.get('task_id')}", AITask, t) for t in answers["aiTaskPage"]["results"]]

failed = 0
for name, model, value in checks:
    try:
        model.model_validate(value, strict=False)
    except Exception as err:  # pydantic.ValidationError: report every field at once
        failed += 1
        print(f"{name}: {err}")
print(f"checked {len(checks)} answers, {failed} refused")
sys.exit(1 if failed else 0)
