/** The ids of COD remittance: the callback and action ids Slack sends back to route a submission or a click. */
export const ids = {
  /** COD remittance: the Home tab's button, the file modal, the windows after it. */
  remittanceOpen: 'remittance_open',
  remittanceImport: 'remittance_import',
  remittanceProgress: 'remittance_progress',
} as const;
