/**
 * The value lists the interface leaves open ("not shown"): service types, payment methods,
 * package types and units of measure. Defaults follow the kinds seen in its samples; every
 * customer may differ, so they come from configuration (see config.ts and docs/configuration.md).
 */
export interface Choice {
  /** Sent on the wire as is. */
  value: string;
  /** Shown to the dispatcher. */
  label: string;
}

export interface Catalog {
  serviceTypes: Choice[];
  paymentMethods: Choice[];
  /** The payment method value that means cash on delivery (a COD amount is due exactly then). */
  codPaymentMethod: string;
  packageTypes: Choice[];
  units: Choice[];
}

export const defaultCatalog: Catalog = {
  serviceTypes: [{ value: 'DOOR_TO_DOOR', label: 'Door to door' }],
  paymentMethods: [
    { value: 'COD', label: 'Cash on delivery' },
    { value: 'PREPAID', label: 'Prepaid' },
  ],
  codPaymentMethod: 'COD',
  packageTypes: [
    { value: 'DOCUMENTS', label: 'Documents' },
    { value: 'BOX', label: 'Box' },
  ],
  units: [
    { value: 'CM', label: 'cm / kg' },
    { value: 'IN', label: 'in / lb' },
  ],
};

export function labelOf(choices: readonly Choice[], value: string): string {
  return choices.find((choice) => choice.value === value)?.label ?? value;
}
