/** Settling a courier call of unknown outcome once, with what a person found out from the courier. */
import type { Logger } from 'pino';
import type { AuditEntry, Store, StoreTables } from '../store/index.js';
import { storeOutcome } from './attempts.js';

export interface Resolving<R, T> {
  /** The attempt of unknown outcome. */
  key: string;
  state: 'succeeded' | 'failed';
  /** What the attempt keeps, so a replay is answered with it. */
  result: R;
  audit: Omit<AuditEntry, 'id' | 'at'>;
  /** More bookkeeping in the same transaction (the booking stored, the record replaced). */
  record?: (tx: StoreTables) => Promise<T>;
}

/**
 * The attempt settled, the caller's bookkeeping and the audit entry, in one transaction (a
 * database briefly away is waited for); undefined when someone settled it first.
 */
export function settleUnknown<R, T = undefined>(
  deps: { store: Store; logger: Logger },
  input: Resolving<R, T>,
): Promise<{ recorded: T | undefined } | undefined> {
  return storeOutcome(deps, async (tx) => {
    if (!(await tx.attempts.settleUnknown<R>(input.key, input.state, input.result))) return undefined;
    const recorded = await input.record?.(tx);
    await tx.audit.record(input.audit);
    return { recorded };
  });
}

/** The audit entry of a person's verdict on a call of unknown outcome: what they found, and who decided. */
export function verdictAudit(
  decidedBy: string,
  trackingNumber: string,
  outcome: string,
  detail: string,
): Omit<AuditEntry, 'id' | 'at'> {
  return {
    userId: decidedBy,
    operation: 'resolve',
    trackingNumber,
    outcome,
    detail: `${detail}: decided by ${decidedBy}`,
  };
}
