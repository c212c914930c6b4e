/**
 * The plugin's functions: each schema token `cloudplatform:index:<lookup>` names one lookup of
 * `provider/lookups`, so invokes from any language run the same argument checks, paging,
 * caching and error messages as the TypeScript SDK's lookups.
 */
import {
  getCurrentClientLookup,
  getDelegationStatusLookup,
  getInstancesLookup,
  getK8sClusterLookup,
  getK8sClustersLookup,
  getK8sUpgradeVersionsLookup,
  getProjectLookup,
  getProjectsLookup,
  getRegionLookup,
  getRegionsLookup,
  getResellerPingLookup,
  getResellerTotalsLookup,
  getStreamingAiTasksLookup,
  getTaskLookup,
  getTasksLookup,
  type LookupDefinition,
} from "../lookups";

/** The token prefix of everything this plugin serves. */
export const TOKEN_PREFIX = "cloudplatform:index:";

// Each definition has its own argument and result types; the plugin only passes plain values.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyLookup = LookupDefinition<any, any, any>;

const LOOKUPS: readonly AnyLookup[] = [
  getProjectsLookup,
  getProjectLookup,
  getRegionsLookup,
  getRegionLookup,
  getInstancesLookup,
  getDelegationStatusLookup,
  getResellerTotalsLookup,
  getResellerPingLookup,
  getCurrentClientLookup,
  getTasksLookup,
  getTaskLookup,
  getK8sClustersLookup,
  getK8sClusterLookup,
  getK8sUpgradeVersionsLookup,
  getStreamingAiTasksLookup,
];

/** Every function the plugin serves, by token (`cloudplatform:index:getProjects`, ...). */
export const FUNCTIONS: ReadonlyMap<string, AnyLookup> = new Map(LOOKUPS.map((def) => [`${TOKEN_PREFIX}${def.name}`, def]));
