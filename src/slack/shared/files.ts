/** Files through Slack: downloading one a person chose (with the bot's token), uploading one to a conversation or a DM. */

import type { SlackClient } from './delivery.js';
import { slackErrorCode } from './slack-errors.js';

/** Why a file could not be had, in words for the person who chose it. */
export class FileNotReadError extends Error {
  override name = 'FileNotReadError';
}

const DOWNLOAD_TIMEOUT_MS = 30_000;

function megabytes(bytes: number): string {
  return `${Math.round(bytes / 100_000) / 10} MB`;
}

/**
 * The file's name and bytes: files.info says where it is and how large, then its private URL is
 * read with the bot's token (Slack's files need it; without it Slack answers with its sign-in
 * page). A file over `maxBytes` is refused before downloading, and the download stops at
 * `maxBytes` whatever files.info said.
 */
export async function downloadFile(
  client: SlackClient,
  fileId: string,
  maxBytes: number,
): Promise<{ name: string; bytes: Uint8Array }> {
  let info: Awaited<ReturnType<SlackClient['files']['info']>>;
  try {
    info = await client.files.info({ file: fileId });
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
  if (size > maxBytes) {
    throw new FileNotReadError(`${name} is ${megabytes(size)}; at most ${megabytes(maxBytes)} at once`);
  }
  if (!url || !client.token) throw new FileNotReadError(`Slack gave no address to download ${name} from`);
  const response = await fetch(url, {
    headers: { Authorization: `Bearer ${client.token}` },
    signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
  }).catch((err: unknown) => {
    throw new FileNotReadError(`${name} could not be downloaded from Slack`, { cause: err });
  });
  if (!response.ok || (response.headers.get('content-type') ?? '').startsWith('text/html')) {
    await response.body?.cancel();
    throw new FileNotReadError(`Slack would not hand over ${name} (HTTP ${response.status})`);
  }
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
  return { name, bytes: Buffer.concat(chunks) };
}

export interface Upload {
  filename: string;
  content: string;
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
    content: upload.content,
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
