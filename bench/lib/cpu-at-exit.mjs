// Preloaded into a process the bench measures (`node --import ./bench/lib/cpu-at-exit.mjs …`): at exit, writes the
// process's own CPU time (user and system, µs) and peak RSS to the file named by PETSTORE_BENCH_CPU_FILE, so the
// bench reads the runner's cost apart from its target's, which runs in another process.
import { writeFileSync } from 'node:fs';

const file = process.env.PETSTORE_BENCH_CPU_FILE;
if (file) {
  process.once('exit', () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(file, JSON.stringify({ userUs: user, systemUs: system, maxRssKiB: process.resourceUsage().maxRSS }));
  });
}
