/**
 * The provider objects the SDK resource classes hand to `pulumi.dynamic.Resource`.
 *
 * Why they look like this: Pulumi serializes these methods into every resource's state, in its
 * inputs and again in its outputs, and the file backend rewrites the whole state at every step,
 * so each byte here is paid twice per resource, many times per run. Each method only `require`s
 * the runtime module by package name when called, inside the provider process, so `__provider`
 * holds no key and no HTTP library, and a newer installed version of this package is used by
 * refresh and delete of older resources. The methods name the module and the type as literals
 * instead of capturing variables: the serializer writes every captured variable into every
 * method's wrapper, which made the text 2,713 bytes instead of about 2,000. (A method per
 * object is the serializer's floor: each one gets its own wrapper of about 150 bytes.)
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceTypeName } from "../../../provider/dynamic/runtime";

const providers: Record<ResourceTypeName, pulumi.dynamic.ResourceProvider> = {
  StorageEvent: {
    configure: (...a) => require("pulumi-cloudplatform/internal/dynamic").configure(...a),
    check: (...a) => require("pulumi-cloudplatform/internal/dynamic").handlers.StorageEvent.check(...a),
    diff: (...a) => require("pulumi-cloudplatform/internal/dynamic").handlers.StorageEvent.diff(...a),
    create: (...a) => require("pulumi-cloudplatform/internal/dynamic").handlers.StorageEvent.create(...a),
    read: (...a) => require("pulumi-cloudplatform/internal/dynamic").handlers.StorageEvent.read(...a),
    update: (...a) => require("pulumi-cloudplatform/internal/dynamic").handlers.StorageEvent.update(...a),
    delete: (...a) => require("pulumi-cloudplatform/internal/dynamic").handlers.StorageEvent.delete(...a),
  },
  K8sClusterUpgrade: {
    configure: (...a) => require("pulumi-cloudplatform/internal/dynamic").configure(...a),
    check: (...a) => require("pulumi-cloudplatform/internal/dynamic").handlers.K8sClusterUpgrade.check(...a),
    diff: (...a) => require("pulumi-cloudplatform/internal/dynamic").handlers.K8sClusterUpgrade.diff(...a),
    create: (...a) => require("pulumi-cloudplatform/internal/dynamic").handlers.K8sClusterUpgrade.create(...a),
    read: (...a) => require("pulumi-cloudplatform/internal/dynamic").handlers.K8sClusterUpgrade.read(...a),
    update: (...a) => require("pulumi-cloudplatform/internal/dynamic").handlers.K8sClusterUpgrade.update(...a),
    delete: (...a) => require("pulumi-cloudplatform/internal/dynamic").handlers.K8sClusterUpgrade.delete(...a),
  },
};

/**
 * The (serializable) dynamic provider of one resource type: always the same object, so Pulumi
 * serializes it once per program (its text is cached per provider object).
 */
export function dynamicProvider(typeName: ResourceTypeName): pulumi.dynamic.ResourceProvider {
  return providers[typeName];
}

/** Module name under which resources register (`pulumi-nodejs:dynamic/cloudplatform:<Type>`). */
export const DYNAMIC_MODULE = "cloudplatform";
