import { impliedScope, REQUIRED_SCOPE, type Scope } from '@longhaul/auth';
import {
  ApiKeyListViewSchema,
  ApiKeyViewSchema,
  CreateApiKeyRequestSchema,
  CreatedApiKeyViewSchema,
  CreateJobRequestSchema,
  CreateWebhookEndpointRequestSchema,
  DashboardConfigViewSchema,
  DeadLetterGroupViewSchema,
  DeadLetterListViewSchema,
  DeadLetterTopicViewSchema,
  DeadLetterViewSchema,
  DeliveryAttemptSchema,
  DeliveryViewSchema,
  DlqMessageListViewSchema,
  DlqMessageViewSchema,
  DownloadViewSchema,
  JobDeliveriesViewSchema,
  JobListViewSchema,
  JobNotifySchema,
  JobNotifyViewSchema,
  JobOutputsSchema,
  JobSourceSchema,
  JobStageViewSchema,
  JobStepViewSchema,
  JobSummaryViewSchema,
  JobViewSchema,
  LaneQueueViewSchema,
  MediaInfoViewSchema,
  QueuesViewSchema,
  SerializedErrorSchema,
  StepAttemptViewSchema,
  WebhookEndpointListViewSchema,
  WebhookEndpointViewSchema,
} from '@longhaul/contracts';
import { UploadViewSchema } from '@longhaul/jobs';
import { OPENAPI_DOCUMENT_TAG, ReadinessReportSchema, type DiscoveredRoute, type OpenApiDocumentOptions } from '@longhaul/platform';
import { KEYED_RESPONSES, RATE_LIMIT_HEADERS } from './api.responses';
import { API_KEYS_OPERATIONS } from './api-keys.operations';
import { DASHBOARD_CONFIG_OPERATIONS } from './dashboard-config.operations';
import { DEAD_LETTERS_OPERATIONS } from './dead-letters.operations';
import { DLQ_MESSAGES_OPERATIONS } from './dlq-messages.operations';
import { HEALTH_OPERATIONS } from './health.operations';
import { JOB_DELIVERIES_OPERATIONS } from './job-deliveries.operations';
import { JOB_EVENTS_OPERATIONS } from './job-events.operations';
import { JOB_FILES_OPERATIONS } from './job-files.operations';
import { JOBS_OPERATIONS } from './jobs.operations';
import { METRICS_OPERATIONS } from './metrics.operations';
import { QUEUES_OPERATIONS } from './queues.operations';
import { UPLOADS_OPERATIONS } from './uploads.operations';
import { WEBHOOK_ENDPOINTS_OPERATIONS } from './webhook-endpoints.operations';

/**
 * The scope the api's key guard asks of a route: its `@RequiresScope()`, else the one its method
 * implies (`GET`: `read`, others: `write`). Read from the same metadata the guard reads.
 */
function scopeOf(route: DiscoveredRoute): Scope {
  const handler = (route.controller.prototype as Record<string, object>)[route.handler]!;
  const declared = (Reflect.getMetadata(REQUIRED_SCOPE, handler) ?? Reflect.getMetadata(REQUIRED_SCOPE, route.controller)) as Scope | undefined;
  return declared ?? impliedScope(route.method.toUpperCase());
}

