/**
 * Every answer shaper of each dialect (CONTRACT.md "Dialects"), grouped by the module that
 * defines them; the simulator picks one set when its dialect is set.
 */
import { unchanged, withFuture, type ByDialect, type SimulatorDialect } from "../dialect";
import type { JsonObject } from "../state";
import { cloudAnswers, type CloudAnswers } from "./cloud";
import { dnsAnswers, type DnsAnswers } from "./dns";
import { iamAnswers, type IamAnswers } from "./iam";
import { k8sAnswers, type K8sAnswers } from "./k8s";
import { storageAnswers, type StorageAnswers } from "./storage";
import { streamingAnswers, type StreamingAnswers } from "./streaming";

/** How one dialect shapes every successful answer. */
export interface AnswerShapers {
  readonly dialect: SimulatorDialect;
  /** Any other answer object: projects, upgrade answers, quotas, reseller rows and envelopes (row 9). */
  object(obj: JsonObject): JsonObject;
  readonly cloud: CloudAnswers;
  readonly k8s: K8sAnswers;
  readonly dns: DnsAnswers;
  readonly iam: IamAnswers;
  readonly storage: StorageAnswers;
  readonly streaming: StreamingAnswers;
}

const anyObject: ByDialect<(obj: JsonObject) => JsonObject> = { regular: unchanged, "public-api": withFuture };

function shapersOf(dialect: SimulatorDialect): AnswerShapers {
  return {
    dialect,
    object: anyObject[dialect],
    cloud: cloudAnswers[dialect],
    k8s: k8sAnswers[dialect],
    dns: dnsAnswers[dialect],
    iam: iamAnswers[dialect],
    storage: storageAnswers[dialect],
    streaming: streamingAnswers[dialect],
  };
}

/** The shapers of each dialect. */
export const ANSWER_SHAPERS: ByDialect<AnswerShapers> = { regular: shapersOf("regular"), "public-api": shapersOf("public-api") };
