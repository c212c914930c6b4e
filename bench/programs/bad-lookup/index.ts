/**
 * Program of the bad-lookup-argument benchmark (bench/badArgument.ts), run by the Pulumi language
 * host in its own process as a user's program is. Config `bad-lookup:form` picks how the bad
 * argument (`pageSize: 5000`) is passed: `promise` (getInstances), `output` (getInstancesOutput
 * with plain arguments) or `output-pending` (getInstancesOutput with the bad value inside an
 * Output, which can only be checked once the value arrives).
 */
import * as pulumi from "@pulumi/pulumi";
import * as cloud from "pulumi-cloudplatform";

const forms: Record<string, () => Promise<unknown> | pulumi.Output<unknown>> = {
  promise: () => cloud.getInstances({ projectId: 1, regionId: 76, pageSize: 5000 }),
  output: () => cloud.getInstancesOutput({ projectId: 1, regionId: 76, pageSize: 5000 }),
  "output-pending": () => cloud.getInstancesOutput({ projectId: 1, regionId: 76, pageSize: pulumi.output(5000) }),
};

export = async () => {
  const form = new pulumi.Config().require("form");
  const run = forms[form];
  if (!run) throw new Error(`unknown form ${form}`);
  // Other lookups in flight, as in a real program (the issue saw their retries while waiting).
  const project = cloud.getProjectOutput({});
  const result = run();
  return { project: project.name, result: pulumi.Output.isInstance(result) ? result : await result };
};
