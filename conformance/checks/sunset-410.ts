import type { Operation } from '../../src/contract/index.js';
import { NOT_APPLICABLE, verdictOf } from '../judge.js';
import type { CheckDefinition } from './types.js';

/**
 * A deprecated operation with `x-sunset` answers 410 Gone once the sunset
 * has passed (RFC 8594 §1; the contract: "after the sunset instant the
 * operation answers 410"), and never before it. "Now" is the target's own
 * clock, its `Date` header (RFC 9110 §6.6.1), so a server run with its clock
 * set (the mock's --now) is judged by that clock; without a Date header the
 * runner's clock stands in. Past the sunset a request the server refuses
 * before looking at the resource (400, 406, 413, 415, …) may still get that
 * error: only a success or a 404 is a finding. The 410's own headers are
 * deprecation-headers'; reading records through the successor instead is
 * what the stateful checks do when they meet the 410.
 */
export const sunset410: CheckDefinition = {
  id: 'sunset-410',
  family: 'deprecation',
  description: 'A deprecated operation answers 410 once the target\'s Date is past its x-sunset, and never before.',
  explain: {
    why: 'RFC 8594 announces the instant an operation stops; after it, 410 Gone (RFC 9110 section 15.5.11) tells clients to move to the successor. Before it, a 410 breaks clients that were promised time to migrate. The target\'s own Date header is its clock.',
    conformant: 'With `Date` past 2027-06-30T23:59:59Z, `GET /pets/1` answers 410 with the Error shape and its Deprecation, Sunset and Link headers; before then it answers 200 or 404.',
  },
  writes: false,
  judge(x) {
    const sunset = x.operation?.deprecation?.sunset;
    if (!x.operation || !sunset) return NOT_APPLICABLE;
    const now = targetNow(x.headers['date']);
    const past = now.getTime() > sunset.getTime();
    const when = `${x.headers['date'] ? `Date: ${x.headers['date']}` : `the runner's clock (${now.toISOString()}; the target sent no Date)`}`;
    if (past && (x.status < 400 || x.status === 404)) {
      return verdictOf([{ pointer: '/status', keyword: 'sunset', message: `${x.operation.operationId} is past its sunset (${sunset.toISOString()}; ${when}), so it must answer 410, not ${x.status}`, expected: 410, actual: x.status }]);
    }
    // The Date header has whole seconds (RFC 9110 §5.6.7): a server up to a second past the sunset may still send
    // the sunset's own second, so a 410 within that second is not early.
    if (!past && x.status === 410 && now.getTime() + 1000 <= sunset.getTime()) {
      return verdictOf([{ pointer: '/status', keyword: 'sunset', message: `${x.operation.operationId} answered 410 before its sunset (${sunset.toISOString()}; ${when}): it must still serve`, expected: `not 410 before ${sunset.toISOString()}`, actual: 410 }]);
    }
    return verdictOf([]);
  },
};

/** The target's clock from its Date header (an HTTP-date, RFC 9110 §5.6.7), else the runner's. */
export function targetNow(date: string | undefined): Date {
  const parsed = date !== undefined ? new Date(date) : undefined;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : new Date();
}

/** A 410 from a deprecated operation: gone by its sunset (sunset-410 judges whether rightly); the record is read through the successor instead. */
export function goneBySunset(operation: Operation, status: number | undefined): boolean {
  // Only an operation with a sunset can be gone by it; a 410 elsewhere is judged like any other answer.
  return operation.deprecated && operation.deprecation?.sunset !== undefined && status === 410;
}
