/**
 * The provider object each SDK resource class hands to `pulumi.dynamic.Resource`.
 *
 * Why it looks like this: Pulumi serializes these methods into every resource's state. Each
 * one only `require`s the runtime module by package name when called, inside the provider
 * process, so `__provider` stays a few hundred bytes, holds no key and no HTTP library, and a
 * newer installed version of this package is used by refresh and delete of older resources.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ResourceTypeName } from "../../../provider/dynamic/runtime";

const RUNTIME_MODULE = "pulumi-cloudplatform/internal/dynamic";

/** Builds the (serializable) dynamic provider of one resource type. */
export function dynamicProvider(typeName: ResourceTypeName): pulumi.dynamic.ResourceProvider {
  return {
    configure: async (req) => require(RUNTIME_MODULE).configure(req),
    check: async (olds, news) => require(RUNTIME_MODULE).handlers[typeName].check(olds, news),
    diff: async (id, olds, news) => require(RUNTIME_MODULE).handlers[typeName].diff(id, olds, news),
    create: async (inputs) => require(RUNTIME_MODULE).handlers[typeName].create(inputs),
    read: async (id, props) => require(RUNTIME_MODULE).handlers[typeName].read(id, props),
    update: async (id, olds, news) => require(RUNTIME_MODULE).handlers[typeName].update(id, olds, news),
    delete: async (id, props) => require(RUNTIME_MODULE).handlers[typeName].delete(id, props),
  };
}

/** Module name under which resources register (`pulumi-nodejs:dynamic/cloudplatform:<Type>`). */
export const DYNAMIC_MODULE = "cloudplatform";
