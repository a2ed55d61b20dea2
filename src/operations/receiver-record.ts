/** The receiver's record before booking: their earlier parcels counted by phone, and the risk rule that flags them. */

import * as z from 'zod';
import { envSettings, optionalSetting } from '../settings/env.js';
import type { ReceiverCheck, ReceiverCounts, ReceiverHistory, StoreTables } from '../store/index.js';
import { phoneKey } from '../waybill/phones.js';
import { type Scope, scopeChannels } from './access.js';

/** Flagged at `count` or more among the receiver's latest `window` parcels. */
export interface RiskThreshold {
  count: number;
  window: number;
}

/** RECEIVER_RISK_RETURNS and RECEIVER_RISK_FAILED; a rule left out is off. */
export interface ReceiverRiskSettings {
  /** Parcels returned to sender or COD refused. */
  returns?: RiskThreshold;
  /** Failed delivery attempts. */
  failed?: RiskThreshold;
}

/** A receiver with earlier parcels: their counts, and whether (and why) the rule flags them. */
export interface ReceiverRecord extends ReceiverHistory {
  flagged: boolean;
  /** Why, in words: "1 returned or refused of the last 5 parcels". */
  reasons: string[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The rule, on a record's latest parcels. */
export function judge(history: ReceiverHistory, settings: ReceiverRiskSettings): ReceiverRecord {
  const { returns, failed } = settings;
  const reasons = [
    ...(returns && history.recent.returns >= returns.count
      ? [`${history.recent.returns} returned or refused of the last ${plural(returns.window, 'parcel')}`]
      : []),
    ...(failed && history.recent.failed >= failed.count
      ? [`${plural(history.recent.failed, 'failed attempt')} in the last ${plural(failed.window, 'parcel')}`]
      : []),
  ];
  return { ...history, flagged: reasons.length > 0, reasons };
}

/**
 * The record of the receiver with this phone (as typed, in their country), counting only the
 * bookings `scope` sees (the access rule: a record never tells of parcels its viewer may not see):
 * one indexed query. Undefined when the phone cannot be dialled or they have no earlier parcel.
 */
export async function receiverRecord(
  store: Pick<StoreTables, 'receivers'>,
  settings: ReceiverRiskSettings,
  receiver: { phone: string; country?: string },
  scope: Scope,
): Promise<ReceiverRecord | undefined> {
  const key = phoneKey(receiver.phone, receiver.country);
  if (!key) return undefined;
  const windows = { returns: settings.returns?.window ?? 0, failed: settings.failed?.window ?? 0 };
  const history = await store.receivers.history(key, windows, { channelIds: scopeChannels(scope) });
  return history.parcels > 0 ? judge(history, settings) : undefined;
}

/** "5 earlier parcels: 3 delivered, 2 returned": counts only, none that are 0. */
export function recordWords(counts: ReceiverCounts): string {
  const parts = [
    ...(counts.delivered ? [`${counts.delivered} delivered`] : []),
    ...(counts.failed ? [plural(counts.failed, 'failed attempt')] : []),
    ...(counts.returned ? [`${counts.returned} returned`] : []),
    ...(counts.refused ? [`${counts.refused} COD refused`] : []),
  ];
  const parcels = plural(counts.parcels, 'earlier parcel');
  return parts.length > 0 ? `${parcels}: ${parts.join(', ')}` : parcels;
}

/** A flagged receiver of a COD booking: the dispatcher confirms they called before it is booked. */
export function needsConfirmation(record: ReceiverRecord | undefined, cod: boolean): boolean {
  return cod && record?.flagged === true;
}

/** What a booking keeps of the record it was checked against. */
export function checkOf(record: ReceiverRecord, confirmedBy?: string): ReceiverCheck {
  const { parcels, delivered, failed, returned, refused, flagged } = record;
  return { parcels, delivered, failed, returned, refused, flagged, ...(confirmedBy ? { confirmedBy } : {}) };
}

/**
 * What a booking keeps of its receiver's record as it is now, with who confirmed the call if anyone
 * did (a file's row and a workflow's have nobody to): undefined without earlier parcels.
 */
export async function receiverCheck(
  store: Pick<StoreTables, 'receivers'>,
  settings: ReceiverRiskSettings,
  receiver: { phone: string; country?: string },
  scope: Scope,
  confirmedBy?: string,
): Promise<ReceiverCheck | undefined> {
  const record = await receiverRecord(store, settings, receiver, scope);
  return record && checkOf(record, confirmedBy);
}

/** The dispatcher's words when they confirm, as the audit log and the card keep them. */
export const CONFIRMATION = 'I called the receiver and they expect this parcel';

/**
 * The check kept with its booking, in the booking's transaction; a flagged receiver also goes to the
 * audit log, with who confirmed the call.
 */
export async function keepCheck(
  tx: Pick<StoreTables, 'receivers' | 'audit'>,
  trackingNumber: string,
  userId: string,
  check: ReceiverCheck,
): Promise<void> {
  await tx.receivers.keep(trackingNumber, check);
  if (!check.flagged) return;
  await tx.audit.record({
    userId: check.confirmedBy ?? userId,
    operation: 'receiver',
    trackingNumber,
    outcome: check.confirmedBy ? 'confirmed' : 'flagged',
    detail: check.confirmedBy ? `${CONFIRMATION}: ${recordWords(check)}` : recordWords(check),
  });
}

/** The rule's `count/window` (`1/5`: one or more among the latest 5 parcels), or `0` for off: null when off. */
const riskThreshold = z
  .string()
  .trim()
  .regex(
    /^(0|\d{1,3}\/\d{1,3})$/,
    'count/window such as 1/5 (that many among the latest parcels), or 0 for off',
  )
  .transform((text): RiskThreshold | null => {
    // Null, not undefined: the setting's default stands for undefined.
    if (text === '0') return null;
    const [count = 0, window = 0] = text.split('/').map(Number);
    return { count, window };
  })
  .refine(
    (rule) => !rule || (rule.count >= 1 && rule.count <= rule.window && rule.window <= 100),
    'count/window with a count from 1 to the window and a window of at most 100 parcels, such as 1/5, or 0 for off',
  );

/** RECEIVER_RISK_RETURNS and RECEIVER_RISK_FAILED. */
export const receiverRiskEnv = envSettings(
  z.object({
    RECEIVER_RISK_RETURNS: optionalSetting(riskThreshold).default({ count: 1, window: 5 }),
    RECEIVER_RISK_FAILED: optionalSetting(riskThreshold).default({ count: 2, window: 5 }),
  }),
  (settings): { receiverRisk: ReceiverRiskSettings } => ({
    receiverRisk: {
      ...(settings.RECEIVER_RISK_RETURNS ? { returns: settings.RECEIVER_RISK_RETURNS } : {}),
      ...(settings.RECEIVER_RISK_FAILED ? { failed: settings.RECEIVER_RISK_FAILED } : {}),
    },
  }),
);
