// A reseller's monthly report: last month's billable totals per metric for a list of clients,
// plus the delegation status of a few domains. Lookups only: nothing is created.
import * as pulumi from "@pulumi/pulumi";
import * as cloud from "pulumi-cloudplatform";

const config = new pulumi.Config();
const clientIds = config.getObject<number[]>("clientIds") ?? [101, 102, 103];
const domains = config.getObject<string[]>("domains") ?? ["example.com", "not-delegated.example"];
const month = config.get("month") ?? lastMonth(new Date());

/** The month before `today`, as YYYY-MM. */
function lastMonth(today: Date): string {
  const d = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
  return d.toISOString().slice(0, 7);
}

/** First day of the month and first day of the next (the end date is exclusive). */
function monthRange(yyyyMm: string): { from: string; to: string } {
  const [year, mon] = yyyyMm.split("-").map(Number) as [number, number];
  const next = new Date(Date.UTC(year, mon, 1)).toISOString().slice(0, 10);
  return { from: `${yyyyMm}-01`, to: next };
}

const metrics = ["domains", "volume", "requests", "requests_clean"] as const;
const range = monthRange(month);

async function totals() {
  const byMetric: Record<string, number> = {};
  for (const metric of metrics) {
    const page = await cloud.getResellerTotals({ metric, clientIds, ...range });
    byMetric[metric] = page.total;
  }
  return byMetric;
}

async function delegation() {
  // Each field is null when the platform does not report it (never read as false or 0).
  const status: Record<string, { zoneExists: boolean | null; authorizedByService: number | null }> = {};
  for (const name of domains) {
    const d = await cloud.getDelegationStatus({ domain: name });
    status[name] = { zoneExists: d.zoneExists, authorizedByService: d.serviceAuthorizedCount };
  }
  return status;
}

export const reportMonth = month;
export const reportClients = clientIds;
export const totalsByMetric = pulumi.output(totals());
export const delegationByDomain = pulumi.output(delegation());
export const resellerService = pulumi.output(cloud.getResellerPing({})).message;
