/**
 * Issue 23, point 6: `kill` of the `npx petstore-kit mock` process left the mock running. npm runs a bin as its
 * grandchild (npm exec → `sh -c petstore-kit …` → node; `npm start` the same): on SIGTERM npm ends itself and its
 * shell but does not pass the signal on to the shell's child, so the kit was reparented and kept its port.
 *
 * So, when npm started it (npm sets `npm_command` for what it runs), the kit follows its parent: once the parent
 * is gone (the kernel reparents an orphan, so `process.ppid` changes), it stops itself with SIGTERM, through the
 * same graceful path as a `kill` (the mock finishes its answers; the runner cleans up and writes its report).
 * Started any other way (`node bin/petstore-kit.js`, `./node_modules/.bin/petstore-kit`, a service manager), it
 * does not: whoever started it holds its PID, and a mock put in the background by a script that then ends must
 * keep serving.
 */

/** How often the parent is looked at: a check is one cheap system call (getppid). */
const INTERVAL_MS = 500;

/** Starts following the parent when npm ran the kit; returns what stops following. */
export function followParentWhenRunByNpm(env: NodeJS.ProcessEnv = process.env): () => void {
  if (env['npm_command'] === undefined) return () => undefined;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, INTERVAL_MS);
  // Never what keeps the kit alive: a finished run exits as before.
  timer.unref();
  return () => clearInterval(timer);
}
