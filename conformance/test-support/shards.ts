/**
 * What the shard tests share: a target with several planted defects at once (the real mock behind a chain of
 * defective proxies, one defect each), and a run's verdicts as a map a single run and merged shards can be
 * compared by.
 */
import { startMock } from '../../mock/server.js';
import { startDefectiveServer, type DefectName } from '../../fixtures/defective/index.js';
import type { RunReport } from '../model.js';

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

/** `check@operation` → failed when any result failed, else passed when any passed, else skipped. */
export function verdicts(report: RunReport): Map<string, string> {
  const out = new Map<string, string>();
  for (const result of report.results) {
    const key = `${result.checkId}@${result.operationId ?? ''}`;
    const before = out.get(key);
    if (result.verdict === 'failed' || before === undefined || (before === 'skipped' && result.verdict === 'passed')) out.set(key, before === 'failed' ? 'failed' : result.verdict);
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}
