/**
 * A body's bytes as its Content-Encoding says they encode (RFC 9110 §8.4.1: gzip, deflate, br), a request's or an
 * answer's, for the judge, the report's excerpts and the HAR file: the proxy passes the encoded bytes on unchanged and reads what they mean. Bounded, so a small
 * compressed answer cannot inflate into gigabytes.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** The most a decoded body may take. */
const MAX_DECODED_BYTES = 8 * 1024 * 1024;

/**
 * The decoded bytes; the bytes themselves for no (or an unknown) coding; undefined when they do not decode. A list
 * (`gzip, br`) names the codings in the order they were applied (RFC 9110 §8.4), so they are undone last first.
 */
export function decodeBody(bytes: Buffer, encoding: string | undefined): Buffer | undefined {
  if (encoding === undefined || bytes.length === 0) return bytes;
  let out = bytes;
  for (const coding of encoding.split(',').reverse()) {
    const decoded = decodeOne(out, coding.trim().toLowerCase());
    if (decoded === undefined) return undefined;
    out = decoded;
  }
  return out;
}

function decodeOne(bytes: Buffer, coding: string): Buffer | undefined {
  if (coding === '' || coding === 'identity') return bytes;
  const limit = { maxOutputLength: MAX_DECODED_BYTES };
  try {
    if (coding === 'gzip' || coding === 'x-gzip') return gunzipSync(bytes, limit);
    if (coding === 'deflate') return inflateSync(bytes, limit);
    if (coding === 'br') return brotliDecompressSync(bytes, limit);
  } catch {
    return undefined;
  }
  return bytes;
}
