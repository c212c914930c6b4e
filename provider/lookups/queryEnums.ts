/**
 * Each list is the enum of the QUERY PARAMETER in the public OpenAPI (G-Core/product-documentation,
 * `api-reference/services_docs_mintlify_enriched/*_api.yaml`, commit 5b666307), which can be
 * narrower than the response field of the same name. Why and what else: docs/api-field-rules.md
 * "Query values".
 */

/**
 * `status` of `GET /cloud/v1/instances/{project_id}/{region_id}`: cloud_api.yaml schema
 * `InstanceStatusQuery` (the Python SDK 0.59.0's `instance_list_params.py` `Literal` is the same).
 * Statuses an instance reports but the filter lacks: DELETED, PASSWORD, RESCUE, UNKNOWN.
 */
export const INSTANCE_STATUS_QUERY = [
  "ACTIVE", "BUILD", "ERROR", "HARD_REBOOT", "MIGRATING", "PAUSED", "REBOOT", "REBUILD", "RESIZE", "REVERT_RESIZE",
  "SHELVED", "SHELVED_OFFLOADED", "SHUTOFF", "SOFT_DELETED", "SUSPENDED", "VERIFY_RESIZE",
] as const;

/** `state` (repeatable) of `GET /cloud/v1/tasks`: cloud_api.yaml schema `TaskState` (the parameter's items). */
export const TASK_STATE_QUERY = ["NEW", "RUNNING", "FINISHED", "ERROR"] as const;

/** `order_by` of `GET /cloud/v1/tasks`: cloud_api.yaml schema `TaskOrderByChoices`. */
export const TASK_ORDER_BY_QUERY = ["asc", "desc"] as const;

/**
 * `task_type` of `GET /cloud/v1/tasks`: cloud_api.yaml, the parameter's description ("Filter the
 * tasks by their type one of [...]"; the schema itself says only `string`, as does the Python
 * SDK). The cluster upgrade is `upgrade_k8s_cluster_v2`; the spec's `upgrade_k8s_cluster` (the
 * type an upgrade task reports) is not among them.
 */
export const TASK_TYPE_QUERY = [
  "activate_ddos_profile", "attach_bm_to_reserved_fixed_ip", "attach_vm_interface", "attach_vm_to_reserved_fixed_ip",
  "attach_volume", "convert_fip_to_reserved_fixed_ip", "convert_reserved_fixed_ip_to_fip", "create_ai_cluster_gpu",
  "create_basic_vm", "create_bm", "create_caas_container", "create_dbaas_postgres_cluster", "create_ddos_profile",
  "create_faas_function", "create_faas_namespace", "create_fip", "create_gpu_virtual_cluster", "create_image",
  "create_inference_application", "create_inference_instance", "create_k8s_cluster_pool_v2", "create_k8s_cluster_v2",
  "create_l7policy", "create_l7rule", "create_lblistener", "create_lbmember", "create_lbpool",
  "create_lbpool_health_monitor", "create_loadbalancer", "create_network", "create_reserved_fixed_ip",
  "create_router", "create_secret", "create_security_group", "create_security_group_rule", "create_servergroup",
  "create_sfs", "create_snapshot", "create_subnet", "create_vm", "create_volume", "deactivate_ddos_profile",
  "delete_ai_cluster_gpu", "delete_caas_container", "delete_dbaas_postgres_cluster", "delete_ddos_profile",
  "delete_faas_function", "delete_faas_namespace", "delete_fip", "delete_gpu_virtual_cluster",
  "delete_gpu_virtual_server", "delete_image", "delete_inference_application", "delete_inference_instance",
  "delete_k8s_cluster_pool_v2", "delete_k8s_cluster_v2", "delete_l7policy", "delete_l7rule", "delete_lblistener",
  "delete_lbmember", "delete_lbmetadata", "delete_lbpool", "delete_loadbalancer", "delete_network", "delete_project",
  "delete_reserved_fixed_ip", "delete_router", "delete_secret", "delete_security_group_rule", "delete_servergroup",
  "delete_sfs", "delete_snapshot", "delete_subnet", "delete_vm", "delete_volume", "detach_vm_interface",
  "detach_volume", "download_image", "downscale_ai_cluster_gpu", "downscale_gpu_virtual_cluster", "extend_sfs",
  "extend_volume", "failover_loadbalancer", "hard_reboot_bm", "hard_reboot_gpu_baremetal_cluster",
  "hard_reboot_gpu_baremetal_server", "hard_reboot_gpu_virtual_cluster", "hard_reboot_gpu_virtual_server",
  "hard_reboot_vm", "patch_caas_container", "patch_dbaas_postgres_cluster", "patch_faas_function",
  "patch_faas_namespace", "patch_lblistener", "patch_lbpool", "put_into_server_group", "put_l7rule", "rebuild_bm",
  "rebuild_gpu_baremetal_cluster", "rebuild_gpu_baremetal_node", "rebuild_gpu_baremetal_server",
  "remove_from_server_group", "replace_gpu_baremetal_server", "replace_lbmetadata", "resize_k8s_cluster_v2",
  "resize_loadbalancer", "resize_vm", "resume_vm", "revert_volume", "soft_reboot_bm",
  "soft_reboot_gpu_baremetal_cluster", "soft_reboot_gpu_baremetal_server", "soft_reboot_gpu_virtual_cluster",
  "soft_reboot_gpu_virtual_server", "soft_reboot_vm", "start_bm", "start_gpu_baremetal_cluster",
  "start_gpu_baremetal_server", "start_gpu_virtual_cluster", "start_gpu_virtual_server", "start_vm", "stop_bm",
  "stop_gpu_baremetal_cluster", "stop_gpu_baremetal_server", "stop_gpu_virtual_cluster", "stop_gpu_virtual_server",
  "stop_vm", "suspend_vm", "sync_private_flavors", "update_basic_vm", "update_ddos_profile", "update_floating_ip",
  "update_inference_application", "update_inference_instance", "update_k8s_cluster_v2", "update_l7policy",
  "update_lbmember", "update_lbmetadata", "update_loadbalancer", "update_network", "update_port",
  "update_port_allowed_address_pairs", "update_router", "update_security_group", "update_sfs",
  "update_tags_gpu_virtual_cluster", "upgrade_k8s_cluster_v2", "upscale_ai_cluster_gpu",
  "upscale_gpu_virtual_cluster",
] as const;

/** `task_name` of `GET /streaming/ai/tasks`: streaming_api.yaml, the parameter's inline enum (operation `get_ai_tasks_list`). */
export const AI_TASK_NAME_QUERY = ["transcription", "content-moderation"] as const;

/** `status` of `GET /streaming/ai/tasks`: streaming_api.yaml, the parameter's inline enum. */
export const AI_TASK_STATUS_QUERY = ["FAILURE", "PENDING", "RECEIVED", "RETRY", "REVOKED", "STARTED", "SUCCESS"] as const;

/** `ordering` of `GET /streaming/ai/tasks`: streaming_api.yaml, the parameter's inline enum. */
export const AI_TASK_ORDERING_QUERY = ["task_id", "status", "task_name", "started_at"] as const;
