/** The ids of labels: the callback and action ids Slack sends back to route a submission or a click. */
export const ids = {
  /** Print labels on a bulk import's card, and the Home tab's Pickup list. */
  labelsBulk: 'labels_bulk',
  labelsManifest: 'labels_manifest',
  /** Send to printer, beside a ZPL file: a booking's or an import's labels to a printer on the office network. */
  labelsSendToPrinter: 'labels_send_to_printer',
} as const;
