/**
 * The runner's request building is a room of its own (issue 30, point 4; ../shared/design/architecture.md,
 * "Growing it"): conformance/requests/ imports nothing of the run's bookkeeping (context.ts, the clean-up, the
 * coverage) nor of the checks, and no module of conformance/ imports itself back through others (the circle
 * cleanup -> context -> coverage -> cleanup is gone). Read from the sources' import lines, type-only ones included.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CONFORMANCE = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every non-test module of conformance/ with the modules of conformance/ it imports, as paths relative to it. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) {
        const source = readFileSync(path, 'utf8');
        const targets = [...source.matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)].map((m) => resolve(dirname(path), m[1]!.replace(/\.js$/, '.ts')));
        graph.set(relative(CONFORMANCE, path), targets.filter((t) => t.startsWith(CONFORMANCE)).map((t) => relative(CONFORMANCE, t)));
      }
    }
  };
  walk(CONFORMANCE);
  return graph;
}

/** The strongly connected groups of more than one module (Tarjan): each is an import circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    order.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, order.get(next)!));
      }
    }
    if (low.get(node) === order.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!order.has(node)) visit(node);
  return found;
}

describe("the runner's modules", () => {
  const graph = importGraph();

  it('import one another in no circle', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('keep request building below the bookkeeping and the checks', () => {
    const upward = [...graph.entries()]
      .filter(([module]) => module.startsWith('requests/'))
      .flatMap(([module, targets]) => targets.filter((t) => ['context.ts', 'cleanup.ts', 'coverage.ts', 'runner.ts'].includes(t) || t.startsWith('checks/') || t.startsWith('scenarios/')).map((t) => `${module} -> ${t}`));
    expect(upward).toEqual([]);
  });

  it('finds the modules it judges (the test reads the real tree)', () => {
    expect(graph.get('context.ts')).toEqual(expect.arrayContaining(['cleanup.ts', 'coverage.ts', 'requests/call.ts']));
    expect(graph.get('cleanup.ts')).not.toContain('context.ts');
  });
});
