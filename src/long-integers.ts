/**
 * Whether JSON text can hold an integer a JavaScript number cannot: one past
 * Number.MAX_SAFE_INTEGER (2^53-1) needs at least 16 digits (2^53 is
 * 9007199254740992), so only text with a run of 16 or more digits outside
 * strings can. Both sides use it as the fast path before a slower exact read
 * (RFC 8259 §6 leaves precision to implementations; JSON.parse rounds): the
 * runner's lossless parse (conformance/json.ts) and the mock's refusal of
 * ids outside int64 (mock/transport/body-integers.ts). One pass, no allocation.
 */
export function hasLongDigitRun(text: string): boolean {
  // A compiled regular expression first: text without 16 digits in a row anywhere (nearly every body) is done
  // without the character loop below, which then tells runs inside strings from runs outside them.
  if (!SIXTEEN_DIGITS.test(text)) return false;
  let inString = false;
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
      digits = 0;
    } else if (code >= 0x30 && code <= 0x39) {
      if (++digits >= 16) return true;
    } else {
      digits = 0;
    }
  }
  return false;
}

const SIXTEEN_DIGITS = /[0-9]{16}/;
