// Program of tests/integration/drift.test.ts on the dynamic path: two storage events per stack,
// named after the stack so that the stacks of this project never share an event, and a cluster
// held at its version (its preview-time check reads the cluster with the stack's current key).
const pulumi = require("@pulumi/pulumi");
const { K8sClusterUpgrade, StorageEvent } = require("pulumi-cloudplatform");

const storageName = `drift-${pulumi.getStack()}`;
const space = new StorageEvent("space", { name: "reaching_used_space", storageName, bytes: 1000 });
const traffic = new StorageEvent("traffic", { name: "reaching_used_traffic", storageName, bytes: 2000 });
new K8sClusterUpgrade("prod", { projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.30.4" });

exports.space = space.uuid;
exports.traffic = traffic.uuid;
