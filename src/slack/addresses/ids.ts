/** The ids of the address book: the callback and action ids Slack sends back to route a submission or a click. */
export const ids = {
  /** /waybill addresses: the list (a search), its buttons, and the edit form. */
  addressesList: 'addresses_list',
  addressesEdit: 'addresses_edit',
  addressesDelete: 'addresses_delete',
  addressesEditForm: 'addresses_edit_form',
} as const;
