// Types of stats.mjs, for bench/helpers.test.ts (the bench itself is plain
// JavaScript so that it runs without a build step).

export type Better = 'higher' | 'lower';
export interface Metric {
  readonly value: number;
  readonly better: Better;
}
export interface Comparison {
  readonly name: string;
  readonly committed: number;
  readonly current: number;
  /** (current - committed) / |committed| */
  readonly change: number;
  readonly regression: boolean;
  readonly improvement: boolean;
}

export function median(values: readonly number[]): number;
export function percentileSorted(sorted: ArrayLike<number>, p: number): number;
export function ratio(a: number, b: number): number;
export function fmt(value: number | undefined | null, digits?: number): string;
export function fmtMiB(bytes: number): string;
export function formatTable(headers: readonly string[], rows: readonly (readonly unknown[])[], right?: readonly string[]): string;
export function flattenMetrics(results: unknown): Record<string, Metric>;
export function compareMetrics(current: Readonly<Record<string, Metric>>, committed: Readonly<Record<string, Metric>>, tolerance?: number): Comparison[];
export function verdict(ratioValue: number, target: number): 'PASS' | 'MISS';
