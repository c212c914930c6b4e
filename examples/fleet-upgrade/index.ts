// Upgrades every Kubernetes cluster of a project to one version, in waves: the clusters are
// grouped by name patterns (staging first, then canary, then the rest), and each wave starts only
// once every cluster of the wave before it is upgraded and has stayed healthy for `soakSeconds`.
// A failure in one wave (a quota too small at preview, a pool that turns unhealthy during the
// soak) leaves the later waves untouched.
import * as pulumi from "@pulumi/pulumi";
import * as cloud from "pulumi-cloudplatform";

const config = new pulumi.Config();
const projectName = config.get("projectName") ?? "analytics";
const regionName = config.get("regionName") ?? "Frankfurt";
const targetVersion = config.get("targetVersion") ?? "v1.31.2";
// One name pattern per wave, in order; `*` stands for any characters. A cluster joins the first
// wave whose pattern matches its name; a cluster no pattern matches is left alone.
const wavePatterns = config.getObject<string[]>("waves") ?? ["staging-*", "canary-*", "*"];
const soakSeconds = config.getNumber("soakSeconds") ?? 600;

/** Whether `name` matches `pattern`, where `*` stands for any characters. */
function matches(pattern: string, name: string): boolean {
  const literal = pattern.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${literal.join(".*")}$`).test(name);
}

export = async () => {
  const project = await cloud.getProject({ name: projectName });
  const region = await cloud.getRegion({ name: regionName, hasK8s: true });
  const { clusters } = await cloud.getK8sClusters({ projectId: project.id, regionId: region.id });

  // The clusters of each wave (a cluster still being created has no version yet: not upgraded).
  const waves: string[][] = wavePatterns.map(() => []);
  for (const cluster of clusters) {
    const wave = waves[wavePatterns.findIndex((pattern) => matches(pattern, cluster.name))];
    if (cluster.version && wave) wave.push(cluster.name);
  }

  // Each wave depends on the one before it: Pulumi starts it only when every upgrade there
  // succeeded, and an upgrade succeeds only once its cluster stayed healthy for soakSeconds.
  let previous: cloud.K8sClusterUpgrade[] = [];
  const upgrades: Record<string, cloud.K8sClusterUpgrade> = {};
  for (const names of waves.filter((w) => w.length > 0)) {
    const wave = names.map(
      (clusterName) =>
        new cloud.K8sClusterUpgrade(
          `${clusterName}-version`,
          { projectId: project.id, regionId: region.id, clusterName, version: targetVersion, allowMultiStep: true, soakSeconds },
          { dependsOn: previous },
        ),
    );
    wave.forEach((upgrade, i) => (upgrades[names[i] as string] = upgrade));
    previous = wave;
  }

  return {
    waves: waves.filter((w) => w.length > 0),
    versions: Object.fromEntries(Object.entries(upgrades).map(([name, upgrade]) => [name, upgrade.version])),
  };
};
