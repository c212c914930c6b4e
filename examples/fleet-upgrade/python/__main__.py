"""Fleet upgrade in Python: upgrade every Kubernetes cluster of a project to one version, in
waves grouped by name patterns (staging first, then canary, then the rest); each wave starts
only once every cluster of the wave before it is upgraded and has stayed healthy for
soakSeconds. The same program as ../index.ts (TypeScript), on the generated SDK
(pulumi_cloudplatform) and the cloudplatform plugin.
"""
import re

import pulumi
import pulumi_cloudplatform as cloudplatform

config = pulumi.Config()
project_name = config.get("projectName") or "analytics"
region_name = config.get("regionName") or "Frankfurt"
target_version = config.get("targetVersion") or "v1.31.2"
# One name pattern per wave, in order; `*` stands for any characters. A cluster joins the first
# wave whose pattern matches its name; a cluster no pattern matches is left alone.
wave_patterns = config.get_object("waves") or ["staging-*", "canary-*", "*"]
soak_seconds = config.get_int("soakSeconds")
if soak_seconds is None:
    soak_seconds = 600

project = cloudplatform.get_project(name=project_name)
region = cloudplatform.get_region(name=region_name, has_k8s=True)
clusters = cloudplatform.get_k8s_clusters(project_id=project.id, region_id=region.id).clusters



def matches(pattern, name):
    """Whether `name` matches `pattern`, where `*` stands for any characters."""
    return re.fullmatch(".*".join(re.escape(part) for part in pattern.split("*")), name) is not None


# The clusters of each wave (a cluster still being created has no version yet: not upgraded).
waves = [[] for _ in wave_patterns]
for cluster in clusters:
    wave = next((i for i, pattern in enumerate(wave_patterns) if matches(pattern, cluster.name)), None)
    if cluster.version and wave is not None:
        waves[wave].append(cluster.name)
waves = [names for names in waves if names]

# Each wave depends on the one before it: Pulumi starts it only when every upgrade there
# succeeded, and an upgrade succeeds only once its cluster stayed healthy for soakSeconds.
previous = []
versions = {}
for names in waves:
    wave = [
        cloudplatform.K8sClusterUpgrade(
            f"{cluster_name}-version",
            project_id=project.id,
            region_id=region.id,
            cluster_name=cluster_name,
            version=target_version,
            allow_multi_step=True,
            soak_seconds=soak_seconds,
            opts=pulumi.ResourceOptions(depends_on=previous),
        )
        for cluster_name in names
    ]
    versions.update({name: upgrade.version for name, upgrade in zip(names, wave)})
    previous = wave

pulumi.export("waves", waves)
pulumi.export("versions", versions)
