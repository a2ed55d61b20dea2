/** The ids of bulk booking: the callback and action ids Slack sends back to route a submission or a click. */
export const ids = {
  bulkOpen: 'bulk_open',
  bulkImport: 'bulk_import',
  bulkTemplate: 'bulk_template',
  bulkConfirm: 'bulk_confirm',
  bulkPage: 'bulk_page',
  bulkProgress: 'bulk_progress',
} as const;
