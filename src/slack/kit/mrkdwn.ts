/** mrkdwn both ways: escaping what users typed before it is posted, and reading a message back as plain text. */

/**
 * Anything a user typed, or the courier sent back, goes through this before it is put in mrkdwn
 * (section text, message text): `<!channel>`, `<@U123>` or `<http://x|click>` then arrive as
 * harmless text. Slack asks for exactly these three characters to be escaped.
 */
export function escapeMrkdwn(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * A message's text as the person reading it sees it: links, e-mail addresses and mentions as
 * their labels (`<mailto:a@b.ph|a@b.ph>` is `a@b.ph`), entities decoded, no bold or italic marks.
 */
export function plainTextOf(mrkdwn: string): string {
  return (
    mrkdwn
      .replace(/<([^<>|]*)(?:\|([^<>]*))?>/g, (_, target: string, label: string | undefined) => {
        if (label !== undefined) return target.startsWith('#') ? `#${label}` : label;
        return target.replace(/^(mailto|tel):/, '').replace(/^!/, '@');
      })
      .replace(/(^|[\s(])[*_~`]+(?=\S)/g, '$1')
      // A closing mark after a word; the word's last character is never a mark inside a run of marks,
      // which tried every position of a long run (quadratic) and can never match there.
      .replace(/([^\s*_~`]|(?<![*_~`])[*_~`])[*_~`]+(?=$|[\s).,:;!?])/gm, '$1')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&')
  );
}
