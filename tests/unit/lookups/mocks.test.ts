/**
 * Lookups under Pulumi's mocks (`pulumi.runtime.setMocks`), as users unit-test their programs:
 * every lookup, in both forms, reaches the mocks' `call` with the plugin schema's token and the
 * arguments as given (the names a generated SDK sends; the provider applies defaults), and
 * returns the mocked answer in the lookup's result type (absent optional fields `null`, at every
 * level). A bad argument fails before `call`, with the message of the in-process path. A failed
 * Output nobody reads is no unhandled rejection. No request reaches the network: no base URL is
 * configured in this file, so an in-process lookup would fail.
 */
import * as pulumi from "@pulumi/pulumi";
import * as cp from "../../../sdk/nodejs";
import schemaJson from "../../../provider/plugin/schema.json";

/** One `call` the mocks received. */
interface Call {
  token: string;
  inputs: Record<string, unknown>;
  provider?: string;
}

const calls: Call[] = [];
/** Answers by token; a token without one answers `{}`; `THROWS` makes `call` throw. */
const answers = new Map<string, Record<string, unknown>>();
const THROWS = "mock-call-throws";

pulumi.runtime.setMocks(
  {
    newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
    call: (args) => {
      calls.push({ token: args.token, inputs: args.inputs, provider: args.provider });
      if (args.inputs["name"] === THROWS) throw new Error("the mock refuses");
      return answers.get(args.token) ?? {};
    },
  },
  "mocks-project",
  "mocks-stack",
  false,
);

delete process.env.CLOUDPLATFORM_BASE_URL;
delete process.env.CLOUDPLATFORM_API_KEY;

beforeEach(() => {
  calls.length = 0;
  answers.clear();
});

/**
 * The value of an Output, through the SDK's own accessors; its other promises are observed, so a
 * failure is no unhandled rejection here.
 */
function valueOf<T>(o: pulumi.Output<T>): Promise<T> {
  const impl = o as unknown as { promise(): Promise<T>; allResources(): Promise<unknown> };
  impl.allResources().catch(() => undefined);
  return impl.promise();
}

type AnyLookup = (args?: any, opts?: pulumi.InvokeOptions) => Promise<unknown>;
type AnyOutputLookup = (args?: any, opts?: pulumi.InvokeOptions) => pulumi.Output<unknown>;

// [lookup, Promise form, Output form, arguments]
const LOOKUPS: [string, AnyLookup, AnyOutputLookup, Record<string, unknown> | undefined][] = [
  ["getProjects", cp.getProjects, cp.getProjectsOutput, { includeDeleted: true }],
  ["getProject", cp.getProject, cp.getProjectOutput, undefined],
  ["getRegions", cp.getRegions, cp.getRegionsOutput, { hasK8s: true }],
  ["getRegion", cp.getRegion, cp.getRegionOutput, { name: "Luxembourg-2", hasK8s: true }],
  ["getInstances", cp.getInstances, cp.getInstancesOutput, { projectId: 1, regionId: 76, status: "ACTIVE" }],
  ["getDelegationStatus", cp.getDelegationStatus, cp.getDelegationStatusOutput, { domain: "Example.com." }],
  ["getResellerTotals", cp.getResellerTotals, cp.getResellerTotalsOutput, { metric: "requests", clientIds: [102, 101], from: "2026-09-01", to: "2026-09-08" }],
  ["getResellerPing", cp.getResellerPing, cp.getResellerPingOutput, {}],
  ["getCurrentClient", cp.getCurrentClient, cp.getCurrentClientOutput, undefined],
  ["getTask", cp.getTask, cp.getTaskOutput, { taskId: "5f6d8b7a-0000-4000-8000-000000000001" }],
  ["getTasks", cp.getTasks, cp.getTasksOutput, { state: ["NEW", "RUNNING"], taskType: "upgrade_k8s_cluster_v2" }],
  ["getK8sClusters", cp.getK8sClusters, cp.getK8sClustersOutput, { projectId: 1, regionId: 76, pageSize: 10 }],
  ["getK8sCluster", cp.getK8sCluster, cp.getK8sClusterOutput, { projectId: 1, regionId: 76, clusterName: "demo-cluster" }],
  ["getK8sUpgradeVersions", cp.getK8sUpgradeVersions, cp.getK8sUpgradeVersionsOutput, { projectId: 1, regionId: 76, clusterName: "demo-cluster" }],
  ["getStreamingAiTasks", cp.getStreamingAiTasks, cp.getStreamingAiTasksOutput, { status: "SUCCESS", ordering: "task_name" }],
];

