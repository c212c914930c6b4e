// Walks a cluster across two minor versions in one `pulumi up` (v1.28.x -> v1.29.x -> v1.30.x on
// the simulator's legacy-cluster). Without allowMultiStep, preview would refuse the target and
// name the one permitted next version.
import * as pulumi from "@pulumi/pulumi";
import * as cloud from "pulumi-cloudplatform";

const config = new pulumi.Config();
const projectId = config.getNumber("projectId") ?? 1;
const regionId = config.getNumber("regionId") ?? 76;
const clusterName = config.get("clusterName") ?? "legacy-cluster";
const targetVersion = config.get("targetVersion") ?? "v1.30.4";

const upgrade = new cloud.K8sClusterUpgrade("legacy-version", {
  projectId,
  regionId,
  clusterName,
  version: targetVersion,
  allowMultiStep: true,
  timeoutMinutes: 90,
});

export const previousVersion = upgrade.previousVersion;
export const upgradePath = upgrade.upgradePath;
export const taskIds = upgrade.taskIds;
export const status = upgrade.status;
