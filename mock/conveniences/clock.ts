/**
 * The mock's clock, which only the deprecated operation's sunset reads. It can
 * be set for the whole process (`--now`) or for one request (`X-Mock-Now`),
 * so a front-end can rehearse the sunset today. A set clock stands still: the
 * mock behaves as if it were always that instant, which keeps tests exact.
 */

const RFC3339 = /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]{1,9})?([Zz]|[+-][0-9]{2}:[0-9]{2})$/;

/**
 * An RFC 3339 date-time (§5.6) as epoch milliseconds, or undefined. Strict:
 * an offset is required, and a day that does not exist (2027-02-30) is
 * refused where `Date.parse` would roll it over into March. Leap seconds
 * (`:60`) are refused because a JavaScript Date cannot hold them.
 */
export function parseRfc3339(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return undefined;
  const millis = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  const zone = m[8] ?? 'Z';
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const hours = Number(zone.slice(1, 3));
    const minutes = Number(zone.slice(4, 6));
    if (hours > 23 || minutes > 59) return undefined;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
  }
  return Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
}

export type Clock = () => number;

/** A clock fixed at `now`, or the real one. */
export function createClock(now?: Date): Clock {
  if (now === undefined) return Date.now;
  const fixed = now.getTime();
  return () => fixed;
}
