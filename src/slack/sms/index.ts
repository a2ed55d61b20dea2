/** Receivers' SMS: the feature's public entry (the sender's job; the review's and the record's lines). */
import type { App } from '@slack/bolt';
import type { SmsSettings } from '../../operations/sms.js';
import { logGateway, type SmsGateway } from '../../sms/gateway.js';
import { semaphoreGateway } from '../../sms/semaphore.js';
import type { Core } from '../core.js';
import type { Feature, FeatureJobs } from '../feature.js';
import { clockJob } from '../runtime/jobs.js';
import { smsVerb } from './command.js';
import { smsTurnWith } from './send.js';

export { smsReviewBlocks } from './review.js';

/** How often a replica looks for SMS due: one arrives within this of its booking or status. */
const SMS_LOOK_MS = 10_000;

/** The gateway SMS_GATEWAY names. */
function gatewayOf(gateway: SmsSettings['gateway']): SmsGateway & { close?: () => Promise<void> } {
  return gateway.kind === 'semaphore' ? semaphoreGateway(gateway) : logGateway;
}

function register(app: App, core: Core): FeatureJobs {
  const gateway = gatewayOf(core.bot.sms.gateway);
  const job = clockJob(core, 'SMS', () => smsTurnWith(core, gateway, app.client), SMS_LOOK_MS);
  return {
    sms: {
      ...job,
      stop: () => {
        job.stop();
        // Graceful: a call under way is answered first.
        void gateway.close?.();
      },
    },
  };
}

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = { name: 'sms', register, verbs: [smsVerb] };
