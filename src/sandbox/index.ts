export {
  createSandbox,
  DEFAULT_API_KEY,
  MAX_BODY_BYTES,
  type Sandbox,
  type SandboxOptions,
} from './sandbox.js';
export type { FaultsConfig, ProfessionalsConfig } from './context.js';
export type { RequestLogEntry } from './middleware.js';
export type { DeliveryAttempt } from './webhook-delivery.js';
export { signWebhook } from './webhook-delivery.js';
export { DEMO_USER_IDS } from './seed.js';
export { PROFESSIONALS } from './professionals.js';
export { openApiDocument, OPERATION_TABLE } from './openapi.js';
export { createDemoBackend, type DemoBackend, type DemoBackendOptions } from './demo-backend.js';
