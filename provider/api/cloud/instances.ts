/**
 * Cloud instances: `GET /cloud/v1/instances/{project_id}/{region_id}`.
 *
 * Why: the `getInstances` lookup; an empty project is a normal answer (count 0), not an error.
 */
import { fetchAllOffset, type OffsetPage, type OffsetPagerOptions } from "../pagination";
import type { RequestOptions, Transport } from "../transport";
import { apiPath } from "../url";
import { bodyList, bool, isObject, numOr, numOrNull, objArray, str, strOrNull, type WireObject } from "../wire";

/** The instance's flavor (size). */
export interface InstanceFlavor {
  /** Flavor id. */
  readonly flavorId: string;
  /** Flavor name. */
  readonly flavorName: string;
  /** Number of virtual CPUs, when reported. */
  readonly vcpus: number | null;
  /** RAM in MiB. */
  readonly ram: number | null;
}

/** One address of an instance on a network. */
export interface InstanceAddress {
  /** The IP address. */
  readonly addr: string;
  /** `fixed` or `floating`. */
  readonly type: string;
  /** Network interface name, when reported. */
  readonly interfaceName: string | null;
  /** Subnet id, when reported. */
  readonly subnetId: string | null;
  /** Subnet name, when reported. */
  readonly subnetName: string | null;
}

/** A key-value tag of an instance. */
export interface InstanceTag {
  /** Tag key. */
  readonly key: string;
  /** Tag value. */
  readonly value: string;
  /** Whether the tag is set by the platform and cannot be changed. */
  readonly readOnly: boolean;
}

/** A volume attached to an instance. */
export interface InstanceVolume {
  /** Volume id. */
  readonly id: string;
  /** Whether the volume is deleted with the instance. */
  readonly deleteOnTermination: boolean;
}

/** A virtual machine. */
export interface Instance {
  /** Instance id. */
  readonly id: string;
  /** Instance name. */
  readonly name: string;
  /** ACTIVE, BUILD, SHUTOFF, ... as sent. */
  readonly status: string;
  /** Hypervisor state of the VM (active, stopped, ...), as sent. */
  readonly vmState: string;
  /** Creation time, ISO 8601, as sent. */
  readonly createdAt: string | null;
  /** Project of the instance. */
  readonly projectId: number | null;
  /** Region of the instance. */
  readonly regionId: number | null;
  /** Region name. */
  readonly region: string | null;
  /** The instance's flavor (size), when reported. */
  readonly flavor: InstanceFlavor | null;
  /** Addresses keyed by network name (names are data and stay as sent). */
  readonly addresses: Readonly<Record<string, readonly InstanceAddress[]>>;
  /** Key-value tags of the instance. */
  readonly tags: readonly InstanceTag[];
  /** Names of the security groups attached. */
  readonly securityGroups: readonly string[];
  /** Volumes attached to the instance. */
  readonly volumes: readonly InstanceVolume[];
  /** Name of the SSH key the instance was created with, when any. */
  readonly sshKeyName: string | null;
  /** Free-text description, when set. */
  readonly instanceDescription: string | null;
  /** Id of the task locking the instance, if any. */
  readonly taskId: string | null;
  /** Id of the task that created the instance, when reported. */
  readonly creatorTaskId: string | null;
}

/** Filters of the instance list. */
export interface ListInstancesParams {
  /** Server default 1000, max 1000. */
  readonly limit?: number;
  readonly offset?: number;
  /** Partial name match. */
  readonly name?: string;
  readonly status?: string;
  readonly orderBy?: string;
  /** Tag values; repeated keys. */
  readonly tagValue?: readonly string[];
  readonly includeK8s?: boolean;
  readonly includeBaremetal?: boolean;
}

/** Map one wire instance. */
export function instanceFromWire(w: WireObject): Instance {
  const flavor = isObject(w["flavor"]) ? w["flavor"] : undefined;
  const addresses: Record<string, InstanceAddress[]> = {};
  if (isObject(w["addresses"])) {
    for (const [net, list] of Object.entries(w["addresses"])) {
      addresses[net] = objArray(list).map((a) => ({
        addr: str(a["addr"]),
        type: str(a["type"]),
        interfaceName: strOrNull(a["interface_name"]),
        subnetId: strOrNull(a["subnet_id"]),
        subnetName: strOrNull(a["subnet_name"]),
      }));
    }
  }
  return {
    id: str(w["id"]),
    name: str(w["name"]),
    status: str(w["status"]),
    vmState: str(w["vm_state"]),
    createdAt: strOrNull(w["created_at"]),
    projectId: numOrNull(w["project_id"]),
    regionId: numOrNull(w["region_id"]),
    region: strOrNull(w["region"]),
    flavor: flavor
      ? { flavorId: str(flavor["flavor_id"]), flavorName: str(flavor["flavor_name"]), vcpus: numOrNull(flavor["vcpus"]), ram: numOrNull(flavor["ram"]) }
      : null,
    addresses,
    tags: objArray(w["tags"]).map((t) => ({ key: str(t["key"]), value: str(t["value"]), readOnly: bool(t["read_only"]) })),
    securityGroups: objArray(w["security_groups"]).map((g) => str(g["name"])),
    volumes: objArray(w["volumes"]).map((v) => ({ id: str(v["id"]), deleteOnTermination: bool(v["delete_on_termination"]) })),
    sshKeyName: strOrNull(w["ssh_key_name"]),
    instanceDescription: strOrNull(w["instance_description"]),
    taskId: strOrNull(w["task_id"]),
    creatorTaskId: strOrNull(w["creator_task_id"]),
  };
}

/** The instance functions of the client. */
export interface InstancesApi {
  /** One page of the instances of a project in a region. */
  list(projectId: number, regionId: number, params?: ListInstancesParams, options?: RequestOptions): Promise<OffsetPage<Instance>>;
  /** Every instance of a project in a region. */
  listAll(
    projectId: number,
    regionId: number,
    params?: Omit<ListInstancesParams, "limit" | "offset">,
    pager?: OffsetPagerOptions,
    options?: RequestOptions,
  ): Promise<Instance[]>;
}

/** Bind the instance functions to a transport. */
export function instancesApi(t: Transport): InstancesApi {
  const list = async (projectId: number, regionId: number, params: ListInstancesParams = {}, options?: RequestOptions): Promise<OffsetPage<Instance>> => {
    const res = await t.request({
      method: "GET",
      path: apiPath`/cloud/v1/instances/${projectId}/${regionId}`,
      query: {
        limit: params.limit,
        offset: params.offset,
        name: params.name,
        status: params.status,
        order_by: params.orderBy,
        tag_value: params.tagValue,
        include_k8s: params.includeK8s,
        include_baremetal: params.includeBaremetal,
      },
      options,
    });
    const page = bodyList(res);
    return { count: numOr(page.count, 0), results: page.results.map(instanceFromWire) };
  };
  return {
    list,
    listAll: (projectId, regionId, params = {}, pager = {}, options) =>
      fetchAllOffset((p) => list(projectId, regionId, { ...params, ...p }, options), pager),
  };
}
