import { runLoad } from './lib/load.mjs';
import { startServer, installCleanupHandlers, readCpuUs } from './lib/procs.mjs';
installCleanupHandlers();
const ROOT = '/work/proxy';
const up = await startServer({ name: 'upstream', args: ['bench/baseline-server.mjs', '--port', '0'], cwd: ROOT });
const bare = await startServer({ name: 'bare', args: ['bench/bare-proxy.mjs', '--target', up.url], cwd: ROOT });
const ours = await startServer({ name: 'ours', args: ['bin/petstore-kit.js', 'proxy', '--target', up.url, '--port', '0', '--quiet'], cwd: ROOT });
for (const path of ['/pets/1', '/pets?limit=20']) {
const reqs = [{ method: 'GET', path }];
for (const c of [10]) for (const [name, s] of [['bare', bare], ['ours', ours]]) {
  await runLoad({ url: s.url, connections: c, seconds: 1, requests: reqs, expected: [200] });
  const cpu0 = readCpuUs(s.pid);
  const r = await runLoad({ url: s.url, connections: c, seconds: 3, requests: reqs, expected: [200] });
  console.log(path, c, name, Math.round(r.rps), r.p50Ms.toFixed(3), r.p99Ms.toFixed(3), 'cpu µs/req', ((readCpuUs(s.pid) - cpu0) / r.count).toFixed(1), r.unexpected);
}
}
console.log(ours.stderrTail().slice(-300));
await up.stop(); await bare.stop(); await ours.stop();
