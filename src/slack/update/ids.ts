/** The ids of waybill updates: the callback and action ids Slack sends back to route a submission or a click. */
export const ids = {
  updateForm: 'update_form',
  updateRetry: 'update_retry',
  updateBack: 'update_back',
  updateSendChecked: 'update_send_checked',
  resolveUpdateOpen: 'resolve_update_open',
  resolveUpdateForm: 'resolve_update_form',
  /** Reattempt, on a failed attempt's reminder: the update form, to correct what made it fail. */
  reattemptOpen: 'reattempt_open',
} as const;
