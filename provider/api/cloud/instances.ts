/** Cloud instances, for the `getInstances` lookup. */
import type { OffsetPage, OffsetPagerOptions } from "../pagination";
import { offsetEndpoint } from "../pagedEndpoint";
import type { RequestOptions, Transport } from "../transport";
import { apiPath } from "../url";
import { z } from "zod";
import { offsetPage, optionalBoolean, optionalInt, optionalList, optionalText, readonlyList, readonlyRecord, text, withAliases, type Answer } from "../schema";

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

const flavorFields = z.object({ flavor_id: optionalText, flavor_name: optionalText, vcpus: optionalInt, ram: optionalInt }).transform((f) => ({
  /** Flavor id, when reported. */
  flavorId: f.flavor_id,
  /** Flavor name, when reported. */
  flavorName: f.flavor_name,
  /** Number of virtual CPUs, when reported. */
  vcpus: f.vcpus,
  /** RAM in MiB. */
  ram: f.ram,
}));

/** The instance's flavor (size). */
export interface InstanceFlavor extends Answer<typeof flavorFields> {}

const flavorSchema: z.ZodType<InstanceFlavor> = flavorFields;

const addressFields = z
  .object({ addr: text, type: optionalText, interface_name: optionalText, subnet_id: optionalText, subnet_name: optionalText })
  .transform((a) => ({
    /** The IP address. */
    addr: a.addr,
    /** `fixed` or `floating`, as sent; null when not sent. */
    type: a.type,
    /** Network interface name, when reported. */
    interfaceName: a.interface_name,
    /** Subnet id, when reported. */
    subnetId: a.subnet_id,
    /** Subnet name, when reported. */
    subnetName: a.subnet_name,
  }));

/** One address of an instance on a network. */
export interface InstanceAddress extends Answer<typeof addressFields> {}

const addressSchema: z.ZodType<InstanceAddress> = addressFields;

const tagFields = z.object({ key: z.string(), value: z.string(), read_only: optionalBoolean }).transform((t) => ({
  /** Tag key. */
  key: t.key,
  /** Tag value. */
  value: t.value,
  /** Whether the tag is set by the platform and cannot be changed; null when not reported. */
  readOnly: t.read_only,
}));

/** A key-value tag of an instance. */
export interface InstanceTag extends Answer<typeof tagFields> {}

const tagSchema: z.ZodType<InstanceTag> = tagFields;

const volumeFields = z.object({ id: text, delete_on_termination: optionalBoolean }).transform((v) => ({
  /** Volume id. */
  id: v.id,
  /** Whether the volume is deleted with the instance; null when not reported. */
  deleteOnTermination: v.delete_on_termination,
}));

/** A volume attached to an instance. */
export interface InstanceVolume extends Answer<typeof volumeFields> {}

const volumeSchema: z.ZodType<InstanceVolume> = volumeFields;

/**
 * `id` and `name` are required (by the OpenAPI, and the lookup filters by them); the older v1
 * names `instance_id`, `instance_name` and `instance_created` are read in their place.
 */
export const instanceSchema = withAliases(
  { id: "instance_id", name: "instance_name", created_at: "instance_created" },
  z.object({
    id: text,
    name: text,
    status: optionalText,
    vm_state: optionalText,
    created_at: optionalText,
    project_id: optionalInt,
    region_id: optionalInt,
    region: optionalText,
    flavor: flavorSchema.nullish().transform((f) => f ?? null),
    addresses: z
      .record(z.string(), optionalList(addressSchema))
      .nullish()
      .transform((a) => readonlyRecord(a ?? {})),
    tags: optionalList(tagSchema),
    security_groups: optionalList(z.object({ name: z.string() })),
    volumes: optionalList(volumeSchema),
    ssh_key_name: optionalText,
    instance_description: optionalText,
    task_id: optionalText,
    creator_task_id: optionalText,
  }),
)
  .transform((w) => ({
    /** Instance id. */
    id: w.id,
    /** Instance name. */
    name: w.name,
    /** ACTIVE, BUILD, SHUTOFF, ... as sent; null when not sent. */
    status: w.status,
    /** Hypervisor state of the VM (active, stopped, ...), as sent; null when not sent. */
    vmState: w.vm_state,
    /** Creation time, ISO 8601, as sent. */
    createdAt: w.created_at,
    /** Project of the instance. */
    projectId: w.project_id,
    /** Region of the instance. */
    regionId: w.region_id,
    /** Region name. */
    region: w.region,
    /** The instance's flavor (size), when reported. */
    flavor: w.flavor,
    /** Addresses keyed by network name (names are data and stay as sent). */
    addresses: w.addresses,
    /** Key-value tags of the instance. */
    tags: w.tags,
    /** Names of the security groups attached. */
    securityGroups: readonlyList(w.security_groups.map((g) => g.name)),
    /** Volumes attached to the instance. */
    volumes: w.volumes,
    /** Name of the SSH key the instance was created with, when any. */
    sshKeyName: w.ssh_key_name,
    /** Free-text description, when set. */
    instanceDescription: w.instance_description,
    /** Id of the task locking the instance, if any. */
    taskId: w.task_id,
    /** Id of the task that created the instance, when reported. */
    creatorTaskId: w.creator_task_id,
  }));

/** A virtual machine. */
export interface Instance extends Answer<typeof instanceSchema> {}

/** A page of instances (`count` is the total; an empty project is count 0). */
export const instancePageSchema = offsetPage(instanceSchema);

/** The instance functions of the client. */
export interface InstancesApi {
  list(projectId: number, regionId: number, params?: ListInstancesParams, options?: RequestOptions): Promise<OffsetPage<Instance>>;
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
  return offsetEndpoint<[projectId: number, regionId: number], ListInstancesParams, Instance>(t, {
    path: (projectId, regionId) => apiPath`/cloud/v1/instances/${projectId}/${regionId}`,
    query: {
      limit: "limit",
      offset: "offset",
      name: "name",
      status: "status",
      orderBy: "order_by",
      tagValue: "tag_value",
      includeK8s: "include_k8s",
      includeBaremetal: "include_baremetal",
    },
    page: instancePageSchema,
    idOf: (i) => i.id,
  });
}
