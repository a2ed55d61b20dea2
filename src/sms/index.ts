/** Texting receivers: the gateways, the templates, what can be texted, and when. */
export { type SmsEncoding, type SmsSize, smsSize } from './encoding.js';
export { logGateway, type SendOutcome, type SmsGateway } from './gateway.js';
export { type MobileReading, readMobile } from './mobile.js';
export { DEFAULT_QUIET_HOURS, type QuietHours, RECEIVERS_TIME_ZONE, sendableFrom } from './quiet-hours.js';
export {
  SEMAPHORE_PER_MINUTE,
  SEMAPHORE_URL,
  type SemaphoreSettings,
  semaphoreGateway,
} from './semaphore.js';
export {
  deliveryDay,
  isSmsLanguage,
  REASON_TEXT,
  SMS_EVENT_WORDS,
  SMS_EVENTS,
  SMS_LANGUAGES,
  type SmsEvent,
  type SmsLanguage,
  SmsTemplates,
  type SmsValues,
  TemplateError,
} from './templates.js';
