/**
 * Program of the "invalid lookup arguments" integration test, run by the Pulumi language host
 * in its own process (not inline), so a failing lookup fails the run exactly as in a user's
 * program. Config `lookups-invalid:case` picks the invalid call; a valid lookup runs first to
 * prove the program reached the simulator.
 */
import * as pulumi from "@pulumi/pulumi";
import { getDelegationStatus, getResellerPing, getResellerTotals, getResellerTotalsOutput } from "../../../../sdk/nodejs";

const TOTALS = { metric: "requests" as const, clientIds: [101, 102], from: "2026-09-01", to: "2026-09-15" };

const cases: Record<string, () => Promise<unknown> | pulumi.Output<unknown>> = {
  metric: () => getResellerTotals({ ...TOTALS, metric: "bogus" as never }),
  limit: () => getResellerTotalsOutput({ ...TOTALS, limit: 101 }),
  offset: () => getResellerTotals({ ...TOTALS, offset: -1 }),
  dates: () => getResellerTotals({ ...TOTALS, from: "2026-09-15", to: "2026-09-01" }),
  domain: () => getDelegationStatus({ domain: "" }),
};

export = async () => {
  const which = new pulumi.Config().require("case");
  const run = cases[which];
  if (!run) throw new Error(`unknown case ${which}`);
  const ping = await getResellerPing();
  // A plain lookup is awaited, so the program itself rejects; an Output-form lookup with a bad
  // argument known at the call throws there, so the program rejects as fast. (A bad value
  // inside an Output is checked when it arrives, in `apply`, where Pulumi takes ~30-100 s to
  // fail the run; tests/unit/lookups/outputForm.test.ts covers that path without an engine.)
  const result = run();
  return { ping: ping.message, result: pulumi.Output.isInstance(result) ? result : await result };
};
