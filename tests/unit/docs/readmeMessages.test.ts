/**
 * Messages the README quotes (troubleshooting, drift in CI) are the real ones: each is produced
 * here by the code that produces it for users, against the simulator seed the README's example
 * values come from (prod-cluster at v1.30.4, next permitted v1.31.2), and must appear in the
 * README verbatim.
 */
import * as fs from "fs";
import * as path from "path";
import { createClient } from "../../../provider/api";
import { unknownInputs } from "../../../provider/adapters/unknownValues";
import { createK8sClusterUpgradeLifecycle } from "../../../provider/resources/k8sClusterUpgrade";
import { startSimulator } from "../../../simulator";
import { newKey } from "../api/helpers";
import { contextOf } from "../resources/context";

const README = fs.readFileSync(path.resolve(__dirname, "../../../README.md"), "utf8");

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey() });
});
afterAll(async () => {
  await sim.close();
});

/** The check failure a `K8sClusterUpgrade` with `version` gets at preview. */
async function checkFailure(version: string): Promise<string> {
  const lifecycle = createK8sClusterUpgradeLifecycle();
  const ctx = contextOf(createClient({ baseUrl: sim.url, apiKey: sim.apiKey }));
  const news = { projectId: 1, regionId: 76, clusterName: "prod-cluster", version };
  const { failures } = await lifecycle.check(ctx, news, unknownInputs(news));
  expect(failures).toHaveLength(1);
  return failures[0]?.reason ?? "";
}

describe("README quotes the real messages", () => {
  it("of an unreachable version", async () => {
    const message = await checkFailure("v1.32.1");
    expect(message).toContain("cannot be reached");
    expect(README).toContain(`| \`${message}\` |`);
  });

  it("of a downgrade (what preview --refresh reports after an upgrade past the declared version)", async () => {
    const message = await checkFailure("v1.29.8");
    expect(message).toContain("is a downgrade");
    expect(README).toContain(`| \`${message}\` |`);
    // The drift-in-CI table quotes its start with placeholders.
    const [, head] = /^(version v\S+ is a downgrade: cluster \S+ runs v\S+) /.exec(message) ?? [];
    expect(head).toBeDefined();
    expect(README).toContain("`version vX is a downgrade: cluster C runs vY ...`");
    expect(head?.replace(/v1\.29\.8/, "vX").replace("prod-cluster", "C").replace("v1.30.4", "vY")).toBe("version vX is a downgrade: cluster C runs vY");
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
    expect(README).toContain("| `No API base URL is configured` / `No API key is configured` |");
  });
});
