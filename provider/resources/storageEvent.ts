/** PLACEHOLDER: replaced by the StorageEvent lifecycle (issue in progress). */
import type { ResourceLifecycle } from "./lifecycle";

const notYet = (): never => {
  throw new Error("StorageEvent is not implemented yet");
};

/** The StorageEvent lifecycle. */
export const storageEvent: ResourceLifecycle<Record<string, unknown>, Record<string, unknown>> = {
  typeName: "StorageEvent",
  check: async (_ctx, news) => ({ inputs: news, failures: [] }),
  diff: notYet,
  create: notYet,
  read: notYet,
  update: notYet,
  delete: notYet,
};
