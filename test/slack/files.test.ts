/** Which addresses the bot's token may be sent to when it downloads a file. */
// Which addresses the bot's token may be sent to when it downloads a file a person chose; a large upload streamed.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { isSlackFileUrl, uploadStreamToUser } from '../../src/slack/kit/files.js';
import type { SlackClient } from '../../src/slack/runtime/delivery.js';

const SLACK = 'https://slack.com/api/';

describe('isSlackFileUrl', () => {
  it("takes Slack's file hosts over https only", () => {
    expect(isSlackFileUrl('https://files.slack.com/files-pri/T1-F1/download/a.csv', SLACK)).toBe(true);
    expect(isSlackFileUrl('https://files-edge.slack.com/files-pri/T1-F1/a.csv', SLACK)).toBe(true);
    expect(isSlackFileUrl('https://files.slack-gov.com/files-pri/T1-F1/a.csv', SLACK)).toBe(true);
    expect(isSlackFileUrl('http://files.slack.com/files-pri/T1-F1/a.csv', SLACK)).toBe(false);
    expect(isSlackFileUrl('https://files.slack.com:8443/files-pri/T1-F1/a.csv', SLACK)).toBe(false);
  });

  it('refuses look-alikes and other hosts', () => {
    for (const address of [
      'https://files.slack.com.example.net/a.csv',
      'https://evilfiles.slack.com/a.csv',
      'https://slack.com/files-pri/T1-F1/a.csv',
      'https://example.com/files.slack.com/a.csv',
      'https://user@example.com/a.csv',
      'not a url',
    ]) {
      expect(isSlackFileUrl(address, SLACK), address).toBe(false);
    }
  });

  it("takes the configured Web API's own origin when it is not Slack's (a fake or a proxy), and nothing else there", () => {
    const fake = 'http://127.0.0.1:4000/api/';
    expect(isSlackFileUrl('http://127.0.0.1:4000/files-pri/T1-F1/a.csv', fake)).toBe(true);
    expect(isSlackFileUrl('http://127.0.0.1:4001/files-pri/T1-F1/a.csv', fake)).toBe(false);
    expect(isSlackFileUrl('https://files.slack.com/files-pri/T1-F1/a.csv', fake)).toBe(true);
  });
});

describe('uploadStreamToUser', () => {
  it('streams a 200 MB file to the upload URL without holding it in memory', async () => {
    // The upload URL, in a process of its own (what it receives is no garbage of this one's): it
    // counts what arrives, keeps none of it, and prints its port, then the count.
    const server = spawn(
      process.execPath,
      [
        '-e',
        `const server = require('node:http').createServer((request, response) => {
          let received = 0;
          // A consumer slower than the disk (the internet, say): a read, then a pause of a millisecond.
          request.on('data', (chunk) => {
            received += chunk.length;
            request.pause();
            setTimeout(() => request.resume(), 1);
          });
          request.on('end', () => { console.log(received); response.end('OK'); });
        });
        server.listen(0, '127.0.0.1', () => console.log(server.address().port));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const lines = createInterface({ input: server.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
    const nextLine = async () => Number((await lines.next()).value);
    const uploadUrl = `http://127.0.0.1:${await nextLine()}/upload`;
    const completed: unknown[] = [];
    const client = {
      files: {
        getUploadURLExternal: async () => ({ ok: true, upload_url: uploadUrl, file_id: 'F1' }),
        completeUploadExternal: async (args: unknown) => {
          completed.push(args);
          return { ok: true };
        },
      },
      conversations: { open: async () => ({ ok: true, channel: { id: 'D1' } }) },
    } as unknown as SlackClient;
    // One 64 KB piece, the same string each time: the pieces themselves cost no memory.
    const piece = 'x'.repeat(64 * 1024);
    const pieces = 3200;
    async function* file() {
      for (let i = 0; i < pieces; i += 1) yield piece;
    }
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    try {
      await uploadStreamToUser(client, 'U1', file(), () => ({ filename: 'big.csv' }));
      expect(await nextLine()).toBe(piece.length * pieces);
    } finally {
      clearInterval(sampler);
      server.kill();
    }
    expect(completed).toHaveLength(1);
    // Sent with fetch and a stream body to a consumer slower than the disk, this process grew by the
    // file's size and more (225 MB measured, Node 22 and 24); streamed, by what its buffers and their
    // garbage take (36 MB on Node 22, 75 on Node 24).
    expect(Math.round((peak - before) / 1e6)).toBeLessThan(150);
  });
});