/** The api's OpenAPI document: served at `/openapi.json`, shown at `/docs`. */
export const API_OPENAPI: OpenApiDocumentOptions = {
  info: {
    title: 'Longhaul API',
    version: '1',
    description:
      'Submit long-running jobs (today `video.process`: an H.264 ladder as MP4 and HLS, a poster, thumbnails and a sprite sheet), follow them, and download what they produced. ' +
      'Errors are `application/problem+json` (RFC 9457) with a stable `code`.',
    license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
  },
  servers: [{ url: '/', description: 'This api' }],
  tags: [
    { name: 'jobs', description: 'Submit, list, follow and cancel jobs.' },
    { name: 'uploads', description: 'Upload a video for a job to name as its source.' },
    { name: 'files', description: 'What jobs produced.' },
    { name: 'webhooks', description: "Endpoints that hear about every job's end, and each job's deliveries." },
    { name: 'dead letters', description: 'Steps whose attempts ran out: look, replay, delete (replay and delete need the `admin` scope). Messages consumers dead-lettered: the same, all with the `admin` scope.' },
    { name: 'api keys', description: "This tenant's API keys: create, list, revoke (the `admin` scope)." },
    { name: 'operations', description: 'Health, readiness, metrics and queues.' },
    { name: 'dashboard', description: 'The web dashboard at `/dashboard/`.' },
    { name: OPENAPI_DOCUMENT_TAG, description: 'This document; `/docs` shows it as a page.' },
  ],
  // Named in components.schemas, each by the name of the type it stands for.
  schemas: {
    CreateJobRequest: CreateJobRequestSchema,
    JobSource: JobSourceSchema,
    JobOutputs: JobOutputsSchema,
    JobNotify: JobNotifySchema,
    JobView: JobViewSchema,
    JobStageView: JobStageViewSchema,
    JobStepView: JobStepViewSchema,
    StepAttemptView: StepAttemptViewSchema,
    MediaInfoView: MediaInfoViewSchema,
    DownloadView: DownloadViewSchema,
    JobNotifyView: JobNotifyViewSchema,
    SerializedError: SerializedErrorSchema,
    JobListView: JobListViewSchema,
    JobSummaryView: JobSummaryViewSchema,
    UploadView: UploadViewSchema,
    DeadLetterView: DeadLetterViewSchema,
    DeadLetterGroupView: DeadLetterGroupViewSchema,
    DeadLetterListView: DeadLetterListViewSchema,
    DlqMessageView: DlqMessageViewSchema,
    DlqMessageListView: DlqMessageListViewSchema,
    QueuesView: QueuesViewSchema,
    LaneQueueView: LaneQueueViewSchema,
    DeadLetterTopicView: DeadLetterTopicViewSchema,
    CreateWebhookEndpointRequest: CreateWebhookEndpointRequestSchema,
    WebhookEndpointView: WebhookEndpointViewSchema,
    WebhookEndpointListView: WebhookEndpointListViewSchema,
    DeliveryView: DeliveryViewSchema,
    DeliveryAttemptView: DeliveryAttemptSchema,
    JobDeliveriesView: JobDeliveriesViewSchema,
    CreateApiKeyRequest: CreateApiKeyRequestSchema,
    ApiKeyView: ApiKeyViewSchema,
    CreatedApiKeyView: CreatedApiKeyViewSchema,
    ApiKeyListView: ApiKeyListViewSchema,
    DashboardConfigView: DashboardConfigViewSchema,
    ReadinessReport: ReadinessReportSchema,
  },
  operations: [
    JOBS_OPERATIONS,
    JOB_EVENTS_OPERATIONS,
    JOB_FILES_OPERATIONS,
    UPLOADS_OPERATIONS,
    DEAD_LETTERS_OPERATIONS,
    DLQ_MESSAGES_OPERATIONS,
    QUEUES_OPERATIONS,
    WEBHOOK_ENDPOINTS_OPERATIONS,
    JOB_DELIVERIES_OPERATIONS,
    API_KEYS_OPERATIONS,
    DASHBOARD_CONFIG_OPERATIONS,
    HEALTH_OPERATIONS,
    METRICS_OPERATIONS,
  ],
  security: {
    description: 'An API key, `Authorization: Bearer lh_<prefix>_<secret>` (the api\'s `keys create` command makes one). Its scopes: `read` for GET, `write` for the rest, `admin` for operator routes and for managing the tenant\'s keys.',
    bearerFormat: 'lh_<prefix>_<secret>',
    scopeOf,
    responses: KEYED_RESPONSES,
    headers: RATE_LIMIT_HEADERS,
  },
};
