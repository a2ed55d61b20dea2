/** The ids of statuses: the callback and action ids Slack sends back to route a submission or a click. */
export const ids = {
  statusForm: 'status_form',
  statusesForm: 'statuses_form',
} as const;
