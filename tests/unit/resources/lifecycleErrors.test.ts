/**
 * The lifecycles' own failures are CloudPlatformErrors of a class that says what happened, with
 * the message telling the user what to do: an update of an event deleted outside Pulumi, a read
 * (an import) of an id that names no cluster.
 */
import { CloudPlatformError, createClient } from "../../../provider/api";
import { ClusterIdError, createK8sClusterUpgradeLifecycle, type K8sClusterUpgradeOutputs } from "../../../provider/resources/k8sClusterUpgrade";
import type { LifecycleContext } from "../../../provider/resources/lifecycle";
import { storageEvent, StorageEventGoneError } from "../../../provider/resources/storageEvent";
import { startSimulator, type RunningSimulator } from "../../../simulator";
import { admin, newKey, rejectionOf } from "../api/helpers";
import { contextOf } from "./context";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey() });
});
afterAll(() => sim.close());

test("an update of an event deleted outside Pulumi is a StorageEventGoneError that says to refresh", async () => {
  const ctx = contextOf(createClient({ baseUrl: sim.url, apiKey: sim.apiKey }));
  const wanted = { name: "reaching_used_space", storageName: "media", bytes: 500 } as const;
  const { id, outs } = await storageEvent.create(ctx, wanted);
  await admin(sim.url, "DELETE", `/events/${id}`);
  const err = await rejectionOf(storageEvent.update(ctx, id, outs, { ...wanted, bytes: 900 }));
  expect(err).toBeInstanceOf(StorageEventGoneError);
  expect(err).toBeInstanceOf(CloudPlatformError);
  expect((err as StorageEventGoneError).uuid).toBe(id);
  expect(err.message).toContain(`(uuid ${id}): it no longer exists on the server`);
  expect(err.message).toContain("Run `pulumi refresh`");
  expect(err.cause).toBeUndefined();
});

test("a read whose state and id name no cluster is a ClusterIdError naming the id's form, before any request", async () => {
  const noApi: LifecycleContext = {
    ...contextOf(createClient({ baseUrl: sim.url, apiKey: sim.apiKey })),
    client: () => {
      throw new Error("no request was expected");
    },
  };
  const lifecycle = createK8sClusterUpgradeLifecycle();
  const err = await rejectionOf(lifecycle.read(noApi, "prod-cluster", {} as K8sClusterUpgradeOutputs));
  expect(err).toBeInstanceOf(ClusterIdError);
  expect(err).toBeInstanceOf(CloudPlatformError);
  expect((err as ClusterIdError).id).toBe("prod-cluster");
  expect(err.message).toBe(
    'K8sClusterUpgrade: cannot read resource "prod-cluster": its state names no cluster, and the id must be <projectId>/<regionId>/<clusterName>, such as 1/76/prod-cluster (the id `pulumi import` takes).',
  );
});