test("the table covers every function of the plugin's schema", () => {
  expect(LOOKUPS.map(([name]) => `cloudplatform:index:${name}`).sort()).toEqual(Object.keys(schemaJson.functions).sort());
});

describe("the Promise form under mocks", () => {
  test.each(LOOKUPS)("%s reaches the mocks' call with its token and the arguments as given", async (name, lookup, _output, args) => {
    answers.set(`cloudplatform:index:${name}`, { marker: name });
    const result = (await lookup(args)) as Record<string, unknown>;
    expect(calls).toEqual([{ token: `cloudplatform:index:${name}`, inputs: args ?? {}, provider: "" }]);
    expect(result["marker"]).toBe(name);
  });
});

describe("the Output form under mocks", () => {
  test.each(LOOKUPS)("%s reaches the mocks' call with its token and the arguments as given", async (name, _lookup, output, args) => {
    answers.set(`cloudplatform:index:${name}`, { marker: name });
    const result = (await valueOf(output(args))) as Record<string, unknown>;
    expect(calls).toEqual([{ token: `cloudplatform:index:${name}`, inputs: args ?? {}, provider: "" }]);
    expect(result["marker"]).toBe(name);
  });
});

describe("the mocked answer in the lookup's result type", () => {
  test("a field the answer leaves out reads null where the result type allows null, and only there", async () => {
    answers.set("cloudplatform:index:getProject", { id: 7, name: "mocked", isDefault: true });
    expect(await cp.getProject()).toEqual({
      id: 7,
      name: "mocked",
      isDefault: true,
      state: null,
      clientId: null,
      description: null,
      createdAt: null,
      deletedAt: null,
      taskId: null,
    });
  });

  test("inside lists, too (each project of getProjects)", async () => {
    answers.set("cloudplatform:index:getProjects", { projects: [{ id: 7, name: "mocked", isDefault: false, state: "ACTIVE" }], ids: [7] });
    const { projects, ids } = await cp.getProjects();
    expect(ids).toEqual([7]);
    expect(projects[0]).toEqual({ id: 7, name: "mocked", isDefault: false, state: "ACTIVE", clientId: null, description: null, createdAt: null, deletedAt: null, taskId: null });
  });

  test("the Output form gives the same value", async () => {
    answers.set("cloudplatform:index:getK8sCluster", { projectId: 1, regionId: 76, name: "c", version: "v1.31.2", pools: [] });
    const cluster = await valueOf(cp.getK8sClusterOutput({ projectId: 1, regionId: 76, clusterName: "c" }));
    expect(cluster).toMatchObject({ name: "c", version: "v1.31.2", status: null, taskId: null, id: null, pools: [] });
  });
});

describe("a bad argument under mocks", () => {
  test("fails the Promise form before call, with the in-process message", async () => {
    await expect(cp.getInstances({ projectId: 1, regionId: 76, pageSize: 5000 })).rejects.toThrow(
      new cp.LookupArgumentError("getInstances", "pageSize", "must be an integer from 1 to 1000; got 5000"),
    );
    expect(calls).toEqual([]);
  });

  test("throws at the Output form's call, before call", () => {
    expect(() => cp.getRegionOutput({ nmae: "Luxembourg-2" } as never)).toThrow(cp.LookupArgumentError);
    expect(calls).toEqual([]);
  });

  test("arriving later in an Output fails that Output, before call", async () => {
    const late = pulumi.output(Promise.resolve(5000));
    await expect(valueOf(cp.getInstancesOutput({ projectId: 1, regionId: 76, pageSize: late }))).rejects.toThrow(
      "getInstances: pageSize must be an integer from 1 to 1000; got 5000",
    );
    expect(calls).toEqual([]);
  });
});

describe("a mocks' call that throws", () => {
  test("rejects the Promise form with an error that names the lookup", async () => {
    await expect(cp.getProject({ name: THROWS })).rejects.toThrow(/^getProject: the invoke of cloudplatform:index:getProject failed/);
  });

  // jest fails the running test on an unhandled rejection (as mocha and plain node end the
  // process), so this test fails if either Output leaves one before it ends.
  test("fails only whoever reads the Output form: nobody reading it is no unhandled rejection", async () => {
    cp.getProjectOutput({ name: THROWS }); // never read
    const read = cp.getProjectOutput({ name: THROWS });
    await expect(valueOf(read)).rejects.toThrow(/^getProject: the invoke/);
    // Let every promise of both Outputs settle while this test still runs.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toHaveLength(2);
  });
});
