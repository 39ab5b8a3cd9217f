// Pure helpers of the bench: statistics, the printed table and the
// comparison with the committed figures. No I/O here, so they are unit-tested
// (bench/helpers.test.ts) and the types live in stats.d.mts.

/** The median of the finite values; NaN when there are none. */
export function median(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The nearest-rank percentile (p in 0..100) of values that are already sorted
 * ascending; NaN when there are none. Nearest rank never invents a value that
 * was not measured, which matters for p99 of a few hundred samples.
 */
export function percentileSorted(sorted, p) {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  if (p <= 0) return sorted[0];
  const rank = Math.ceil((p / 100) * n);
  return sorted[Math.min(n, Math.max(1, rank)) - 1];
}

/** a / b, or NaN when either is not a finite number or b is 0. */
export function ratio(a, b) {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return Number.NaN;
  return a / b;
}

/** A number for a table cell: fixed digits, thousands separated, '-' for NaN/undefined. */
export function fmt(value, digits = 0) {
  if (value === undefined || value === null || !Number.isFinite(value)) return '-';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Bytes as MiB with one decimal, '-' when unknown. */
export function fmtMiB(bytes) {
  return Number.isFinite(bytes) ? `${fmt(bytes / 1024 / 1024, 1)} MiB` : '-';
}

/**
 * A plain-text table. Columns whose name is listed in `right` are
 * right-aligned (numbers), the others left-aligned.
 */
export function formatTable(headers, rows, right = []) {
  const alignRight = headers.map((h) => right.includes(h));
  const cells = [headers, ...rows].map((row) => row.map((cell) => String(cell ?? '')));
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row) =>
    row
      .map((cell, i) => (alignRight[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(cells[0]), rule, ...cells.slice(1).map(line)].join('\n');
}

/**
 * The figures of a run that are compared with the committed ones, flattened to
 * `name -> { value, better }`. `better` says which direction is an improvement.
 * p99 is printed but not compared: on a shared 2-core machine it moves by more
 * than 2x between identical runs, so a 20% rule on it would only cry wolf.
 */
export function flattenMetrics(results) {
  const out = {};
  const put = (name, value, better) => {
    if (Number.isFinite(value)) out[name] = { value, better };
  };
  for (const s of results.scenarios ?? []) {
    if (!s.mock || !s.baseline) continue;
    put(`${s.id}.mock.rps`, s.mock.rps, 'higher');
    put(`${s.id}.ratio`, s.ratio, 'higher');
    put(`${s.id}.cpuRatio`, s.cpuRatio, 'higher');
    put(`${s.id}.mock.cpuUsPerRequest`, s.mock.cpuUsPerRequest, 'lower');
    put(`${s.id}.mock.p50Ms`, s.mock.p50Ms, 'lower');
    put(`${s.id}.mock.peakRssBytes`, s.mock.peakRssBytes, 'lower');
    put(`${s.id}.overFastify`, s.overFastify, 'higher');
  }
  for (const s of results.scale?.sizes ?? []) {
    put(`scale.${s.pets}.startupMs`, s.startupMs, 'lower');
    put(`scale.${s.pets}.peakRssBytes`, s.peakRssBytes, 'lower');
    put(`scale.${s.pets}.pageP50Ms`, s.pageP50Ms, 'lower');
  }
  if (results.scale) put('scale.latencyRatio', results.scale.latencyRatio, 'lower');
  for (const s of results.sessions?.sizes ?? []) {
    put(`sessions.${s.pets}.createMs`, s.createMs, 'lower');
    put(`sessions.${s.pets}.idleSessionBytes`, s.idleSessionBytes, 'lower');
    put(`sessions.${s.pets}.writerSessionBytes`, s.writerSessionBytes, 'lower');
    for (const read of ['listPage', 'filteredPage', 'getPet']) put(`sessions.${s.pets}.${read}.ratio`, s[read]?.ratio, 'lower');
  }
  for (const d of results.big?.documents ?? []) {
    put(`big.${d.name}.startupMs`, d.startupMs, 'lower');
    put(`big.${d.name}.peakRssBytes`, d.peakRssBytes, 'lower');
    put(`big.${d.name}.runnerWallMs`, d.runnerWallMs, 'lower');
  }
  for (const k of results.proxy?.kinds ?? []) {
    put(`proxy.${k.id}.ours.rps`, k.ours?.rps, 'higher');
    put(`proxy.${k.id}.oursOverBare`, k.oursOverBare, 'higher');
    put(`proxy.${k.id}.oursOverPrism`, k.oursOverPrism, 'higher');
    put(`proxy.${k.id}.addedP50Ms`, k.addedP50Ms?.ours, 'lower');
    put(`proxy.${k.id}.ours.cpuUsPerRequest`, k.ours?.cpuUsPerRequest, 'lower');
  }
  for (const r of results.runner?.runs ?? []) {
    put(`runner.${r.label}.wallMs`, r.wallMs, 'lower');
    put(`runner.${r.label}.exchangesPerSecond`, r.exchangesPerSecond, 'higher');
  }
  return out;
}

/**
 * Compares a run with the committed figures. A metric regressed when it moved
 * in its worse direction by more than `tolerance` (0.2 = 20%) of the committed
 * value. Metrics missing on either side are skipped.
 */
export function compareMetrics(current, committed, tolerance = 0.2) {
  const rows = [];
  for (const [name, now] of Object.entries(current)) {
    const then = committed[name];
    if (!then || !Number.isFinite(then.value) || then.value === 0) continue;
    const change = (now.value - then.value) / Math.abs(then.value);
    const worse = now.better === 'higher' ? -change : change;
    rows.push({ name, committed: then.value, current: now.value, change, regression: worse > tolerance, improvement: -worse > tolerance });
  }
  return rows;
}

/** Whether a scenario's ratio meets its target (NaN never does). */
export function verdict(ratioValue, target) {
  return Number.isFinite(ratioValue) && ratioValue >= target ? 'PASS' : 'MISS';
}
