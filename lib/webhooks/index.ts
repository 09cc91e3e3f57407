/**
 * rxkube/webhooks: validating, mutating and conversion webhooks typed by resource, the HTTPS
 * server that serves them, their certificates, and their configurations generated from the code.
 * Node only (node:https, node:crypto, node:fs).
 * @packageDocumentation
 */
export { webhookResource, type WebhookResource } from './webhookResource.js';
export type {
  AdmissionOperation,
  AdmissionRequest,
  AdmissionResponse,
  AdmissionReview,
  AdmissionReviewVersion,
  GroupVersionKind,
  GroupVersionResource,
  UserInfo,
} from './admissionReview.js';
export {
  allowed,
  denied,
  patched,
  replaced,
  type DecisionExtras,
  type DeniedOptions,
  type MutationDecision,
  type PatchedDecision,
  type ReplacedDecision,
  type ValidationDecision,
} from './admissionDecision.js';
export {
  validatingWebhook,
  mutatingWebhook,
  type AdmissionContext,
  type AdmissionWebhook,
  type AdmissionWebhookRuntimeOptions,
  type HandlerResult,
  type MutateHandler,
  type MutatingWebhookOptions,
  type ValidateHandler,
  type ValidatingWebhookOptions,
} from './admissionWebhook.js';
export { defaultWebhookPath, type AdmissionWebhookDeclaration, type MutatingWebhookDeclaration, type WebhookEntry } from './webhookDeclaration.js';
export type { ConversionRequest, ConversionResponse, ConversionReview } from './conversionReview.js';
export {
  conversionWebhook,
  type ConversionWebhook,
  type ConversionWebhookBase,
  type Converter,
  type HubConversionOptions,
  type PairConversionOptions,
  type Spoke,
} from './conversionWebhook.js';
export { parseAdmissionReview, parseConversionReview } from './parseReview.js';
export { BadReviewError, MutationPatchError, WebhookHandlerError, WebhookTimeoutError, type WebhookError } from './webhookErrors.js';
export { webhookConfigurations, crdConversion, clientConfig, type CrdConversion, type WebhookConfigurationsOptions, type WebhookEndpoint } from './webhookConfiguration.js';
export type {
  MutatingWebhookConfiguration,
  MutatingWebhookEntry,
  ValidatingWebhookConfiguration,
  ValidatingWebhookEntry,
  WebhookClientConfig,
  WebhookMatchCondition,
  WebhookRule,
  WebhookService,
} from './webhookConfigurationTypes.js';
export {
  validateWebhookConfiguration,
  webhookConfigurationProblems,
  WebhookConfigurationError,
  type WebhookConfigurationLike,
  type WebhookLike,
} from './validateWebhookConfiguration.js';
export type { FieldError } from './fieldErrors.js';
export {
  applyWebhookConfigurations,
  keepWebhookConfigurations,
  validatingWebhookConfigurations,
  mutatingWebhookConfigurations,
  type ApplyWebhookConfigurationsOptions,
  type AppliedWebhookConfigurations,
  type ConfigurationsApplied,
} from './applyWebhookConfigurations.js';
export { CertificateError, checkServingCertificate, type CertificateUpdate, type ServingCertificate } from './servingCertificate.js';
export {
  generateCertificates,
  generatedCertificates,
  writeCertificateFiles,
  type GenerateCertificatesOptions,
  type GeneratedCertificates,
  type GeneratedCertificatesOptions,
} from './generatedCertificates.js';
export { fileCertificates, staticCertificate, type FileCertificatesOptions } from './fileCertificates.js';
export { webhookServer, type MetricsText, type WebhookServer, type WebhookServerOptions } from './webhookServer.js';
export type { WebhookServerMetric, WebhookServerStats } from './webhookServerMetrics.js';
export { MAX_REQUEST_BYTES } from './requestBody.js';
