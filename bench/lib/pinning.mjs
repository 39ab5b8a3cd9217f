// CPU pinning for the throughput section. On a 2-core machine the server and
// the load generator (autocannon, in the bench's own process) otherwise share
// both cores at the scheduler's whim: in a round where they land on one core,
// or keep migrating, the server's CPU per request rises by a third, and the
// larger process (the mock, with the document and its validators in memory)
// suffers more than the bare baseline, so the ratio measured the scheduler.
// Pinned, each server gets one core of its own and the load generator the
// other, the same for both servers: the usual set-up of a load test (wrk's
// and autocannon's docs advise a separate core for the generator).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Linux's CPU list syntax (`0-3,8,10-11`, as in /proc/self/status) → sorted CPU numbers; [] when it cannot be read. */
export function parseCpuList(text) {
  const cpus = new Set();
  for (const part of String(text).trim().split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) return [];
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from || to - from > 4096) return [];
    for (let cpu = from; cpu <= to; cpu++) cpus.add(cpu);
  }
  return [...cpus].sort((a, b) => a - b);
}

function hasTaskset() {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Which CPU the server gets and which the load generator, from the CPUs this
 * process may use; or why there is no pinning (one CPU, no taskset, not Linux).
 * @returns {{ server: number, load: number, all: string } | { reason: string }}
 */
export function planPinning() {
  let allowed;
  try {
    allowed = /^Cpus_allowed_list:\s*(\S+)$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  } catch {
    return { reason: 'not Linux (no /proc/self/status)' };
  }
  const cpus = parseCpuList(allowed ?? '');
  if (cpus.length < 2) return { reason: `only ${cpus.length} CPU allowed (${allowed ?? '?'})` };
  if (!hasTaskset()) return { reason: 'taskset (util-linux) is not installed' };
  return { server: cpus[0], load: cpus[1], all: allowed };
}

/** Sets the CPU affinity of every thread of `pid` (`taskset -a -p -c LIST PID`). */
export function setAffinity(pid, cpuList) {
  execFileSync('taskset', ['-a', '-p', '-c', String(cpuList), String(pid)], { stdio: 'ignore', timeout: 5_000 });
}
