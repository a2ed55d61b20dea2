/** The ids of attention items' own buttons: Slack sends them back from a reminder DM, `/waybill attention` or the Home tab. */
export const ids = {
  /** An item's Snooze menu (1 hour, tomorrow 9:00, 3 days). */
  reminderSnooze: 'reminder_snooze',
  /** A failed attempt's Return to sender: the parcel recorded returned, in one click. */
  reminderReturn: 'reminder_return',
} as const;
