/** Files through Slack: downloading one a person chose (with the bot's token), uploading one to a conversation or a DM, streaming a large one. */

import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import type { SlackClient } from '../runtime/delivery.js';
import { slackErrorCode } from '../runtime/slack-errors.js';

/** Why a file could not be had, in words for the person who chose it. */
export class FileNotReadError extends Error {
  override name = 'FileNotReadError';
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / 100_000) / 10} MB`;
}

/** How a download is bounded. */
export interface DownloadLimits {
  maxBytes: number;
  /** From the request to the last byte: a file trickling in is cut off too. */
  timeoutMs: number;
}

/** Slack serves files from files.slack.com and its files-* siblings (GovSlack: slack-gov.com). */
const SLACK_FILE_HOST = /^files(?:-[a-z0-9-]+)?\.slack(?:-gov)?\.com$/;
const SLACK_API_HOSTS = new Set(['slack.com', 'slack-gov.com']);
const MAX_REDIRECTS = 3;

/**
 * Whether the bot's token may go to this address: https on one of Slack's file hosts, or the origin of
 * the Web API the client is pointed at when that is not Slack's own (a test's fake, a proxy).
 */
export function isSlackFileUrl(address: string, slackApiUrl: string): boolean {
  if (!URL.canParse(address)) return false;
  const url = new URL(address);
  const api = new URL(slackApiUrl);
  if (!SLACK_API_HOSTS.has(api.hostname) && url.origin === api.origin) return true;
  return url.protocol === 'https:' && url.port === '' && SLACK_FILE_HOST.test(url.hostname);
}

/**
 * The file's bytes from its private URL, with the bot's token (Slack's files need it; without it
 * Slack answers with its sign-in page). Redirects are followed by hand so the token only ever goes
 * to a Slack file host. Every failure (no answer, a reset, the time limit during the headers or the
 * body, too large) is a FileNotReadError.
 */
async function fetchPinned(
  client: SlackClient,
  address: string,
  name: string,
  limits: DownloadLimits,
): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    let url = address;
    for (let hop = 0; ; hop += 1) {
      if (!isSlackFileUrl(url, client.slackApiUrl)) {
        throw new FileNotReadError(`Slack gave an address outside Slack for ${name}: it was not downloaded`);
      }
      const response = await fetch(url, {
        headers: { Authorization: `Bearer ${client.token}` },
        redirect: 'manual',
        signal,
      });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location && hop < MAX_REDIRECTS) {
        await response.body?.cancel();
        url = new URL(location, url).href;
        continue;
      }
      if (!response.ok || (response.headers.get('content-type') ?? '').startsWith('text/html')) {
        await response.body?.cancel();
        throw new FileNotReadError(`Slack would not hand over ${name} (HTTP ${response.status})`);
      }
      return await readAtMost(response, name, limits.maxBytes);
    }
  } catch (err) {
    if (err instanceof FileNotReadError) throw err;
    throw new FileNotReadError(`${name} could not be downloaded from Slack`, { cause: err });
  }
}

async function readAtMost(response: Response, name: string, maxBytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of response.body ?? []) {
    received += chunk.byteLength;
    if (received > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new FileNotReadError(`${name} is over ${megabytes(maxBytes)}; at most that at once`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The name and bytes of a file a person chose: files.info says whose it is, where and how large,
 * then it is downloaded from Slack (see fetchPinned). A file someone else shared is refused (a file
 * ID in a submission is only as good as the person who sent it), and so is one over `maxBytes`
 * before downloading; the download stops at `maxBytes` whatever files.info said.
 */
export async function downloadFile(
  client: SlackClient,
  chosen: { fileId: string; ownerId: string },
  limits: DownloadLimits,
): Promise<{ name: string; bytes: Uint8Array }> {
  let info: Awaited<ReturnType<SlackClient['files']['info']>>;
  try {
    info = await client.files.info({ file: chosen.fileId });
  } catch (err) {
    const code = slackErrorCode(err);
    throw new FileNotReadError(
      code === 'file_not_found' || code === 'file_deleted'
        ? 'The file is gone from Slack: choose it again'
        : `Slack would not describe the file${code ? ` (${code})` : ''}`,
      { cause: err },
    );
  }
  const name = info.file?.name ?? 'file.csv';
  const size = info.file?.size ?? 0;
  const url = info.file?.url_private_download ?? info.file?.url_private;
  if (info.file?.user !== chosen.ownerId) {
    throw new FileNotReadError(`${name} was shared by someone else: upload your own copy of it`);
  }
  if (size > limits.maxBytes) {
    throw new FileNotReadError(
      `${name} is ${megabytes(size)}; at most ${megabytes(limits.maxBytes)} at once`,
    );
  }
  if (!url || !client.token) throw new FileNotReadError(`Slack gave no address to download ${name} from`);
  return { name, bytes: await fetchPinned(client, url, name, limits) };
}

export interface Upload {
  filename: string;
  /** Text (a CSV file), or bytes (a PDF). */
  content: string | Uint8Array;
  title?: string;
  /** mrkdwn, already escaped where it holds anything typed. */
  comment?: string;
  threadTs?: string;
}

/** Shares a file in a conversation (files.getUploadURLExternal, the bytes, files.completeUploadExternal). */
export async function uploadFile(client: SlackClient, channelId: string, upload: Upload): Promise<void> {
  const file = {
    channel_id: channelId,
    filename: upload.filename,
    ...(typeof upload.content === 'string'
      ? { content: upload.content }
      : { file: Buffer.from(upload.content.buffer, upload.content.byteOffset, upload.content.byteLength) }),
    ...(upload.title ? { title: upload.title } : {}),
    ...(upload.comment ? { initial_comment: upload.comment } : {}),
  };
  await client.filesUploadV2(upload.threadTs ? { ...file, thread_ts: upload.threadTs } : file);
}

/** Shares a file with one person, in their DM with the bot. */
export async function uploadToUser(client: SlackClient, userId: string, upload: Upload): Promise<string> {
  const dm = await client.conversations.open({ users: userId });
  const channelId = dm.channel?.id ?? userId;
  await uploadFile(client, channelId, upload);
  return channelId;
}

/**
 * Shares a file too large to hold in memory with one person, in their DM with the bot. Its text,
 * piece by piece from `pieces`, goes to a temporary file (Slack wants the length before the bytes),
 * which is then streamed to the upload URL files.getUploadURLExternal hands out, and shared with
 * files.completeUploadExternal. `describe` names it once all of it is written (a comment may count lines).
 */
export async function uploadStreamToUser(
  client: SlackClient,
  userId: string,
  pieces: AsyncIterable<string>,
  describe: () => Omit<Upload, 'content' | 'threadTs'>,
): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'waybill-upload-'));
  try {
    const path = join(folder, 'file');
    const length = await spool(pieces, path);
    const upload = describe();
    const target = await client.files.getUploadURLExternal({ filename: upload.filename, length });
    if (!target.upload_url || !target.file_id)
      throw new Error('files.getUploadURLExternal gave no upload URL');
    // The upload URL needs no token, so none is sent to it. undici's request reads the file only as
    // fast as the socket takes it; fetch with a stream body held the whole file in memory meanwhile.
    const response = await request(target.upload_url, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(length) },
      body: createReadStream(path, { highWaterMark: 64 * 1024 }),
    });
    await response.body.dump();
    if (response.statusCode < 200 || response.statusCode >= 300)
      throw new Error(`the upload URL answered HTTP ${response.statusCode}`);
    const dm = await client.conversations.open({ users: userId });
    await client.files.completeUploadExternal({
      files: [{ id: target.file_id, title: upload.title ?? upload.filename }],
      channel_id: dm.channel?.id ?? userId,
      ...(upload.comment ? { initial_comment: upload.comment } : {}),
    });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Writes each piece to `path` as it comes, waiting whenever the disk falls behind; the bytes written. */
async function spool(pieces: AsyncIterable<string>, path: string): Promise<number> {
  const file = createWriteStream(path);
  try {
    for await (const piece of pieces) {
      if (!file.write(piece)) await once(file, 'drain');
    }
  } finally {
    file.end();
    await once(file, 'close');
  }
  return file.bytesWritten;
}
