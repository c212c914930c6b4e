/**
 * pulumi-cloudplatform: Pulumi resources and lookups for the cloud platform API.
 *
 * Resources: {@link K8sClusterUpgrade}, {@link StorageEvent}. Lookups: the `getX`/`getXOutput`
 * functions. Configure with `cloudplatform:apiKey` (secret) and `cloudplatform:baseUrl`, or the
 * environment variables CLOUDPLATFORM_API_KEY and CLOUDPLATFORM_BASE_URL; a {@link Provider}
 * per account for a program that works in several.
 */
export * from "./k8sClusterUpgrade";
export * from "./storageEvent";
export * from "./lookups";
export { Provider, type ProviderArgs } from "./provider";
export { ResourceOptionError } from "./internal/providerOption";

import { serveWhenRunAsPlugin } from "./internal/sourcePlugin";
serveWhenRunAsPlugin();
