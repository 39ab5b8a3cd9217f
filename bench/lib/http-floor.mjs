// The floor under section 7's figure (issue 33, point 2): what the same exchanges cost a client that does nothing but
// send them, so the runner's own CPU per exchange reads as a ratio to a baseline measured in the same run.
//
//   node --import bench/lib/cpu-at-exit.mjs bench/lib/http-floor.mjs BASE_URL REQUESTS.json COUNT CONCURRENCY
//
// REQUESTS.json is a list of { method, url, headers, body } (the exchanges a full run's JSON report keeps). They are
// sent COUNT times in all, in turn, CONCURRENCY at a time, with undici (the runner's client, with its pool options),
// each answer read whole and parsed when it says JSON, as any client would. A body the report clipped is padded back
// to the Content-Length it was sent with (with spaces, as the 413 check pads), so the bytes on the wire match.
// Nothing is checked, generated, validated, recorded or reported: that is the runner's own work, which the floor leaves out.
import fs from 'node:fs';
import { Agent } from 'undici';

const [baseUrl, file, countText, concurrencyText] = process.argv.slice(2);
const origin = new URL(baseUrl).origin;
const count = Number(countText);
const concurrency = Number(concurrencyText);
const requests = JSON.parse(fs.readFileSync(file, 'utf8')).map(({ method, url, headers, body }) => {
  const target = new URL(url);
  const { 'content-length': length, 'transfer-encoding': _framing, ...rest } = headers;
  const wanted = Number(length ?? 0);
  const text = body === undefined ? undefined : Buffer.byteLength(body) < wanted ? body + ' '.repeat(wanted - Buffer.byteLength(body)) : body;
  return { method, path: `${target.pathname}${target.search}`, headers: rest, body: text };
});
const agent = new Agent({ connections: concurrency, keepAliveTimeout: 2_000 });
let next = 0;
let failed = 0;

async function worker() {
  while (next < count) {
    const { method, path, headers, body } = requests[next++ % requests.length];
    try {
      const response = await agent.request({ origin, path, method, headers, body: body ?? null });
      const text = await response.body.text();
      if (/json/.test(String(response.headers['content-type'] ?? '')) && text !== '') {
        try {
          JSON.parse(text);
        } catch {
          // Not JSON after all: read, as any client would, and left.
        }
      }
    } catch {
      failed += 1;
    }
  }
}

await Promise.all(Array.from({ length: concurrency }, worker));
await agent.close();
process.stdout.write(`${JSON.stringify({ sent: count, failed })}\n`);
