/** The ids of /quote: the callback and action ids Slack sends back to route a submission or a click. */
export const ids = {
  quoteForm: 'quote_form',
  quoteWorking: 'quote_working',
  quoteResult: 'quote_result',
  quoteBack: 'quote_back',
  quoteRetry: 'quote_retry',
  quoteReopen: 'quote_reopen',
  /** The shortcut, as declared in manifest.yml, and its first view: where the price is posted. */
  quoteNew: 'quote_new',
  quoteDestination: 'quote_destination',
  /** The address book's type-ahead on the quote form. */
  quoteParty: 'quote_party',
  /** The Home tab's New quote: the shortcut's first view, from a button. */
  quoteFromHome: 'quote_from_home',
  /** Book this, on a posted price: /book answers it. */
  bookFromQuote: 'book_from_quote',
} as const;
