/**
 * A cluster's CNI, authentication and logging settings (the cloud OpenAPI's
 * `K8sClusterV2Serializer`, `K8sClusterCNIV2Serializer`, `K8sClusterCiliumV2Serializer`,
 * `K8sClusterAuthenticationV2Serializer`, `K8sClusterOIDCV2Serializer`, `LoggingOutSerializer`;
 * the Python SDK's `types/cloud/k8s/k8s_cluster.py`, `types/cloud/logging.py`). No decision
 * reads them, so every field is optional.
 */
import { z } from "zod";
import { optionalBoolean, optionalInt, optionalObject, optionalStringMap, optionalStrings, optionalText, type Answer } from "../schema";

const ciliumFields = z
  .object({
    encryption: optionalBoolean,
    hubble_relay: optionalBoolean,
    hubble_ui: optionalBoolean,
    lb_acceleration: optionalBoolean,
    lb_mode: optionalText,
    mask_size: optionalInt,
    mask_size_v6: optionalInt,
    routing_mode: optionalText,
    tunnel: optionalText,
    cni_exclusive: optionalBoolean,
  })
  .transform((c) => ({
    /** WireGuard encryption between nodes. */
    encryption: c.encryption,
    /** Whether Hubble Relay is deployed. */
    hubbleRelay: c.hubble_relay,
    /** Whether the Hubble UI is deployed. */
    hubbleUi: c.hubble_ui,
    /** Load-balancer acceleration. */
    lbAcceleration: c.lb_acceleration,
    /** Load-balancer mode (`snat`, `dsr`, `hybrid`; kept as sent). */
    lbMode: c.lb_mode,
    /** Mask size of the IPv4 pod CIDR per node. */
    maskSize: c.mask_size,
    /** Mask size of the IPv6 pod CIDR per node. */
    maskSizeV6: c.mask_size_v6,
    /** Routing mode (`tunnel`, `native`; kept as sent). */
    routingMode: c.routing_mode,
    /** Tunnel protocol (`geneve`, `vxlan`, or empty; kept as sent). */
    tunnel: c.tunnel,
    /** Whether Cilium manages the node's networking alone (the Python SDK's field). */
    cniExclusive: c.cni_exclusive,
  }));

/** Cilium's settings, when the cluster's CNI is Cilium. */
export interface K8sCiliumSettings extends Answer<typeof ciliumFields> {}

const cniFields = z
  .object({ provider: optionalText, cilium: optionalObject<K8sCiliumSettings>(ciliumFields) })
  .transform((c) => ({
    /** The CNI plugin (`calico`, `cilium`; kept as sent). */
    provider: c.provider,
    /** Cilium's settings; null when not sent (another CNI). */
    cilium: c.cilium,
  }));

/** The cluster's CNI: its provider and, for Cilium, its settings. */
export interface K8sCniSettings extends Answer<typeof cniFields> {}

const oidcFields = z
  .object({
    client_id: optionalText,
    groups_claim: optionalText,
    groups_prefix: optionalText,
    issuer_url: optionalText,
    required_claims: optionalStringMap,
    signing_algs: optionalStrings,
    username_claim: optionalText,
    username_prefix: optionalText,
  })
  .transform((o) => ({
    /** The OIDC client id. */
    clientId: o.client_id,
    /** The JWT claim read as the user's groups. */
    groupsClaim: o.groups_claim,
    /** Prefix put before group names. */
    groupsPrefix: o.groups_prefix,
    /** The OIDC issuer's URL. */
    issuerUrl: o.issuer_url,
    /** Claims a token must carry, claim to value; `{}` when none. */
    requiredClaims: o.required_claims,
    /** Accepted signing algorithms (`RS256`, ...); `[]` when not sent. */
    signingAlgs: o.signing_algs,
    /** The JWT claim read as the user name. */
    usernameClaim: o.username_claim,
    /** Prefix put before user names. */
    usernamePrefix: o.username_prefix,
  }));

/** OIDC authentication of the cluster's API. */
export interface K8sOidcSettings extends Answer<typeof oidcFields> {}

const authenticationFields = z
  .object({ kubeconfig_created_at: optionalText, kubeconfig_expires_at: optionalText, oidc: optionalObject<K8sOidcSettings>(oidcFields) })
  .transform((a) => ({
    /** When the current kubeconfig was made, ISO 8601 as sent. */
    kubeconfigCreatedAt: a.kubeconfig_created_at,
    /** When the current kubeconfig expires, ISO 8601 as sent. */
    kubeconfigExpiresAt: a.kubeconfig_expires_at,
    /** OIDC settings; null when OIDC is not set up. */
    oidc: a.oidc,
  }));

/** How the cluster's API authenticates users. */
export interface K8sAuthenticationSettings extends Answer<typeof authenticationFields> {}

const retentionFields = z.object({ period: optionalInt }).transform((r) => ({
  /** Days the logs are kept. */
  period: r.period,
}));

/** How long the cluster's logs are kept. */
export interface K8sLogRetention extends Answer<typeof retentionFields> {}

const loggingFields = z
  .object({
    enabled: optionalBoolean,
    destination_region_id: optionalInt,
    topic_name: optionalText,
    retention_policy: optionalObject<K8sLogRetention>(retentionFields),
  })
  .transform((l) => ({
    /** Whether the cluster streams its logs; null when not reported. */
    enabled: l.enabled,
    /** The region the logs are stored in. */
    destinationRegionId: l.destination_region_id,
    /** The topic the logs are streamed to. */
    topicName: l.topic_name,
    /** How long the logs are kept; null when not set. */
    retentionPolicy: l.retention_policy,
  }));

/** The cluster's log streaming. */
export interface K8sLoggingSettings extends Answer<typeof loggingFields> {}

/** `cni`: null when not sent. */
export const k8sCni = optionalObject<K8sCniSettings>(cniFields);
/** `authentication`: null when not sent. */
export const k8sAuthentication = optionalObject<K8sAuthenticationSettings>(authenticationFields);
/** `logging`: null when not sent (the OpenAPI requires the key, nullable). */
export const k8sLogging = optionalObject<K8sLoggingSettings>(loggingFields);
