/**
 * Anything a user typed, or the courier sent back, goes through this before it is put in mrkdwn
 * (section text, message text): `<!channel>`, `<@U123>` or `<http://x|click>` then arrive as
 * harmless text. Slack asks for exactly these three characters to be escaped.
 */
export function escapeMrkdwn(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
