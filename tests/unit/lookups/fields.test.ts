/**
 * The fields users want from `getK8sCluster` and `getTask`, read by the tolerant rules: the
 * cluster's network and subnet, IP pools, IPv6, CNI (with Cilium's settings), authentication
 * (kubeconfig dates, OIDC), logging and autoscaler overrides; each pool's auto-healing, public
 * IPv4, boot volume, labels, taints and creation time; a task's detailed state, acknowledgement
 * and parameters. From the public OpenAPI's full example (every field there), from the
 * simulator (some sent as `null`), and through the plugin's `Invoke` (what every other SDK gets).
 */
import * as provProto from "@pulumi/pulumi/proto/provider_pb";
import { clusterSchema } from "../../../provider/api/cloud/k8s";
import { taskSchema } from "../../../provider/api/cloud/tasks";
import { getK8sClusterLookup } from "../../../provider/lookups/k8s";
import { runLookup } from "../../../provider/lookups/runtime";
import { getTaskLookup } from "../../../provider/lookups/tasks";
import { serve } from "../../../provider/plugin/server";
import type { RunningSimulator } from "../../../simulator";
import { admin } from "../api/helpers";
import { fixtureBody } from "../api/conformance/fixtureFiles";
import { call, providerClient, secret, struct } from "../plugin/grpcClient";
import { envFor, start } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());

const PROD = { projectId: 1, regionId: 76, clusterName: "prod-cluster" };

test("a cluster as the public OpenAPI shows it: every setting read, in camelCase", () => {
  const c = clusterSchema.parse(fixtureBody("cluster.openapi.json"));
  expect(c).toMatchObject({
    fixedNetwork: expect.any(String),
    fixedSubnet: expect.any(String),
    isIpv6: expect.any(Boolean),
    podsIpPool: expect.any(String),
    servicesIpPool: expect.any(String),
    cni: {
      provider: "cilium",
      cilium: { encryption: false, hubbleRelay: false, hubbleUi: false, lbAcceleration: false, lbMode: "hybrid", maskSize: 24, maskSizeV6: 120, routingMode: "tunnel", tunnel: "geneve", cniExclusive: null },
    },
    authentication: {
      kubeconfigCreatedAt: "2024-02-15T11:53:03Z",
      kubeconfigExpiresAt: "2026-02-15T11:53:03Z",
      oidc: { clientId: "kubernetes", groupsClaim: "groups", requiredClaims: { claim: "value" }, signingAlgs: ["RS256", "RS512"], usernameClaim: "sub" },
    },
    logging: { enabled: true, destinationRegionId: 1, topicName: "my-log-name", retentionPolicy: { period: 45 } },
    autoscalerConfig: { "scale-down-unneeded-time": "5m" },
  });
  expect(c.pools[0]).toMatchObject({
    autoHealingEnabled: true,
    isPublicIpv4: expect.any(Boolean),
    bootVolumeSize: expect.any(Number),
    bootVolumeType: expect.any(String),
    labels: { "my-label": "foo" },
    taints: { "my-taint": "bar:NoSchedule" },
    createdAt: expect.any(String),
  });
});

test("settings left out or null read as null (objects), {} (maps) and [] (lists), never false", () => {
  const c = clusterSchema.parse({ name: "bare", pools: [{ name: "p" }], cni: { provider: "calico" }, authentication: { oidc: {} }, logging: null, autoscaler_config: null });
  expect(c).toMatchObject({ fixedNetwork: null, isIpv6: null, cni: { provider: "calico", cilium: null }, logging: null, autoscalerConfig: {} });
  expect(c.authentication?.oidc).toMatchObject({ clientId: null, requiredClaims: {}, signingAlgs: [] });
  expect(c.pools[0]).toMatchObject({ autoHealingEnabled: null, isPublicIpv4: null, bootVolumeSize: null, labels: {}, taints: {}, createdAt: null });
});

test("getK8sCluster returns them from the simulator", async () => {
  const c = await runLookup(getK8sClusterLookup, PROD, envFor(sim));
  expect(c).toMatchObject({
    fixedNetwork: "7893349c-996a-4e76-af0b-31eab7fe5fa3",
    fixedSubnet: "4fbf5c4b-8007-4a8f-aa5d-ba29999c5f9c",
    isIpv6: false,
    podsIpPool: "172.16.0.0/18",
    podsIpv6Pool: null,
    cni: { provider: "calico", cilium: null },
    authentication: null,
    logging: null,
    autoscalerConfig: {},
  });
  expect(c.pools[0]).toMatchObject({ autoHealingEnabled: true, isPublicIpv4: false, bootVolumeSize: 50, bootVolumeType: "standard", labels: {}, taints: {}, createdAt: "2025-02-15T11:53:03Z" });
});

test("a task's detailed state, acknowledgement and parameters (any JSON)", async () => {
  const made = await admin(sim.url, "POST", "/tasks", { task_type: "create_vm", project_id: 1, region_id: 76, data: { name: "vm-1", flavor: { vcpus: 2 } } });
  await admin(sim.url, "POST", `/tasks/${made.tasks[0]}/finish`);
  const task = await runLookup(getTaskLookup, { taskId: made.tasks[0] }, envFor(sim));
  expect(task).toMatchObject({ detailedState: "FINISHED", acknowledgedAt: null, acknowledgedBy: null, data: { name: "vm-1", flavor: { vcpus: 2 } } });
  const full = taskSchema.parse({ id: "t", state: "FINISHED", detailed_state: "CLUSTER_RESIZE", acknowledged_at: "2026-01-01T00:00:00Z", acknowledged_by: 123, data: ["any", 1] });
  expect(full).toMatchObject({ detailedState: "CLUSTER_RESIZE", acknowledgedAt: "2026-01-01T00:00:00Z", acknowledgedBy: 123, data: ["any", 1] });
  expect(taskSchema.parse({ id: "t", state: "NEW" })).toMatchObject({ detailedState: null, acknowledgedAt: null, acknowledgedBy: null, data: null });
});

test("through the plugin's Invoke (every other SDK): the same fields", async () => {
  const served = await serve({ env: {} });
  const client = providerClient(served.port);
  try {
    await call(client, "configure", new provProto.ConfigureRequest().setArgs(struct({ apiKey: secret(sim.apiKey), baseUrl: sim.url })).setAcceptsecrets(true));
    const res = await call<provProto.InvokeRequest, provProto.InvokeResponse>(client, "invoke", new provProto.InvokeRequest().setTok("cloudplatform:index:getK8sCluster").setArgs(struct(PROD)));
    const c = res.getReturn()?.toJavaScript() as Record<string, any>;
    expect(c).toMatchObject({ fixedNetwork: "7893349c-996a-4e76-af0b-31eab7fe5fa3", cni: { provider: "calico", cilium: null }, autoscalerConfig: {}, logging: null });
    expect(c.pools[0]).toMatchObject({ autoHealingEnabled: true, bootVolumeSize: 50, labels: {} });
  } finally {
    client.close();
    served.plugin.close();
    served.server.forceShutdown();
  }
});
