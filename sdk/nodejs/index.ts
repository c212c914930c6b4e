/**
 * pulumi-cloudplatform: Pulumi resources and lookups for the cloud platform API.
 *
 * Resources: {@link K8sClusterUpgrade}, {@link StorageEvent}. Lookups: the `getX`/`getXOutput`
 * functions. Configure with `cloudplatform:apiKey` (secret) and `cloudplatform:baseUrl`, or the
 * environment variables CLOUDPLATFORM_API_KEY and CLOUDPLATFORM_BASE_URL.
 */
export * from "./k8sClusterUpgrade";
export * from "./storageEvent";
export * from "./lookups";

import { serveWhenRunAsPlugin } from "./internal/sourcePlugin";
serveWhenRunAsPlugin();
