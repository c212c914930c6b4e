/**
 * Messages the docs quote (docs/guides/troubleshooting.md) are the real ones: each is produced
 * here by the code that produces it for users, against the simulator seed the page's example
 * values come from (prod-cluster at v1.30.4, next permitted v1.31.2), and must appear on the
 * page verbatim.
 */
import { createClient, fetchAllOffset } from "../../../provider/api";
import { keyAdvice } from "../../../provider/adapters/keyRefusal";
import { unknownInputs } from "../../../provider/adapters/unknownValues";
import { createK8sClusterUpgradeLifecycle } from "../../../provider/resources/k8sClusterUpgrade";
import { startSimulator } from "../../../simulator";
import { newKey } from "../api/helpers";
import { contextOf } from "../resources/context";
import { readPage } from "./markdown";

const TROUBLESHOOTING = readPage("docs/guides/troubleshooting.md");

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey() });
});

afterAll(async () => {
  await sim.close();
});

/** The check failure a `K8sClusterUpgrade` with `version` (of prod-cluster unless said) gets at preview. */
async function checkFailure(version: string, cluster: { projectId: number; clusterName: string } = { projectId: 1, clusterName: "prod-cluster" }): Promise<string> {
  const lifecycle = createK8sClusterUpgradeLifecycle();
  const ctx = contextOf(createClient({ baseUrl: sim.url, apiKey: sim.apiKey }));
  const news = { ...cluster, regionId: 76, version };
  const { failures } = await lifecycle.check(ctx, news, unknownInputs(news));
  expect(failures).toHaveLength(1);
  return failures[0]?.reason ?? "";
}

describe("the troubleshooting guide quotes the real messages", () => {
  it("of an unreachable version", async () => {
    const message = await checkFailure("v1.32.1");
    expect(message).toContain("cannot be reached");
    expect(TROUBLESHOOTING).toContain(`| \`${message}\` |`);
  });

  it("of a downgrade (what preview --refresh reports after an upgrade past the declared version)", async () => {
    const message = await checkFailure("v1.29.8");
    expect(message).toContain("is a downgrade");
    expect(TROUBLESHOOTING).toContain(`| \`${message}\` |`);
  });

  it("of an upgrade the project's quota cannot hold (staging-cluster in project 2, whose quota holds 4 VMs)", async () => {
    const message = await checkFailure("v1.30.4", { projectId: 2, clusterName: "staging-cluster" });
    expect(message).toContain("[CLOUDPLATFORM_QUOTA]");
    expect(TROUBLESHOOTING).toContain(`| \`${message}\` |`);
    expect(readPage("docs/resources/k8s-cluster-upgrade.md")).toContain(`\n${message}\n`);
  });

  it("of a missing base URL and a missing key", () => {
    const messageOf = (options: object): string => {
      try {
        createClient(options as never);
        return "";
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(messageOf({ apiKey: "k" })).toMatch(/^No API base URL is configured/);
    expect(messageOf({ baseUrl: sim.url })).toMatch(/^No API key is configured/);
    expect(TROUBLESHOOTING).toContain("| `No API base URL is configured` / `No API key is configured` |");
  });

  it.each([
    { use: "current", origin: "config" },
    { use: "saved", origin: "config" },
    { use: "savedUnlessRunProgram", origin: "config" },
    { use: "saved", origin: "environment" },
  ] as const)("of a refused key that the command used as $use, from $origin", ({ use, origin }) => {
    // The page quotes the sentence that names the key (the one after what to do).
    const names = /\. ((?:This command used|Unless this command ran).+?)(?:: `pulumi refresh`|\.$)/.exec(keyAdvice(false, use, origin))?.[1] ?? "";
    expect(names).toMatch(/^(This command used|Unless this command ran)/);
    const quoted = names.includes("`") ? `\`\` ${names} \`\`` : `\`${names}\``;
    expect(TROUBLESHOOTING).toContain(quoted);
  });

  it("of a list that keeps moving between its pages", async () => {
    const ids = Array.from({ length: 50 }, (_, i) => i);
    let next = 50;
    const read = fetchAllOffset(
      async ({ offset, limit }) => {
        const page = { count: ids.length, results: ids.slice(offset, offset + limit).map((id) => ({ id })) };
        ids.unshift(...Array.from({ length: 20 }, () => next++));
        return page;
      },
      { pageSize: 10, idOf: (i) => i.id, what: "GET /cloud/v1/instances/1/76" },
    );
    const message = await read.then(() => "", (err: Error) => err.message);
    expect(message).toMatch(/^GET \/cloud\/v1\/instances\/1\/76 changed by more than a few items/);
    expect(TROUBLESHOOTING).toContain(`| \`${message}\` |`);
  });
});
