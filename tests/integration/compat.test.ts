/**
 * Compatibility with the Node and `@pulumi/pulumi` versions users have: the packed package
 * (`npm pack`), installed into a fresh program beside a chosen `@pulumi/pulumi` and run on a
 * chosen Node, takes the quickstart through `up`, a no-change `preview`, a no-change `refresh`
 * and `destroy` against the simulator.
 *
 * - Node 24 (the pinned release of tools/node-runtime.sh, from the npm registry, cached outside
 *   the repo) with the newest `@pulumi/pulumi` checked.
 * - This machine's Node (20 on the project's machines) with the lowest `@pulumi/pulumi` the
 *   package's peer range allows.
 *
 * Each test's name says which versions it ran; the program itself reports them as outputs,
 * and the test checks those, so a run on the wrong Node or SDK fails. Needs `dist/` built.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startSimulator } from "../../simulator";
import { keyLeaksInState } from "./stateSecrets";
import { createCompatStack, packPackage, peerFloor } from "./compatProgram";
import { machineNode, pinnedNode, pinnedNodeVersion, type NodeRuntime } from "./nodeRuntime";

jest.setTimeout(600_000);

type Sim = Awaited<ReturnType<typeof startSimulator>>;

/** Newest `@pulumi/pulumi` at the time of writing (`npm view @pulumi/pulumi version`); needs Node >= 22. */
const NEWEST_PULUMI = "3.270.0";
/** The TypeScript the examples pin; `@pulumi/pulumi` accepts `>= 3.8.3 < 6` as its compiler. */
const TYPESCRIPT = "5.9.3";

interface CompatCase {
  /** The Node major to fetch, or "machine" for the `node` on this machine's PATH. */
  node: 24 | "machine";
  /** Its version, for the test name, known before anything is downloaded. */
  nodeVersion: string;
  pulumi: string;
  typesNode: string;
}

const machine = machineNode();
const CASES: CompatCase[] = [
  { node: 24, nodeVersion: pinnedNodeVersion(24), pulumi: NEWEST_PULUMI, typesNode: "24.19.2" },
  { node: "machine", nodeVersion: machine.version, pulumi: peerFloor(), typesNode: "20.9.5" },
];

/** The seed's state the quickstart changes, and what it must be after `up`. */
const CLUSTER = { name: "demo-cluster", before: "v1.30.4", after: "v1.31.2" };

describe("compatibility: the packed package on the Node and @pulumi/pulumi versions users have", () => {
  let work: string;
  let tarball: string;
  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-compat-"));
    tarball = packPackage(work);
  });
  afterAll(() => {
    fs.rmSync(work, { recursive: true, force: true });
  });

  it.each(CASES)(
    "Node $nodeVersion with @pulumi/pulumi $pulumi: up, no-change preview, no-change refresh, destroy",
    async (c) => {
      const node: NodeRuntime = c.node === "machine" ? machine : pinnedNode(c.node);
      expect(node.version).toBe(c.nodeVersion);
      const sim: Sim = await startSimulator({ timeScale: 30 });
      const t = await createCompatStack(tarball, { node, pulumi: c.pulumi, typesNode: c.typesNode, typescript: TYPESCRIPT }, {
        "cloudplatform:baseUrl": { value: sim.url },
        "cloudplatform:apiKey": { value: sim.apiKey, secret: true },
      });
      try {
        expect(liveCluster(sim).version).toBe(CLUSTER.before);

        const up = await t.stack.up({ color: "never" });
        expect(up.summary.result).toBe("succeeded");
        const out = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
        expect({ nodeVersion: out.nodeVersion, pulumiSdkVersion: out.pulumiSdkVersion }).toEqual({
          nodeVersion: c.nodeVersion,
          pulumiSdkVersion: c.pulumi,
        });
        expect(out).toMatchObject({
          projectName: "default",
          regionDisplayName: "Luxembourg-2",
          clusterRunning: CLUSTER.after,
          clusterPreviousVersion: CLUSTER.before,
        });
        expect(liveCluster(sim).version).toBe(CLUSTER.after);
        expect(quickstartFields(sim.state().storageEvents)).toEqual(
          quickstartFields([
            { uuid: out.storageSpaceEvent, name: "reaching_used_space", storage_name: "demo-storage", bytes: 500 * 1024 ** 3 },
            {
              uuid: out.bucketRequestsEvent,
              name: "reaching_used_requests",
              storage_name: "demo-storage",
              bucket_name: "demo-bucket",
              count: 1_000_000,
            },
          ]),
        );

        const preview = await t.stack.preview({ color: "never", expectNoChanges: true });
        expect(Object.keys(preview.changeSummary).filter((k) => k !== "same")).toEqual([]);
        const refresh = await t.stack.refresh({ color: "never", expectNoChanges: true });
        expect(refresh.summary.result).toBe("succeeded");
        expect(await keyLeaksInState(t.stack, t.backendUrl, sim.apiKey)).toEqual([]);
        expect(await oversizedResources(t.stack)).toEqual([]);

        const destroy = await t.stack.destroy({ color: "never" });
        expect(destroy.summary.result).toBe("succeeded");
        expect(sim.state().storageEvents).toEqual([]);
        expect(liveCluster(sim).version).toBe(CLUSTER.after); // destroy never downgrades

        process.stdout.write(`[compat] Node ${String(out.nodeVersion)} + @pulumi/pulumi ${String(out.pulumiSdkVersion)}: up, preview, refresh, destroy passed\n`);
      } finally {
        await t.cleanup();
        await sim.close();
      }
    },
  );
});

/**
 * Our resources whose state entry (`pulumi stack export`, compact JSON) is over 1.5 KB, not
 * counting the call stack newer `@pulumi/pulumi` records for every resource of any provider
 * (`stackTrace`: none in 3.139, about 0.5 KB in 3.270, set by the program's call depth): the
 * one-line `__provider` the classes register must reach this host's state on every version.
 */
async function oversizedResources(stack: Stack): Promise<string[]> {
  const resources = ((await stack.exportStack()).deployment?.resources ?? []) as Array<Record<string, unknown>>;
  const ours = resources.filter((r) => String(r.type).startsWith("pulumi-nodejs:dynamic/cloudplatform:"));
  expect(ours).toHaveLength(3);
  const sizes = ours.map(({ stackTrace, ...rest }) => ({ urn: String(rest.urn), bytes: JSON.stringify(rest).length, stackTrace: JSON.stringify(stackTrace ?? []).length }));
  const shown = sizes.map((s) => `${s.urn.split("::").pop()} ${s.bytes} B + stackTrace ${s.stackTrace} B`);
  process.stdout.write(`[compat] state per resource: ${shown.join(", ")}\n`);
  return sizes.filter((s) => s.bytes > 1536).map((s) => `${s.urn}: ${s.bytes} B`);
}

function liveCluster(sim: Sim) {
  const c = sim.state().clusters.find((x) => x.name === CLUSTER.name);
  if (!c) throw new Error(`no cluster ${CLUSTER.name} in the simulator`);
  return c;
}

/**
 * Events with only the fields the quickstart sets, ordered by uuid, so the comparison ignores
 * what the simulator adds (such as `client_id`).
 */
function quickstartFields(events: ReadonlyArray<object>): Array<Record<string, unknown>> {
  const keys = ["uuid", "name", "storage_name", "bucket_name", "bytes", "count"];
  return events
    .map((e) => Object.fromEntries(Object.entries(e).filter(([k, v]) => keys.includes(k) && v !== undefined)))
    .sort((a, b) => String(a.uuid).localeCompare(String(b.uuid)));
}
