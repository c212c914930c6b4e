/** PLACEHOLDER: replaced by the K8sClusterUpgrade lifecycle (issue in progress). */
import type { ResourceLifecycle } from "./lifecycle";

const notYet = (): never => {
  throw new Error("K8sClusterUpgrade is not implemented yet");
};

/** The K8sClusterUpgrade lifecycle. */
export const k8sClusterUpgrade: ResourceLifecycle<Record<string, unknown>, Record<string, unknown>> = {
  typeName: "K8sClusterUpgrade",
  check: async (_ctx, news) => ({ inputs: news, failures: [] }),
  diff: notYet,
  create: notYet,
  read: notYet,
  update: notYet,
  delete: notYet,
};
