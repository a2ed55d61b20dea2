/**
 * The HTTP receiver's front door for Slack's requests: each body read, its signature checked and its
 * JSON decoded here, once, and Bolt handed the JSON.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'node:querystring';
import type { HTTPReceiver } from '@slack/bolt';
import type { Logger } from 'pino';
import { HTTPModuleFunctions, isValidSlackRequest } from '../runtime/bolt.js';

const { bufferIncomingMessage, defaultBodyLimit, isRawBodyError } = HTTPModuleFunctions;

type Buffered = IncomingMessage & { rawBody: Buffer };

/**
 * Requests to `endpoint` are read here before Bolt, which is built with its own signature check off
 * (bot.ts). Bolt alone decodes an interactive request's form body twice (once to look for
 * `ssl_check`, once to read it), the dearest step before a submission's ack in a burst.
 * - Unsigned: 401, except Slack's `ssl_check`, handed on without any other field.
 * - Signed, with a body that is not a JSON object (`payload=null`, `5`): 400. Bolt reads a field of it
 *   before checking, and throws where nothing catches it, leaving the request unanswered.
 * - Signed, with a `payload` field (every interactive request): the payload handed on as a JSON body.
 *   Other forms (commands) and JSON bodies (events) go on as they came.
 */
export function readSlackRequests(
  receiver: HTTPReceiver,
  { signingSecret, endpoint, logger }: { signingSecret: string; endpoint: string; logger: Logger },
): void {
  const bolt = receiver.requestListener;
  receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://localhost').pathname !== endpoint) {
      bolt(req, res);
      return;
    }
    bufferIncomingMessage(req, defaultBodyLimit).then(
      (buffered) => {
        const refusal = admit(buffered, signingSecret);
        if (refusal === undefined) {
          bolt(buffered, res);
          return;
        }
        logger.warn(refusal.why);
        res.writeHead(refusal.status).end();
      },
      (err: unknown) => {
        logger.warn({ err }, 'a Slack request body could not be read');
        if (!res.headersSent) res.writeHead(isRawBodyError(err) ? err.statusCode : 400).end();
      },
    );
  };
}

/** Why a request is answered here instead of handed on; the request made ready for Bolt otherwise. */
function admit(req: Buffered, signingSecret: string): { status: number; why: string } | undefined {
  const text = req.rawBody.toString();
  const form = req.headers['content-type'] === 'application/x-www-form-urlencoded';
  if (!isSigned(req, text, signingSecret)) {
    if (!form || parse(text).ssl_check !== '1')
      return { status: 401, why: 'a request to the Slack endpoint without a valid signature: answered 401' };
    req.rawBody = Buffer.from('ssl_check=1');
    return;
  }
  const json = form ? payloadOf(text) : text;
  if (json === undefined) return;
  if (form) {
    req.rawBody = Buffer.from(json);
    req.headers['content-type'] = 'application/json';
  }
  if (isNonObject(json))
    return { status: 400, why: 'a signed Slack request whose body is not an object: answered 400' };
}

/**
 * A form body's `payload` field, as Node's query-string parser reads it: an interactive request's body
 * is that field alone, decoded in one native pass.
 */
function payloadOf(text: string): string | undefined {
  if (text.startsWith('payload=') && !text.includes('&')) {
    try {
      return decodeURIComponent(text.slice('payload='.length).replaceAll('+', ' '));
    } catch {
      // A malformed escape, which the query-string parser keeps as it is: read below.
    }
  }
  const { payload } = parse(text);
  return typeof payload === 'string' ? payload : undefined;
}

/** JSON's own white space, then `{`. */
const OPENS_AN_OBJECT = /^[ \t\n\r]*\{/;

/**
 * Whether the JSON parses to something that is not an object (`null`, `5`, `[]`). Text opening with `{`
 * is an object or no JSON at all (Bolt answers 400 itself), so a submission is not parsed here.
 */
function isNonObject(json: string): boolean {
  if (OPENS_AN_OBJECT.test(json)) return false;
  try {
    const body: unknown = JSON.parse(json);
    return typeof body !== 'object' || body === null || Array.isArray(body);
  } catch {
    return false;
  }
}

function isSigned(req: Buffered, body: string, signingSecret: string): boolean {
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : '';
  };
  return isValidSlackRequest({
    signingSecret,
    body,
    headers: {
      'x-slack-signature': header('x-slack-signature'),
      'x-slack-request-timestamp': Number(header('x-slack-request-timestamp')),
    },
  });
}
