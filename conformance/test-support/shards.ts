/**
 * What the shard tests share: a target with several planted defects at once (the real mock behind a chain of
 * defective proxies, one defect each), and a run's verdicts as a map a single run and merged shards can be
 * compared by.
 */
import { startMock } from '../../mock/transport/server.js';
import { startDefectiveServer, type DefectName } from '../../fixtures/defective/index.js';
import type { RunReport } from '../model.js';
import { normalizeReason } from '../reporters/defects.js';

export interface Target {
  readonly url: string;
  close(): Promise<void>;
}

/** The mock behind one proxy per defect: each request passes every proxy, so every defect shows. */
export async function startTargetWithDefects(defects: readonly DefectName[]): Promise<Target> {
  const mock = await startMock({ port: 0, host: '127.0.0.1', quiet: true });
  const proxies: { url: string; close(): Promise<void> }[] = [];
  let url = mock.url;
  for (const defect of defects) {
    const proxy = await startDefectiveServer(defect, url);
    proxies.push(proxy);
    url = proxy.url;
  }
  return {
    url,
    async close() {
      for (const proxy of proxies.reverse()) await proxy.close();
      await mock.close();
    },
  };
}

/**
 * Every result as `check@operation verdict`, counted: the multiset a single run and merged shards must share (titles
 * name the run's own records and tags, so they are left out). A passive check's failures count once per reason: how
 * many failing answers it lists depends on how many such answers the run got (each shard probes the target too).
 */
export function verdicts(report: RunReport): Map<string, number> {
  const out = new Map<string, number>();
  const reasons = new Set<string>();
  for (const result of report.results) {
    const key = `${result.checkId}@${result.operationId ?? ''} ${result.verdict}`;
    if (result.judged !== undefined && result.verdict === 'failed') {
      const reason = `${key} ${normalizeReason(result.reason ?? '')}`;
      if (reasons.has(reason)) continue;
      reasons.add(reason);
    }
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}
