/**
 * Cloud instances: `GET /cloud/v1/instances/{project_id}/{region_id}`.
 *
 * Why: the `getInstances` lookup; an empty project is a normal answer (count 0), not an error.
 */
import { fetchAllOffset, type OffsetPage, type OffsetPagerOptions } from "../pagination";
import type { RequestOptions, Transport } from "../transport";
import { apiPath } from "../url";
import { z } from "zod";
import { offsetPage, optionalFlag, optionalInt, optionalList, optionalText, text } from "../schema";

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

const flavorSchema = z
  .object({ flavor_id: text, flavor_name: text, vcpus: optionalInt, ram: optionalInt })
  .transform((f): InstanceFlavor => ({ flavorId: f.flavor_id, flavorName: f.flavor_name, vcpus: f.vcpus, ram: f.ram }));

const addressSchema = z
  .object({ addr: text, type: text, interface_name: optionalText, subnet_id: optionalText, subnet_name: optionalText })
  .transform(
    (a): InstanceAddress => ({ addr: a.addr, type: a.type, interfaceName: a.interface_name, subnetId: a.subnet_id, subnetName: a.subnet_name }),
  );

const tagSchema = z
  .object({ key: z.string(), value: z.string(), read_only: optionalFlag })
  .transform((t): InstanceTag => ({ key: t.key, value: t.value, readOnly: t.read_only }));

const volumeSchema = z
  .object({ id: text, delete_on_termination: optionalFlag })
  .transform((v): InstanceVolume => ({ id: v.id, deleteOnTermination: v.delete_on_termination }));

/**
 * The wire instance. The spec shows no instance fields; `id`, `name`, `status` and `vm_state`
 * (which the platform always sends, and the lookup filters and names by) are required, the
 * rest is open: absent lists read as empty, absent values as null, a present one must be well-formed.
 */
export const instanceSchema = z
  .object({
    id: text,
    name: z.string(),
    status: text,
    vm_state: text,
    created_at: optionalText,
    project_id: optionalInt,
    region_id: optionalInt,
    region: optionalText,
    flavor: flavorSchema.nullish().transform((f) => f ?? null),
    addresses: z
      .record(z.string(), z.array(addressSchema))
      .nullish()
      .transform((a) => a ?? {}),
    tags: optionalList(tagSchema),
    security_groups: optionalList(z.object({ name: z.string() })),
    volumes: optionalList(volumeSchema),
    ssh_key_name: optionalText,
    instance_description: optionalText,
    task_id: optionalText,
    creator_task_id: optionalText,
  })
  .transform(
    (w): Instance => ({
      id: w.id,
      name: w.name,
      status: w.status,
      vmState: w.vm_state,
      createdAt: w.created_at,
      projectId: w.project_id,
      regionId: w.region_id,
      region: w.region,
      flavor: w.flavor,
      addresses: w.addresses,
      tags: w.tags,
      securityGroups: w.security_groups.map((g) => g.name),
      volumes: w.volumes,
      sshKeyName: w.ssh_key_name,
      instanceDescription: w.instance_description,
      taskId: w.task_id,
      creatorTaskId: w.creator_task_id,
    }),
  );

/** A page of instances (`count` is the total; an empty project is count 0). */
export const instancePageSchema = offsetPage(instanceSchema);

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
      response: instancePageSchema,
    });
    return res.data;
  };
  return {
    list,
    listAll: (projectId, regionId, params = {}, pager = {}, options) =>
      fetchAllOffset((p) => list(projectId, regionId, { ...params, ...p }, options), { what: `GET ${apiPath`/cloud/v1/instances/${projectId}/${regionId}`}`, ...pager }),
  };
}
