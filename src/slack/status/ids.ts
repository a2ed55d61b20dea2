/** The ids of statuses: the callback and action ids Slack sends back to route a submission or a click. */
export const ids = {
  statusForm: 'status_form',
  statusesForm: 'statuses_form',
  /** The courier's status export: the file modal, then (for headers not seen before) its columns. */
  statusesFile: 'statuses_file',
  statusesFileColumns: 'statuses_file_columns',
} as const;
