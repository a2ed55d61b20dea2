/**
 * What a dispatcher types into the quote form, by schema path, after `/quote ${quoteCommandText}`
 * pre-filled the weight and the receiver's city. The sandbox prices it at PHP 302.40.
 */
export const quoteCommandText = 'weight=2.5 to_city="Cebu City"';

export const quoteTyped = {
  paymentMethod: 'COD',
  codAmount: '1500',
  declaredValue: '2000',
  'shipper.street': '12 Jupiter St',
  'shipper.city': 'Makati',
  'shipper.country': 'ph',
  'shipper.postal': '1209',
  'consignee.street': '88 Rizal Ave',
  'consignee.country': 'PH',
  'package.type': 'BOX',
  'package.length': '30',
  'package.width': '20',
  'package.height': '10',
};
