/** A bookings file as the tests import it: the required columns and a sender profile, CRLF as spreadsheets write it. */

export const bulkHeader =
  'receiver_name,receiver_phone,receiver_street,receiver_city,receiver_country,item_description,payment_method,cod_amount,package_type,package_weight,operator_contact_number,sender_profile';

/** One booking: a receiver in Cebu, cash on delivery, a box, sent from the Pasig warehouse profile. */
export function bulkRow(
  name: string,
  {
    phone = '0917 123 4567',
    cod = '1500',
    weight = '2.5',
  }: { phone?: string; cod?: string; weight?: string } = {},
): string {
  return `${name},${phone},88 Rizal Ave,Cebu City,PH,Scales,COD,${cod},BOX,${weight},+63 917 555 0100,pasig-warehouse`;
}

/** The file: the header, then each row. */
export function bulkFile(...rows: string[]): string {
  return `${[bulkHeader, ...rows].join('\r\n')}\r\n`;
}
