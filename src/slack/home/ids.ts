/** The ids of the Home tab: the callback and action ids Slack sends back to route a submission or a click. */
export const ids = {
  exportOpen: 'export_open',
  exportRange: 'export_range',
} as const;
