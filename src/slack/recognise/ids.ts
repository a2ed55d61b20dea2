/** The ids of tracking numbers recognised in messages: the callback and action ids Slack sends back to route a submission or a click. */
export const ids = {
  /** The compact reply to tracking numbers in a message: every one it names, privately. */
  recogniseShowAll: 'recognise_show_all',
} as const;
