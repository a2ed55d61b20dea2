/** Signed requests posted to the app over loopback, the way Slack posts them (kept apart from the pure builders in slack-requests.ts). */
import { request } from 'node:http';
import { type AppResponse, FORM_CONTENT_TYPE, type PostOptions, signRequest } from './slack-requests.js';

/** POST a raw body to the app the way Slack would (signed unless told otherwise). */
export async function postToApp(
  url: string,
  signingSecret: string,
  rawBody: string,
  options: PostOptions = {},
): Promise<AppResponse> {
  let headers: Record<string, string>;
  if (options.unsigned) {
    headers = { 'Content-Type': FORM_CONTENT_TYPE };
  } else {
    const secret = options.badSignature ? `${signingSecret}-wrong` : signingSecret;
    headers = { ...signRequest(secret, rawBody, options.timestamp) };
  }
  if (options.contentType !== undefined) headers['Content-Type'] = options.contentType;
  Object.assign(headers, options.headers);

  const response = await post(url, headers, rawBody);
  let body: unknown = response.text;
  if ((response.headers.get('content-type') ?? '').includes('json') && response.text !== '') {
    body = JSON.parse(response.text);
  }
  return { status: response.status, body, headers: response.headers };
}

/**
 * One POST over node:http (keep-alive, as fetch): a test posts thousands, and fetch costs about 0.45 ms
 * more CPU a request than node:http on the same loopback server, every one of them in the test's worker.
 */
function post(
  url: string,
  headers: Record<string, string>,
  rawBody: string,
): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const answered = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          answered.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
        }
        resolve({ status: res.statusCode ?? 0, headers: answered, text: Buffer.concat(chunks).toString() });
      });
    });
    req.on('error', reject);
    req.end(rawBody);
  });
}
