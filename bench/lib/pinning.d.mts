// Types of pinning.mjs, for bench/helpers.test.ts (the bench itself is plain JavaScript).
export function parseCpuList(text: string): number[];
export function planPinning(): { server: number; load: number; all: string } | { reason: string };
export function setAffinity(pid: number, cpuList: number | string): void;
