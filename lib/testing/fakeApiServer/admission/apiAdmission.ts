import { AdmissionRegistration, type AdmissionRegistrationDeps } from './admissionRegistration.js';
import { mutatingAdmissionWebhooks, validatingAdmissionWebhooks } from './admissionWebhooks.js';
import { mutatingAdmissionPolicies } from './mutatingAdmissionPolicy.js';
import { validatingAdmissionPolicies } from './validatingAdmissionPolicy.js';

// The admission a cluster's API objects define, in kube's places of the chain (ADMISSION.md §1):
// MutatingAdmissionPolicy, MutatingAdmissionWebhook (mutating), ValidatingAdmissionPolicy,
// ValidatingAdmissionWebhook (validating), each in the chain only while its objects exist.

/**
 * Reads the admission objects written to the server and puts their plugins in the chain.
 *
 * @example
 * ```ts
 * installApiAdmission({ storage, types, chain: admission, scheduler, rng, endpoints: options.webhooks });
 * ```
 */
export function installApiAdmission(deps: AdmissionRegistrationDeps): AdmissionRegistration {
  const registration = new AdmissionRegistration(deps);
  const webhooks = registration.webhookSource();
  const policies = registration.policySource();
  registration.gate(['mutatingadmissionpolicybindings'], mutatingAdmissionPolicies(policies), 'policy');
  registration.gate(['validatingadmissionpolicybindings'], validatingAdmissionPolicies(policies), 'policy');
  registration.gate(['mutatingwebhookconfigurations'], mutatingAdmissionWebhooks(webhooks), 'webhook');
  registration.gate(['validatingwebhookconfigurations'], validatingAdmissionWebhooks(webhooks), 'webhook');
  return registration;
}
