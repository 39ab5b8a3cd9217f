/**
 * A body's bytes as its Content-Encoding says they encode (RFC 9110 §8.4.1: gzip, deflate, br), for the judge and
 * the HAR file: the proxy passes the encoded bytes on unchanged and reads what they mean. Bounded, so a small
 * compressed answer cannot inflate into gigabytes.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** The most a decoded body may take. */
const MAX_DECODED_BYTES = 8 * 1024 * 1024;

/** The decoded bytes; the bytes themselves for no (or an unknown) coding; undefined when they do not decode. */
export function decodeBody(bytes: Buffer, encoding: string | undefined): Buffer | undefined {
  const coding = encoding?.trim().toLowerCase();
  if (coding === undefined || coding === '' || coding === 'identity' || bytes.length === 0) return bytes;
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
