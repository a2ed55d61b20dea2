/** The ids of the Workflow Builder steps: the callback and action ids Slack sends back to route a submission or a click. */
export const ids = {
  /** Workflow steps, as declared in manifest.yml under `functions`. */
  stepQuote: 'quote_delivery',
  stepBook: 'book_waybill',
  stepStatus: 'record_status',
  stepFind: 'find_waybill',
} as const;
