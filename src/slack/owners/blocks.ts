/** What the owners feature says: to the person who changed the owner, in the card's thread, to the new owner. */
import { escapeMrkdwn } from '../kit/mrkdwn.js';

const code = (trackingNumber: string) => `\`${escapeMrkdwn(trackingNumber)}\``;

export function alreadyOwnedText(trackingNumber: string, ownerId: string): string {
  return `${code(trackingNumber)} is <@${ownerId}>'s already: nothing changed.`;
}

/** Said to whoever assigned or took it. */
export function assignedText(trackingNumber: string, ownerId: string, previous: string): string {
  return `${code(trackingNumber)} is now <@${ownerId}>'s (it was <@${previous}>'s).`;
}

/** The line in each of the card's threads: who has it now, and who decided. */
export function ownerThreadText(trackingNumber: string, ownerId: string, byId: string): string {
  return ownerId === byId
    ? `:bust_in_silhouette: ${code(trackingNumber)} taken by <@${byId}>`
    : `:bust_in_silhouette: ${code(trackingNumber)} assigned to <@${ownerId}> by <@${byId}>`;
}

/** The DM to someone a booking was handed to by another person. */
export function handedOverText(trackingNumber: string, byId: string): string {
  return `<@${byId}> assigned ${code(trackingNumber)} to you: you are its owner now.`;
}

/** Why a person cannot own a booking: no reminder could ever reach them by DM. */
export type CannotOwn = 'bot' | 'deactivated' | 'elsewhere' | 'unknown';

const cannotOwnReasons: Record<CannotOwn, string> = {
  bot: 'is a bot',
  deactivated: 'has been deactivated',
  elsewhere: 'belongs to another organisation',
  unknown: 'is not a member Slack knows',
};

/** Said to whoever tried to hand the booking over: nothing changed. */
export function cannotOwnText(trackingNumber: string, ownerId: string, why: CannotOwn): string {
  return `<@${ownerId}> ${cannotOwnReasons[why]}, so the bot could never remind them of ${code(trackingNumber)}: nothing changed. Assign it to a person in this workspace.`;
}

export function assignUsage(): string {
  return 'Write `/waybill assign <tracking number> @person`, mentioning the person with @ so Slack links them.';
}
