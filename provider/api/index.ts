/**
 * The API client layer's exports (the package's `pulumi-cloudplatform/api` is `../apiEntry.ts`,
 * which adds the task waiter). Nothing here imports from a layer above provider/api.
 *
 * Why curated: the transport's machinery (the retry policy's functions, the pacer, the failure
 * records) stays behind it, imported by its module path inside this package only, so it can
 * change without breaking a user.
 */
export { createClient, DEFAULT_TIMEOUT_MS } from "./client";
export type { ClientOptions, ClientLogger, CloudPlatformClient, RetryEvent } from "./client";
export type { ClientOptionName, OptionSources } from "./optionNames";
export {
  CloudPlatformError,
  ConfigurationError,
  ApiError,
  ValidationError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  ServerError,
  RequestError,
  ConnectionError,
  RequestAbortedError,
  ResponseFormatError,
  ResponseTooLargeError,
  PaginationLimitError,
  ListChangedError,
} from "./errors";
export type { ApiErrorDetail, ApiErrorInit, ConnectionErrorInit, ResponseFormatErrorInit } from "./errors";
export { DEFAULT_MAX_RESPONSE_BYTES } from "./responseBody";
export { DEFAULT_RETRY_POLICY } from "./retry";
export type { RetryPolicy, HttpMethod } from "./retry";
export { iterateOffsetPages, fetchAllOffset, iterateNumberedPages, fetchAllNumbered, DEFAULT_MAX_PAGES } from "./pagination";
export { DEFAULT_OVERLAP, DEFAULT_MAX_RESTARTS } from "./pageAnchors";
export type { ItemId, ShiftOptions } from "./pageAnchors";
export type { OffsetPage, OffsetPageFetcher, OffsetPagerOptions, PageProgress, NumberedPage, NumberedPageFetcher, NumberedPagerOptions } from "./pagination";
export { redact } from "./redact";
export { DEFAULT_MAX_CONCURRENT_REQUESTS } from "./pacing";
export { VERSION, DEFAULT_USER_AGENT } from "./version";
export type { RequestOptions } from "./transport";
export { TERMINAL_TASK_STATES, TASK_STATES } from "./cloud/tasks";
export type { Task, TaskState, TaskIdList, ListTasksParams, TasksApi } from "./cloud/tasks";
export type { Project, ListProjectsParams, ProjectsApi } from "./cloud/projects";
export type { Region, ListRegionsParams, RegionsApi } from "./cloud/regions";
export type { Instance, InstanceFlavor, InstanceAddress, InstanceTag, InstanceVolume, ListInstancesParams, InstancesApi } from "./cloud/instances";
export type { K8sCluster, K8sPool, K8sUpgradeVersion, K8sApi } from "./cloud/k8s";
export type { PoolQuotaRequest, PoolQuotaCheck, ExceededQuota } from "./cloud/k8sPoolQuota";
export type { CloudApi } from "./cloud";
export { NOTIFICATION_EVENT_NAMES, LIMIT_KIND_BY_EVENT, answeredWithoutKinds } from "./storage/notifications";
export type {
  NotificationEventName,
  NotificationEvent,
  CreatedNotificationEvent,
  ListedNotificationEvent,
  NotificationEventInput,
  NotificationWriteParams,
  NotificationsApi,
  StorageApi,
} from "./storage/notifications";
export type { DelegationStatus, AuthoritativeNameServer, DnsApi } from "./dns/analyze";
export { RESELLER_METRICS, RESELLER_PATHS } from "./waap/reseller";
export type { ResellerPaths, ResellerMetric, ResellerTotalsParams, ConsumptionRow, ConsumptionPage, ResellerPing, ResellerApi, WaapApi } from "./waap/reseller";
export type { AiTask, AiTaskName, AiTaskStatus, ListAiTasksParams, AiTasksApi, StreamingApi } from "./streaming/aiTasks";
export type { CurrentClient, ServiceStatus, ClientsApi, IamApi } from "./iam/clients";
