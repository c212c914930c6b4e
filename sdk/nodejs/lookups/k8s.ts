/**
 * Managed Kubernetes lookups: the clusters of a project in a region, a cluster as it is now, and
 * its permitted upgrade versions.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  getK8sClustersLookup,
  getK8sClusterLookup,
  getK8sUpgradeVersionsLookup,
  type GetK8sClustersArgs,
  type GetK8sClustersResult,
  type K8sClusterSummary,
  type GetK8sClusterArgs,
  type GetK8sClusterResult,
  type GetK8sUpgradeVersionsArgs,
  type GetK8sUpgradeVersionsResult,
  type K8sClusterRef,
} from "../../../provider/lookups/k8s";
import { invokeLookup, invokeLookupOutput, type LookupOutputArgs } from "./invoke";

export type {
  GetK8sClustersArgs,
  GetK8sClustersResult,
  K8sClusterSummary,
  GetK8sClusterArgs,
  GetK8sClusterResult,
  GetK8sUpgradeVersionsArgs,
  GetK8sUpgradeVersionsResult,
  K8sClusterRef,
};

/** `getK8sClustersOutput` arguments: those of {@link GetK8sClustersArgs}, each a `pulumi.Input`. */
export interface GetK8sClustersOutputArgs extends LookupOutputArgs<GetK8sClustersArgs> {}
/** `getK8sClusterOutput` arguments: those of {@link GetK8sClusterArgs}, each a `pulumi.Input`. */
export interface GetK8sClusterOutputArgs extends LookupOutputArgs<GetK8sClusterArgs> {}
/** `getK8sUpgradeVersionsOutput` arguments: those of {@link GetK8sUpgradeVersionsArgs}, each a `pulumi.Input`. */
export interface GetK8sUpgradeVersionsOutputArgs extends LookupOutputArgs<GetK8sUpgradeVersionsArgs> {}

/**
 * The managed Kubernetes clusters of a project in a region (id, name, version, status and the
 * task keeping each busy), all pages unless `maxResults` caps it, optionally only those whose
 * name contains `name`: how a program or a person finds the `clusterName` the other cluster
 * lookups and `K8sClusterUpgrade` take.
 *
 * @example const { names } = await getK8sClusters({ projectId: 1, regionId: 76 });
 */
export function getK8sClusters(args: GetK8sClustersArgs, opts?: pulumi.InvokeOptions): Promise<GetK8sClustersResult> {
  return invokeLookup(getK8sClustersLookup, args, opts);
}

/** {@link getK8sClusters} with `pulumi.Input` arguments; no request while an input is unknown. */
export function getK8sClustersOutput(args: GetK8sClustersOutputArgs, opts?: pulumi.InvokeOptions): pulumi.Output<GetK8sClustersResult> {
  return invokeLookupOutput(getK8sClustersLookup, args, opts);
}

/**
 * A managed Kubernetes cluster by name (version, status, pools, lock), so a program can read the
 * live version, e.g. to decide the next `K8sClusterUpgrade` target.
 */
export function getK8sCluster(args: GetK8sClusterArgs, opts?: pulumi.InvokeOptions): Promise<GetK8sClusterResult> {
  return invokeLookup(getK8sClusterLookup, args, opts);
}

/** {@link getK8sCluster} with `pulumi.Input` arguments; no request while an input is unknown. */
export function getK8sClusterOutput(args: GetK8sClusterOutputArgs, opts?: pulumi.InvokeOptions): pulumi.Output<GetK8sClusterResult> {
  return invokeLookupOutput(getK8sClusterLookup, args, opts);
}

/**
 * The versions a cluster may be upgraded to now (one minor step; empty when none), so a program
 * or pipeline can show or follow the permitted path.
 */
export function getK8sUpgradeVersions(args: GetK8sUpgradeVersionsArgs, opts?: pulumi.InvokeOptions): Promise<GetK8sUpgradeVersionsResult> {
  return invokeLookup(getK8sUpgradeVersionsLookup, args, opts);
}

/** {@link getK8sUpgradeVersions} with `pulumi.Input` arguments; no request while an input is unknown. */
export function getK8sUpgradeVersionsOutput(
  args: GetK8sUpgradeVersionsOutputArgs,
  opts?: pulumi.InvokeOptions,
): pulumi.Output<GetK8sUpgradeVersionsResult> {
  return invokeLookupOutput(getK8sUpgradeVersionsLookup, args, opts);
}
