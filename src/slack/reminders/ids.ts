/** The ids of reminders: the action ids Slack sends back to route a click in a reminder DM. */
export const ids = {
  /** A reminder's Snooze menu (1 hour, tomorrow 9:00, 3 days). */
  reminderSnooze: 'reminder_snooze',
  /** A failed attempt's Return to sender: the parcel recorded returned, in one click. */
  reminderReturn: 'reminder_return',
} as const;
