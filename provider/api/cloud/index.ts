/**
 * The cloud product group (`client.cloud.*`).
 *
 * Why a group: the API is organized by product, and so is the client, so a call reads like the
 * path it sends (`client.cloud.k8s.upgrade` -> `POST /cloud/v2/k8s/.../upgrade`).
 */
import type { Transport } from "../transport";
import { instancesApi, type InstancesApi } from "./instances";
import { k8sApi, type K8sApi } from "./k8s";
import { projectsApi, type ProjectsApi } from "./projects";
import { regionsApi, type RegionsApi } from "./regions";
import { tasksApi, type TasksApi } from "./tasks";

/** `client.cloud`. */
export interface CloudApi {
  readonly tasks: TasksApi;
  readonly projects: ProjectsApi;
  readonly regions: RegionsApi;
  readonly instances: InstancesApi;
  readonly k8s: K8sApi;
}

/** Bind the cloud group to a transport. */
export function cloudApi(t: Transport): CloudApi {
  return Object.freeze({
    tasks: tasksApi(t),
    projects: projectsApi(t),
    regions: regionsApi(t),
    instances: instancesApi(t),
    k8s: k8sApi(t),
  });
}
