/** Answers 400 to a signed Slack request whose body is not an object, which Bolt's receiver would leave unanswered. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'node:querystring';
import type { HTTPReceiver } from '@slack/bolt';
import type { Logger } from 'pino';
import { HTTPModuleFunctions, isValidSlackRequest } from '../runtime/bolt.js';

const { bufferIncomingMessage, defaultBodyLimit, isRawBodyError } = HTTPModuleFunctions;

type Buffered = IncomingMessage & { rawBody: Buffer };

/**
 * Bolt reads a field of the parsed body before checking that it is an object, so a signed
 * `payload=null` (or a JSON body `null`) throws where nothing catches it and the request is never
 * answered. Requests to `endpoint` are read here first: a signed one whose body parses to anything
 * but a JSON object gets 400; every other request goes on to Bolt, which finds its body already read
 * and answers as usual (401 unsigned, 400 not JSON, …).
 */
export function refuseNonObjectBodies(
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
        if (!parsesToNonObject(buffered) || !isSigned(buffered, signingSecret)) {
          bolt(buffered, res);
          return;
        }
        logger.warn('a signed Slack request whose body is not an object: answered 400');
        res.writeHead(400).end();
      },
      (err: unknown) => {
        logger.warn({ err }, 'a Slack request body could not be read');
        if (!res.headersSent) res.writeHead(isRawBodyError(err) ? err.statusCode : 400).end();
      },
    );
  };
}

/** A form body whose `payload` opens with `{` (URL-encoded, after JSON's white space): Bolt's to decode. */
const FORM_PAYLOAD_OBJECT = /(?:^|&)payload=(?:%20|%09|%0A|%0D|\+)*%7B/i;

/** Whether the body parses, as Bolt parses it, to JSON that is not an object (`null`, `5`, `[]`). */
function parsesToNonObject(req: Buffered): boolean {
  // Every interactive request Slack sends: its form body is left for Bolt to decode, once.
  if (isForm(req) && FORM_PAYLOAD_OBJECT.test(req.rawBody.toString('latin1'))) return false;
  const json = jsonTextOf(req);
  // A form body without a payload is an object; JSON that opens with `{` is an object or no JSON at
  // all (Bolt answers 400 itself). Only the rest is parsed here, so a 12 KB submission is parsed once.
  if (json === undefined || OPENS_AN_OBJECT.test(json)) return false;
  let body: unknown;
  try {
    body = JSON.parse(json);
  } catch {
    return false; // not JSON at all: Bolt answers 400 itself, once it has checked the signature
  }
  return typeof body !== 'object' || body === null || Array.isArray(body);
}

/** JSON's own white space, then `{`. */
const OPENS_AN_OBJECT = /^[ \t\n\r]*\{/;

/** The JSON text Bolt parses (`parseHTTPRequestBody`): a form body's `payload` field, else the whole body. */
function jsonTextOf(req: Buffered): string | undefined {
  const text = req.rawBody.toString();
  if (!isForm(req)) return text;
  const { payload } = parse(text);
  return typeof payload === 'string' ? payload : undefined;
}

const isForm = (req: Buffered) => req.headers['content-type'] === 'application/x-www-form-urlencoded';

function isSigned(req: Buffered, signingSecret: string): boolean {
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : '';
  };
  return isValidSlackRequest({
    signingSecret,
    body: req.rawBody.toString(),
    headers: {
      'x-slack-signature': header('x-slack-signature'),
      'x-slack-request-timestamp': Number(header('x-slack-request-timestamp')),
    },
  });
}
