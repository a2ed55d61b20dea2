/** What a modal carries in private_metadata, and the draft it names. (Each feature declares its own ids in its ids.ts.) */
import type { Draft, Drafts } from '../../store/index.js';

/** What a modal carries in private_metadata: the server-side draft holds everything else. */
export interface ViewMetadata {
  draftId: string;
  /** The saved party an address-book form edits. */
  partyId?: string;
  /** Its details' revision when the form was filled (partyRevision): a change since is not undone. */
  revision?: string;
  /** The courier call of unknown outcome a Resolve form settles. */
  attemptKey?: string;
}

export function viewMetadata(metadata: ViewMetadata): string {
  return JSON.stringify(metadata);
}

/**
 * What a modal's private_metadata names, or undefined when it is not ours: not JSON, no draft id, or a
 * NUL character anywhere (never written by us, and refused by PostgreSQL in every lookup).
 */
export function readViewMetadata(text: string | undefined): ViewMetadata | undefined {
  try {
    const { draftId, partyId, revision, attemptKey } = JSON.parse(text ?? '') as Partial<ViewMetadata>;
    if (typeof draftId !== 'string') return undefined;
    const metadata: ViewMetadata = {
      draftId,
      ...(typeof partyId === 'string' ? { partyId } : {}),
      ...(typeof revision === 'string' ? { revision } : {}),
      ...(typeof attemptKey === 'string' ? { attemptKey } : {}),
    };
    return Object.values(metadata).some((value) => value.includes('\u0000')) ? undefined : metadata;
  } catch {
    return undefined;
  }
}

/** The stored draft of a kind that a modal's private_metadata names; undefined if gone or another kind. */
export async function draftOfView<T>(
  drafts: Pick<Drafts, 'get'>,
  privateMetadata: string | undefined,
  kind: string,
): Promise<Draft<T> | undefined> {
  const draftId = readViewMetadata(privateMetadata)?.draftId;
  const draft = draftId ? await drafts.get<T>(draftId) : undefined;
  return draft?.kind === kind ? draft : undefined;
}
